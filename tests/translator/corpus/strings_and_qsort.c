/* String handling and a native qsort with a native comparator, from cps code; arrays of
   strings live across cps calls. */
#include "corpus.h"

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

CPS void pause(void) { }

CPS char *join(char **w, int n, char *out)
{
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        pause();
        if (i) strcat(out, ",");
        strcat(out, w[i]);
    }
    return out;
}

int main(void)
{
    char *words[] = {"pear", "apple", "fig", "banana", "cherry"};
    char buf[64];
    pause();
    qsort(words, 5, sizeof words[0], cmp);
    char *joined = join(words, 5, buf);
    printf("%s %zu\n", joined, strlen(buf));
    return 0;
}
