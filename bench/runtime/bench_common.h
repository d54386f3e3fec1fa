/*
 * bench_common.h -- helpers shared by every runtime micro-benchmark
 * (CPC and its peers): a clock, peak RSS, argument parsing, output.
 *
 * Every binary is invoked as   bench-SYS TEST COUNT
 * with TEST one of switch, cond, spawn, idle, and prints one line
 *     BENCH runtime.TEST.SYS VALUE UNIT
 * for that single run.  bench/runtime/run.py runs them several times,
 * interleaved, and prints the median and the minimum.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Iterations run before the clock starts (caches, allocator warm-up). */
#define BENCH_WARMUP(n) ((n) / 10 < 100000 ? (n) / 10 : 100000)

/* Children a spawner creates before it waits for them to finish. */
#define BENCH_SPAWN_BATCH 64

/* The clock: the CPU time of the calling thread, so that time spent
   preempted by other processes on a shared machine is not counted (every
   benchmark runs on the main thread); BENCH_CLOCK=wall selects the
   monotonic wall clock instead. */
static inline double bench_now_ns(void)
{
    static clockid_t id = (clockid_t)-1;
    struct timespec ts;
    if (id == (clockid_t)-1) {
        const char *e = getenv("BENCH_CLOCK");
        id = e != NULL && strcmp(e, "wall") == 0 ? CLOCK_MONOTONIC
                                                 : CLOCK_THREAD_CPUTIME_ID;
    }
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Peak resident set size of the process so far, in bytes (VmHWM). */
static inline long bench_peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kb * 1024;
}

typedef enum { BENCH_SWITCH, BENCH_COND, BENCH_SPAWN, BENCH_IDLE } bench_test;

static inline bench_test bench_parse(int argc, char **argv, long *count,
                                     const char *sys)
{
    static const char *names[] = {"switch", "cond", "spawn", "idle"};
    int i;
    if (argc == 3) {
        *count = atol(argv[2]);
        for (i = 0; i < 4; i++)
            if (strcmp(argv[1], names[i]) == 0 && *count > 0)
                return (bench_test)i;
    }
    fprintf(stderr, "usage: bench-%s switch|cond|spawn|idle COUNT\n", sys);
    exit(2);
}

/* Time per operation. */
static inline void bench_report_ns(const char *test, const char *sys,
                                   double ns, double ops)
{
    printf("BENCH runtime.%s.%s %.2f ns\n", test, sys, ns / ops);
    fflush(stdout);
}

/* Bytes per idle thread: peak RSS growth over `base`, divided by n. */
static inline void bench_report_idle(const char *sys, long base, long n)
{
    long peak = bench_peak_rss();
    printf("BENCH runtime.idle.%s %.1f B\n", sys,
           (double)(peak - base) / (double)n);
    fflush(stdout);
}

static inline void bench_check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "bench: check failed: %s\n", what);
        exit(1);
    }
}

#endif
