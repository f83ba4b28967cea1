/* The physical bounds of bench/run.py, measured in the same run as the
 * benchmarks. Each mode prints one line per repetition.
 *
 *   bounds copy THREADS BYTES REPEAT   seconds for THREADS threads each to
 *                                      memcpy its own BYTES (the bandwidth
 *                                      bound counts bytes read plus written)
 *   bounds read THREADS BYTES REPEAT   seconds for THREADS threads each to
 *                                      sum its own BYTES of floats
 *   bounds reduce THREADS BYTES REPEAT STREAMS
 *                                      seconds for THREADS threads each to
 *                                      add STREAMS arrays of BYTES into one:
 *                                      the least a reduce-scatter must do
 *                                      (read every input once, write every
 *                                      sum once); of regular and
 *                                      non-temporal stores, the faster
 *
 *   bounds sgemm M N K TRANS_A TRANS_B REPEAT
 *                                      seconds for one OpenBLAS sgemm of an
 *                                      M x K by K x N product on one thread,
 *                                      A stored as K x M if TRANS_A is 1, B
 *                                      as N x K if TRANS_B is 1
 *
 * Like the benchmarks, the bandwidth modes' repetitions cycle through
 * enough buffers (64 MiB per thread) that none finds its data in cache.
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __SSE__
#include <xmmintrin.h>
#endif

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

enum Mode { COPY, READ, REDUCE };

struct Job {
  enum Mode mode;
  int streams;   /* source arrays per repetition (1 but for REDUCE) */
  int streaming; /* REDUCE: non-temporal stores */
  size_t bytes;
  float **srcs, **dsts; /* per copy: streams sources, one destination */
  float **src, *dst;
  pthread_barrier_t *start;
  double seconds;
  float sum;
};

/* dst = the sum of the streams, 16 floats (one cache line) at a time. */
static void reduce(float *restrict dst, float *const *src, int streams,
                   size_t n, int streaming) {
  for (size_t i = 0; i < n; i += 16) {
    float line[16];
    memcpy(line, src[0] + i, sizeof line);
    for (int s = 1; s < streams; ++s)
      for (int k = 0; k < 16; ++k)
        line[k] += src[s][i + k];
#ifdef __SSE__
    if (streaming) {
      for (int k = 0; k < 16; k += 4)
        _mm_stream_ps(dst + i + k, _mm_loadu_ps(line + k));
      continue;
    }
#endif
    memcpy(dst + i, line, sizeof line);
  }
#ifdef __SSE__
  _mm_sfence();
#endif
}

static void *runJob(void *arg) {
  struct Job *job = arg;
  pthread_barrier_wait(job->start);
  double t0 = now();
  size_t n = job->bytes / sizeof(float);
  if (job->mode == READ) {
    /* Eight accumulators, so the adds pipeline and vectorize. */
    float acc[8] = {0};
    for (size_t i = 0; i + 8 <= n; i += 8)
      for (int k = 0; k < 8; ++k)
        acc[k] += job->src[0][i + k];
    for (int k = 0; k < 8; ++k)
      job->sum += acc[k];
  } else if (job->mode == REDUCE) {
    reduce(job->dst, job->src, job->streams, n, job->streaming);
  } else {
    memcpy(job->dst, job->src[0], job->bytes);
  }
  job->seconds = now() - t0;
  return NULL;
}

/* All threads start together; a repetition lasts as long as its slowest.
 * REDUCE times each repetition with regular and with non-temporal stores
 * (on different copies) and prints the faster: it is a bound. */
