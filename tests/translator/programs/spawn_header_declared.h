/* greet is declared here only; spawn_header_declared.cpc defines it after
   the functions that spawn it. */
cps void greet(const char *who, int n);
