/* A linked list built, reversed and freed by cps functions that suspend between steps. */
#include "corpus.h"

struct node { int v; struct node *next; };
CPS void pause(void) { }

CPS struct node *push(struct node *head, int v)
{
    struct node *n = malloc(sizeof *n);
    pause();
    n->v = v;
    n->next = head;
    return n;
}

CPS struct node *reverse(struct node *h)
{
    struct node *r = NULL;
    while (h) {
        struct node *next = h->next;
        pause();
        h->next = r;
        r = h;
        h = next;
    }
    return r;
}

int main(void)
{
    struct node *h = NULL;
    for (int i = 0; i < 8; i++) h = push(h, i * i);
    h = reverse(h);
    for (struct node *p = h; p; ) { struct node *n = p->next; printf("%d ", p->v); free(p); p = n; }
    printf("\n");
    return 0;
}