static void bandwidth(enum Mode mode, int threads, size_t bytes, int repeat,
                      int streams) {
  struct Job *jobs = calloc(threads, sizeof(struct Job));
  pthread_t *ids = calloc(threads, sizeof(pthread_t));
  pthread_barrier_t start;
  size_t set = (size_t)(streams + (mode != READ)) * bytes;
  int copies = (int)((((size_t)64 << 20) + set - 1) / set);
  int variants = mode == REDUCE ? 2 : 1;
  for (int t = 0; t < threads; ++t) {
    jobs[t].mode = mode;
    jobs[t].streams = streams;
    jobs[t].bytes = bytes;
    jobs[t].srcs = calloc((size_t)copies * streams, sizeof(float *));
    jobs[t].dsts = calloc(copies, sizeof(float *));
    for (int c = 0; c < copies; ++c) {
      for (int s = 0; s < streams; ++s) {
        float *src = aligned_alloc(64, bytes);
        if (!src)
          fail("out of memory");
        memset(src, 1, bytes);
        jobs[t].srcs[c * streams + s] = src;
      }
      if (mode != READ) {
        jobs[t].dsts[c] = aligned_alloc(64, bytes);
        if (!jobs[t].dsts[c])
          fail("out of memory");
        memset(jobs[t].dsts[c], 2, bytes);
      }
    }
  }
  int next = 0; /* the copy the next run uses */
  for (int r = 0; r < repeat; ++r) {
    double fastest = 0;
    for (int v = 0; v < variants; ++v, next = (next + 1) % copies) {
      pthread_barrier_init(&start, NULL, threads);
      for (int t = 0; t < threads; ++t) {
        jobs[t].src = jobs[t].srcs + (size_t)next * streams;
        jobs[t].dst = jobs[t].dsts[next];
        jobs[t].streaming = v;
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
      if (v == 0 || slowest < fastest)
        fastest = slowest;
    }
    printf("%.9f\n", fastest);
  }
}

static void sgemm(int m, int n, int k, int transA, int transB, int repeat) {
  openblas_set_num_threads(1);
  float *a = malloc((size_t)m * k * sizeof(float)),
        *b = malloc((size_t)k * n * sizeof(float)),
        *c = malloc((size_t)m * n * sizeof(float));
  if (!a || !b || !c)
    fail("out of memory");
  for (size_t i = 0; i < (size_t)m * k; ++i)
    a[i] = (float)(i % 13) - 6;
  for (size_t i = 0; i < (size_t)k * n; ++i)
    b[i] = (float)(i % 7) - 3;
  for (int r = 0; r < repeat; ++r) {
    double t0 = now();
    cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
                transB ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a,
                transA ? m : k, b, transB ? k : n, 0.0f, c, n);
    printf("%.9f\n", now() - t0);
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int reduceMode = !strcmp(mode, "reduce");
  if ((argc == 5 && (!strcmp(mode, "copy") || !strcmp(mode, "read"))) ||
      (argc == 6 && reduceMode)) {
    int threads = atoi(argv[2]), repeat = atoi(argv[4]);
    int streams = reduceMode ? atoi(argv[5]) : 1;
    size_t bytes = strtoull(argv[3], NULL, 10);
    if (threads <= 0 || repeat <= 0 || streams <= 0 || bytes < 64)
      fail("THREADS, REPEAT and STREAMS must be positive, BYTES at least 64");
    bandwidth(reduceMode ? REDUCE : !strcmp(mode, "read") ? READ : COPY,
              threads, bytes & ~(size_t)63, repeat, streams);
  } else if (argc == 8 && !strcmp(mode, "sgemm")) {
    int m = atoi(argv[2]), n = atoi(argv[3]), k = atoi(argv[4]);
    int repeat = atoi(argv[7]);
    if (m <= 0 || n <= 0 || k <= 0 || repeat <= 0)
      fail("M, N, K and REPEAT must be positive");
    sgemm(m, n, k, atoi(argv[5]), atoi(argv[6]), repeat);
  } else {
    fail("usage: bounds copy|read THREADS BYTES REPEAT | bounds reduce "
         "THREADS BYTES REPEAT STREAMS | bounds sgemm M N K TRANS_A TRANS_B "
         "REPEAT");
  }
  return 0;
}
