/* The floor under a small collective between two cores: two threads, each
 * pinned to a CPU of its own, hand each other a round number (and data)
 * through shared cache lines, round after round, as two devices do in a
 * loop of psums. Prints the time per round in ns.
 *
 *   handoff MODE LINES ROUNDS
 *
 * MODE flag: each stores its round number in a line of its own and spins
 *   until the peer's reaches it (seq_cst store, as pcc announces);
 *   release: the same with a release store;
 *   staged: each first writes LINES lines of data, then the flag, and
 *   after the meeting reads the peer's LINES lines (pcc's staged inputs);
 *   perline: a round number in every data line, all of which the peer
 *   polls together (NCCL's LL protocol): no separate flag. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LINES 64

struct Line {
  _Alignas(64) _Atomic uint64_t round;
  char data[56];
};

static struct Line flags[2];
static struct Line lines[2][MAX_LINES];
static enum { FLAG, RELEASE, STAGED, PERLINE } mode;
static int lineCount;
static uint64_t rounds;
static double nanosPerRound;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static void pin(int index) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set) && index-- == 0) {
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      pthread_setaffinity_np(pthread_self(), sizeof set, &set);
      return;
    }
}

static void *run(void *arg) {
  int self = (int)(intptr_t)arg, peer = 1 - self;
  pin(self);
  volatile char sink = 0;
  double start = now();
  for (uint64_t r = 1; r <= rounds; ++r) {
    if (mode == PERLINE) {
      for (int l = 0; l < lineCount; ++l) {
        lines[self][l].data[0] = (char)r;
        atomic_store_explicit(&lines[self][l].round, r, memory_order_release);
      }
      /* Every line's number in each poll, so that their transfers overlap. */
      for (;;) {
        uint64_t all = 1;
        for (int l = 0; l < lineCount; ++l)
          all &= atomic_load_explicit(&lines[peer][l].round,
                                      memory_order_acquire) >= r;
        if (all)
          break;
      }
    } else {
      if (mode == STAGED)
        for (int l = 0; l < lineCount; ++l)
          lines[self][l].data[0] = (char)r;
      atomic_store_explicit(&flags[self].round, r,
                            mode == RELEASE ? memory_order_release
                                            : memory_order_seq_cst);
      while (atomic_load_explicit(&flags[peer].round, memory_order_acquire) <
             r)
        ;
    }
    if (mode == STAGED || mode == PERLINE)
      for (int l = 0; l < lineCount; ++l)
        sink += lines[peer][l].data[0];
  }
  if (self == 0)
    nanosPerRound = (now() - start) / (double)rounds;
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: handoff flag|release|staged|perline LINES "
                    "ROUNDS\n");
    return 1;
  }
  const char *names[] = {"flag", "release", "staged", "perline"};
  int known = 0;
  for (int m = 0; m < 4; ++m)
    if (!strcmp(argv[1], names[m])) {
      mode = m;
      known = 1;
    }
  lineCount = atoi(argv[2]);
  rounds = strtoull(argv[3], NULL, 10);
  if (!known || lineCount < 0 || lineCount > MAX_LINES || rounds == 0) {
    fprintf(stderr, "handoff: MODE is flag, release, staged or perline; "
                    "LINES 0 to %d; ROUNDS positive\n",
            MAX_LINES);
    return 1;
  }
  pthread_t threads[2];
  for (int t = 0; t < 2; ++t)
    pthread_create(&threads[t], NULL, run, (void *)(intptr_t)t);
  for (int t = 0; t < 2; ++t)
    pthread_join(threads[t], NULL);
  printf("%.1f\n", nanosPerRound);
  return 0;
}
