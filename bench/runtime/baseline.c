/*
 * baseline.c -- the hand-written event-driven C peer: what a C programmer
 * writes without threads.  A "thread" is a malloc'd state struct whose
 * first member is a task (queue link + callback); the scheduler is a FIFO
 * run queue of tasks; a condition variable is a FIFO of tasks.  Every
 * blocking point is the end of one callback and the start of another.
 * This is the limit continuation-passing code can approach: CPC's
 * continuations are the same structs, built by the translator.
 */
#include "bench_common.h"

typedef struct task task;
typedef void task_fn(task *t);
struct task {
    task *next;
    task_fn *fn;
};

typedef struct {
    task *head, *tail;
} queue;

static queue runq;

static inline void q_push(queue *q, task *t)
{
    t->next = NULL;
    if (q->tail != NULL)
        q->tail->next = t;
    else
        q->head = t;
    q->tail = t;
}

static inline task *q_pop(queue *q)
{
    task *t = q->head;
    if (t != NULL) {
        q->head = t->next;
        if (q->head == NULL)
            q->tail = NULL;
    }
    return t;
}

static void spawn(task *t, task_fn *fn)
{
    t->fn = fn;
    q_push(&runq, t);
}

static void yield(task *t, task_fn *fn)
{
    t->fn = fn;
    q_push(&runq, t);
}

static void wait_on(queue *c, task *t, task_fn *fn)
{
    t->fn = fn;
    q_push(c, t);
}

static void signal_one(queue *c)
{
    task *t = q_pop(c);
    if (t != NULL)
        q_push(&runq, t);
}

static void signal_all(queue *c)
{
    task *t;
    while ((t = q_pop(c)) != NULL)
        q_push(&runq, t);
}

static void run(void)
{
    task *t;
    while ((t = q_pop(&runq)) != NULL)
        t->fn(t);
}

static double t0, t1;
static long warm;

/* ---- switch: two tasks yielding to each other -------------------------- */

struct yielder {
    task t;
    int id;
    long n, i;
};

static void yielder_step(task *tt)
{
    struct yielder *y = (struct yielder *)tt;
    if (y->i < y->n) {
        if (y->i == warm && y->id == 0)
            t0 = bench_now_ns();
        y->i++;
        yield(&y->t, yielder_step);
        return;
    }
    if (y->id == 1)
        t1 = bench_now_ns();
    free(y);
}

/* ---- cond: ping-pong over two condition variables ---------------------- */

static queue ca, cb;

struct pinger {
    task t;
    long n, i;
};

static void ping_step(task *tt)
{
    struct pinger *p = (struct pinger *)tt;
    if (p->i < p->n) {
        if (p->i == warm)
            t0 = bench_now_ns();
        p->i++;
        signal_one(&cb);
        wait_on(&ca, &p->t, ping_step);
        return;
    }
    t1 = bench_now_ns();
    free(p);
}

static void pong_woken(task *tt);

static void pong_step(task *tt)
{
    struct pinger *p = (struct pinger *)tt;
    if (p->i < p->n) {
        p->i++;
        wait_on(&cb, &p->t, pong_woken);
        return;
    }
    free(p);
}

static void pong_woken(task *tt)
{
    signal_one(&ca);
    pong_step(tt);
}

/* ---- spawn: create, run and end short tasks ---------------------------- */

static queue batch_done;
static long pending, children;

struct child {
    task t;
    int id;
};

static void child_run(task *tt)
{
    children++;
    if (--pending == 0)
        signal_one(&batch_done);
    free(tt);
}

struct spawner {
    task t;
    long n, i;
};

static void spawner_step(task *tt)
{
    struct spawner *s = (struct spawner *)tt;
    while (s->i < s->n) {
        struct child *c;
        if (s->i == warm)
            t0 = bench_now_ns();
        pending++;
        c = malloc(sizeof *c);
        bench_check(c != NULL, "malloc");
        c->id = (int)s->i;
        spawn(&c->t, child_run);
        s->i++;
        if (pending == BENCH_SPAWN_BATCH) {
            wait_on(&batch_done, &s->t, spawner_step);
            return;
        }
    }
    if (pending > 0) {
        wait_on(&batch_done, &s->t, spawner_step);
        return;
    }
    t1 = bench_now_ns();
    free(s);
}

/* ---- idle: many tasks waiting on one condition variable ---------------- */

static queue idle_c;
static long idle_base, idle_n, idle_woken;

struct waiter {
    task t;
    int id;
};

static void waiter_woken(task *tt)
{
    idle_woken++;
    free(tt);
}

static void waiter_start(task *tt)
{
    wait_on(&idle_c, tt, waiter_woken);
}

static void checker(task *tt)
{
    bench_report_idle("baseline", idle_base, idle_n);
    signal_all(&idle_c);
    free(tt);
}

int main(int argc, char **argv)
{
    long n;
    bench_test test = bench_parse(argc, argv, &n, "baseline");
    warm = BENCH_WARMUP(n);
    switch (test) {
    case BENCH_SWITCH: {
        int id;
        for (id = 0; id < 2; id++) {
            struct yielder *y = malloc(sizeof *y);
            y->id = id;
            y->n = n;
            y->i = 0;
            spawn(&y->t, yielder_step);
        }
        run();
        bench_report_ns("switch", "baseline", t1 - t0, 2.0 * (double)(n - warm));
        break;
    }
    case BENCH_COND: {
        struct pinger *a = malloc(sizeof *a), *b = malloc(sizeof *b);
        a->n = b->n = n;
        a->i = b->i = 0;
        spawn(&b->t, pong_step);
        spawn(&a->t, ping_step);
        run();
        bench_report_ns("cond", "baseline", t1 - t0, 2.0 * (double)(n - warm));
        break;
    }
    case BENCH_SPAWN: {
        struct spawner *s = malloc(sizeof *s);
        s->n = n;
        s->i = 0;
        spawn(&s->t, spawner_step);
        run();
        bench_check(children == n, "every child ran");
        bench_report_ns("spawn", "baseline", t1 - t0, (double)(n - warm));
        break;
    }
    case BENCH_IDLE: {
        long i;
        idle_n = n;
        idle_base = bench_peak_rss();
        for (i = 0; i < n; i++) {
            struct waiter *w = malloc(sizeof *w);
            bench_check(w != NULL, "malloc");
            w->id = (int)i;
            spawn(&w->t, waiter_start);
        }
        spawn(malloc(sizeof(task)), checker);
        run();
        bench_check(idle_woken == n, "every waiter woke");
        break;
    }
    }
    return 0;
}
