/* The listing of a subtree of Clang's cursors in one call, for the
 * translator's cursors.py.
 *
 * Listed through the Python bindings, every node costs a ctypes callback
 * from clang_visitChildren (a Python call, new Python objects for its
 * arguments).  Here the visit runs in C and fills flat arrays -- the
 * CXCursor structs themselves, each node's parent index, the end of its
 * subtree and its kind -- which Python reads with a few slices and copies.
 * The rules are those of cursors.py's `_visit_subtree`, which remains the
 * listing when this library is absent: see there why each one is needed.
 *
 * No libclang header is needed: the few structs and functions used are
 * libclang's stable C ABI (clang-c/Index.h), declared below, and the
 * functions are looked up in the handle of the libclang that Python has
 * already loaded (`cf_init`).
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int kind;
    int xdata;
    const void *data[3];
} CXCursor;

enum { CHILD_BREAK = 0, CHILD_CONTINUE = 1, CHILD_RECURSE = 2 };

typedef struct {
    const void *ptr_data[2];
    unsigned int_data;
} CXSourceLocation;

typedef struct {
    const void *ptr_data[2];
    unsigned begin_int_data;
    unsigned end_int_data;
} CXSourceRange;

typedef int (*Visitor)(CXCursor cursor, CXCursor parent, void *client);
typedef unsigned (*VisitChildren)(CXCursor parent, Visitor visitor, void *client);

static VisitChildren visit_children;
static CXSourceRange (*cursor_extent)(CXCursor);
static CXSourceLocation (*cursor_location)(CXCursor);
static CXSourceLocation (*range_start)(CXSourceRange);
static CXSourceLocation (*range_end)(CXSourceRange);
static void (*expansion)(CXSourceLocation, void **file, unsigned *line, unsigned *column,
                         unsigned *offset);
static CXCursor (*cursor_referenced)(CXCursor);

/* CXCursor_DeclRefExpr: the kind whose referenced declaration is listed
 * with the facts (the passes ask it of every reference to a variable). */
enum { DECL_REF_EXPR = 101 };

/* Kinds without children in C (the caller names them), and the kind whose
 * children libclang may list twice (sizeof's operand, `sizeof(int[n])`). */
#define MAX_LEAF_KINDS 16
static int leaf_kinds[MAX_LEAF_KINDS];
static int n_leaf_kinds;
static int dup_kind = -1;

/* What one listing leaves for the caller: `n` nodes in preorder, the root
 * first; for node i its cursor, its kind, its parent's index (-1 for the
 * root) and the end of its subtree (its subtree is nodes i .. ends[i]-1).
 * The arrays are reused by the next listing: one listing at a time (native.py
 * calls it with the Python interpreter's lock held). */
typedef struct {
    long n;
    CXCursor *cursors;
    int *kinds;
    int *parents;
    int *ends;
    /* with facts: each node's extent, its ends and its location, and the
     * offsets (expansion's, clang_getInstantiationLocation's) of these
     * three locations */
    CXSourceRange *extents;
    CXSourceLocation *locations;    /* 3 per node: start, end, location */
    unsigned *offsets;              /* 3 per node, the same order */
    /* the declaration each reference (DECL_REF_EXPR) designates,
     * clang_getCursorReferenced's; undefined for the other nodes */
    CXCursor *referenced;
} Listing;

static Listing out;
static long cap;

/* The nodes entered and not yet left, the root at the bottom. */
static int *stack;
static long depth, stack_cap;

static int given_up;            /* a parent not met before: listing given up */
static int one_level;           /* list the root's children only */
static int with_facts;          /* fill extents, locations and offsets */

static int grow(void)
{
    long c = cap ? 2 * cap : 4096;
    CXCursor *cu = realloc(out.cursors, c * sizeof *cu);
    if (cu) out.cursors = cu;
    int *k = realloc(out.kinds, c * sizeof *k);
    if (k) out.kinds = k;
    int *p = realloc(out.parents, c * sizeof *p);
    if (p) out.parents = p;
    int *e = realloc(out.ends, c * sizeof *e);
    if (e) out.ends = e;
    int *s = realloc(stack, c * sizeof *s);
    if (s) stack = s;
    CXSourceRange *x = realloc(out.extents, c * sizeof *x);
    if (x) out.extents = x;
    CXSourceLocation *l = realloc(out.locations, 3 * c * sizeof *l);
    if (l) out.locations = l;
    unsigned *o = realloc(out.offsets, 3 * c * sizeof *o);
    if (o) out.offsets = o;
    CXCursor *r = realloc(out.referenced, c * sizeof *r);
    if (r) out.referenced = r;
    if (!cu || !k || !p || !e || !s || !x || !l || !o || !r)
        return -1;
    cap = stack_cap = c;
    return 0;
}

