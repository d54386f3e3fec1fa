/* Seen in C mode by the generated code: `cps` expands to nothing there. */
typedef cps int cps_op(int, int);
struct hops { const char *name; cps_op *op; };
cps int hdr_add(int a, int b);
