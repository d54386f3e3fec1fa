/* declarations of issue_spawn_declared_in_header.c */
CPS void later(int n);
CPS void selfish(int n);