static int is_leaf(int kind)
{
    for (int i = 0; i < n_leaf_kinds; i++)
        if (leaf_kinds[i] == kind)
            return 1;
    return 0;
}

static int same(const CXCursor *a, const CXCursor *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

/* Whether `c` is already a child of node `p` (its children follow it). */
static int child_of(long p, const CXCursor *c)
{
    for (long x = p + 1; x < out.n; x++)
        if (out.parents[x] == p && same(&out.cursors[x], c))
            return 1;
    return 0;
}

static void facts(long j, CXCursor c)
{
    CXSourceRange r = cursor_extent(c);
    CXSourceLocation *l = &out.locations[3 * j];
    unsigned *o = &out.offsets[3 * j];
    out.extents[j] = r;
    l[0] = range_start(r);
    l[1] = range_end(r);
    l[2] = cursor_location(c);
    for (int i = 0; i < 3; i++)
        expansion(l[i], NULL, NULL, NULL, &o[i]);
    if (c.kind == DECL_REF_EXPR)
        out.referenced[j] = cursor_referenced(c);
}

static int visit(CXCursor child, CXCursor parent, void *client)
{
    (void)client;
    long j = out.n;
    if (j == cap && grow() < 0) {
        given_up = 1;
        return CHILD_BREAK;
    }
    long top = stack[depth - 1];
    if (!one_level) {
        /* libclang passes each node's parent as the cursor it passed
         * before (the same bytes); the root's own may differ: it is
         * taken from its first child */
        while (!same(&out.cursors[top], &parent)) {
            if (depth == 1) {
                if (j == 1) {
                    out.cursors[0] = parent;
                    break;
                }
                given_up = 1;
                return CHILD_BREAK;
            }
            out.ends[top] = (int)j;
            depth--;
            top = stack[depth - 1];
        }
        if (out.kinds[top] == dup_kind && child_of(top, &child))
            return CHILD_CONTINUE;
    }
    out.cursors[j] = child;
    out.kinds[j] = child.kind;
    out.parents[j] = (int)top;
    out.n = j + 1;
    if (with_facts)
        facts(j, child);
    if (one_level || is_leaf(child.kind)) {
        out.ends[j] = (int)(j + 1);
        return CHILD_CONTINUE;
    }
    out.ends[j] = 0;
    stack[depth++] = (int)j;
    return CHILD_RECURSE;
}

/* The version of what native.py reads: the Listing's layout and the
 * functions' arguments.  native.py uses a library only if it has the
 * version it was written for, so that one built from another version of
 * the translator (left in build/ or beside an installed package) is not
 * read wrongly; bump it with any such change. */
const int cf_abi = 2;

/* Look up libclang's functions in `handle` (dlopen's, from ctypes) and
 * note the leaf kinds and the duplicating kind.  0 on success. */
int cf_init(void *handle, const int *leaves, int n_leaves, int dup)
{
    visit_children = (VisitChildren)dlsym(handle, "clang_visitChildren");
    *(void **)&cursor_extent = dlsym(handle, "clang_getCursorExtent");
    *(void **)&cursor_location = dlsym(handle, "clang_getCursorLocation");
    *(void **)&range_start = dlsym(handle, "clang_getRangeStart");
    *(void **)&range_end = dlsym(handle, "clang_getRangeEnd");
    *(void **)&expansion = dlsym(handle, "clang_getInstantiationLocation");
    *(void **)&cursor_referenced = dlsym(handle, "clang_getCursorReferenced");
    if (!visit_children || !cursor_extent || !cursor_location || !range_start ||
        !range_end || !expansion || !cursor_referenced || n_leaves > MAX_LEAF_KINDS)
        return -1;
    memcpy(leaf_kinds, leaves, n_leaves * sizeof *leaves);
    n_leaf_kinds = n_leaves;
    dup_kind = dup;
    return 0;
}

/* List the subtree of `root` (or, with `children_only`, its children one
 * level) into the Listing returned, with each node's facts when `facts`
 * (the root's are not filled); its `n` is -1 when the listing was given up
 * (a parent not met before, or no memory). */
const Listing *cf_list(CXCursor root, int children_only, int facts)
{
    out.n = 0;
    if (cap == 0 && grow() < 0) {
        out.n = -1;
        return &out;
    }
    out.cursors[0] = root;
    out.kinds[0] = root.kind;
    out.parents[0] = -1;
    out.ends[0] = 0;
    out.n = 1;
    stack[0] = 0;
    depth = 1;
    given_up = 0;
    one_level = children_only;
    with_facts = facts;
    visit_children(root, visit, NULL);
    if (given_up) {
        out.n = -1;
        return &out;
    }
    while (depth > 0)
        out.ends[stack[--depth]] = (int)out.n;
    return &out;
}
