/* The physical bounds of bench/run.py, measured in the same run as the
 * benchmarks. Each mode prints one line per repetition.
 *
 *   bounds copy THREADS BYTES REPEAT   seconds for THREADS threads each to
 *                                      memcpy its own BYTES (the bandwidth
 *                                      bound counts bytes read plus written)
 *   bounds read THREADS BYTES REPEAT   seconds for THREADS threads each to
 *                                      sum its own BYTES of floats
 *
 * Like the benchmarks, repetitions cycle through enough buffers (64 MiB per
 * thread) that none finds its data in cache.
 *   bounds sgemm SIZE REPEAT           seconds for one OpenBLAS sgemm of
 *                                      SIZE^3 on one thread
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void openblas_set_num_threads(int);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void fail(const char *message) {
  fprintf(stderr, "bounds: %s\n", message);
  exit(1);
}

struct Job {
  int read;
  size_t bytes;
  int copies; /* buffers to cycle through */
  float **srcs, **dsts;
  float *src, *dst;
  pthread_barrier_t *start;
  double seconds;
  float sum;
};

static void *runJob(void *arg) {
  struct Job *job = arg;
  pthread_barrier_wait(job->start);
  double t0 = now();
  if (job->read) {
    /* Eight accumulators, so the adds pipeline and vectorize. */
    float acc[8] = {0};
    size_t n = job->bytes / sizeof(float);
    for (size_t i = 0; i + 8 <= n; i += 8)
      for (int k = 0; k < 8; ++k)
        acc[k] += job->src[i + k];
    for (int k = 0; k < 8; ++k)
      job->sum += acc[k];
  } else {
    memcpy(job->dst, job->src, job->bytes);
  }
  job->seconds = now() - t0;
  return NULL;
}

/* All threads start together; a repetition lasts as long as its slowest. */
static void bandwidth(int read, int threads, size_t bytes, int repeat) {
  struct Job *jobs = calloc(threads, sizeof(struct Job));
  pthread_t *ids = calloc(threads, sizeof(pthread_t));
  pthread_barrier_t start;
  int copies = (int)((((size_t)64 << 20) + bytes - 1) / bytes);
  for (int t = 0; t < threads; ++t) {
    jobs[t].read = read;
    jobs[t].bytes = bytes;
    jobs[t].copies = copies;
    jobs[t].srcs = calloc(copies, sizeof(float *));
    jobs[t].dsts = calloc(copies, sizeof(float *));
    for (int c = 0; c < copies; ++c) {
      jobs[t].srcs[c] = aligned_alloc(64, bytes);
      jobs[t].dsts[c] = read ? NULL : aligned_alloc(64, bytes);
      if (!jobs[t].srcs[c] || (!read && !jobs[t].dsts[c]))
        fail("out of memory");
      memset(jobs[t].srcs[c], 1, bytes);
      if (!read)
        memset(jobs[t].dsts[c], 2, bytes);
    }
  }
  for (int r = 0; r < repeat; ++r) {
    pthread_barrier_init(&start, NULL, threads);
    for (int t = 0; t < threads; ++t) {
      jobs[t].src = jobs[t].srcs[r % copies];
      jobs[t].dst = jobs[t].dsts[r % copies];
      jobs[t].start = &start;
      pthread_create(&ids[t], NULL, runJob, &jobs[t]);
    }
    double slowest = 0;
    for (int t = 0; t < threads; ++t) {
      pthread_join(ids[t], NULL);
      if (jobs[t].seconds > slowest)
        slowest = jobs[t].seconds;
    }
    pthread_barrier_destroy(&start);
    printf("%.9f\n", slowest);
  }
}

static void sgemm(int size, int repeat) {
  openblas_set_num_threads(1);
  size_t n = (size_t)size * size;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float)),
        *c = malloc(n * sizeof(float));
  if (!a || !b || !c)
    fail("out of memory");
  for (size_t i = 0; i < n; ++i) {
    a[i] = (float)(i % 13) - 6;
    b[i] = (float)(i % 7) - 3;
  }
  for (int r = 0; r < repeat; ++r) {
    double t0 = now();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, size, size, size,
                1.0f, a, size, b, size, 0.0f, c, size);
    printf("%.9f\n", now() - t0);
  }
}

int main(int argc, char **argv) {
  if (argc == 5 && (!strcmp(argv[1], "copy") || !strcmp(argv[1], "read"))) {
    int threads = atoi(argv[2]), repeat = atoi(argv[4]);
    size_t bytes = strtoull(argv[3], NULL, 10);
    if (threads <= 0 || repeat <= 0 || bytes < 64)
      fail("THREADS and REPEAT must be positive, BYTES at least 64");
    bandwidth(!strcmp(argv[1], "read"), threads, bytes & ~(size_t)63, repeat);
  } else if (argc == 4 && !strcmp(argv[1], "sgemm")) {
    int size = atoi(argv[2]), repeat = atoi(argv[3]);
    if (size <= 0 || repeat <= 0)
      fail("SIZE and REPEAT must be positive");
    sgemm(size, repeat);
  } else {
    fail("usage: bounds copy|read THREADS BYTES REPEAT | bounds sgemm SIZE "
         "REPEAT");
  }
  return 0;
}
