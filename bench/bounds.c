/* The physical bounds of bench/run.py, measured in the same run as the
 * benchmarks. Each mode prints one line per repetition.
 *
 *   bounds copy THREADS BYTES REPEAT   seconds for THREADS threads each to
 *                                      memcpy its own BYTES (the bandwidth
 *                                      bound counts bytes read plus written)
 *   bounds read THREADS BYTES REPEAT   seconds for THREADS threads each to
 *                                      sum its own BYTES of floats
 *   bounds collective THREADS BYTES REPEAT INPUTS OUTPUTS
 *                                      seconds for THREADS threads each to
 *                                      read INPUTS arrays of BYTES once, add
 *                                      them, and write the sums into
 *                                      OUTPUTS arrays (a copy if INPUTS is
 *                                      1): the least traffic of a
 *                                      collective, every input read once
 *                                      and every result written once; of
 *                                      regular and non-temporal stores, the
 *                                      faster
 *
 *   bounds sgemm M N K TRANS_A TRANS_B REPEAT
 *                                      seconds for one OpenBLAS sgemm of an
 *                                      M x K by K x N product on one thread,
 *                                      A stored as K x M if TRANS_A is 1, B
 *                                      as N x K if TRANS_B is 1
 *
 * Like the benchmarks, the bandwidth modes' repetitions cycle through
 * enough copies of the arrays that a thread reads 64 MiB of other inputs
 * (twice this machine's last-level cache) before it reads one again.
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

enum Mode { COPY, READ, COLLECTIVE };

struct Job {
  enum Mode mode;
  int inputs;    /* source arrays per repetition */
  int outputs;   /* destination arrays per repetition (0 for READ) */
  int streaming; /* COLLECTIVE: non-temporal stores */
  size_t bytes;
  float **srcs, **dsts; /* per copy: its sources, then its destinations */
  float **src, **dst;
  pthread_barrier_t *start;
  double seconds;
  float sum;
};

/* Block by block (4 KiB, held in L1): the sum of the inputs, written into
 * every output. A copy (one input) reads its block straight from the
 * source, which the first write has brought into cache. */
static void collective(float *const *dst, int outputs, float *const *src,
                       int inputs, size_t n, int streaming) {
  enum { BLOCK = 1024 };
  float sum[BLOCK];
  for (size_t i = 0; i < n; i += BLOCK) {
    size_t len = n - i < BLOCK ? n - i : BLOCK;
    const float *block = src[0] + i;
    if (inputs > 1) {
      memcpy(sum, block, len * sizeof(float));
      for (int s = 1; s < inputs; ++s)
        for (size_t k = 0; k < len; ++k)
          sum[k] += src[s][i + k];
      block = sum;
    }
    for (int o = 0; o < outputs; ++o) {
#ifdef __SSE__
      if (streaming) {
        for (size_t k = 0; k < len; k += 4)
          _mm_stream_ps(dst[o] + i + k, _mm_loadu_ps(block + k));
        continue;
      }
#endif
      memcpy(dst[o] + i, block, len * sizeof(float));
    }
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
  } else if (job->mode == COLLECTIVE) {
    collective(job->dst, job->outputs, job->src, job->inputs, n,
               job->streaming);
  } else {
    memcpy(job->dst[0], job->src[0], job->bytes);
  }
  job->seconds = now() - t0;
  return NULL;
}

/* All threads start together; a repetition lasts as long as its slowest.
 * COLLECTIVE times each repetition with regular and with non-temporal
 * stores (on different copies) and prints the faster: it is a bound. */
static void bandwidth(enum Mode mode, int threads, size_t bytes, int repeat,
                      int inputs, int outputs) {
  struct Job *jobs = calloc(threads, sizeof(struct Job));
  pthread_t *ids = calloc(threads, sizeof(pthread_t));
  pthread_barrier_t start;
  int arrays = inputs + outputs;
  size_t read = (size_t)inputs * bytes;
  int copies = (int)((((size_t)64 << 20) + read - 1) / read);
  int variants = mode == COLLECTIVE ? 2 : 1;
  for (int t = 0; t < threads; ++t) {
    jobs[t].mode = mode;
    jobs[t].inputs = inputs;
    jobs[t].outputs = outputs;
    jobs[t].bytes = bytes;
    jobs[t].srcs = calloc((size_t)copies * inputs, sizeof(float *));
    jobs[t].dsts = calloc((size_t)copies * outputs + 1, sizeof(float *));
    for (int c = 0; c < copies; ++c)
      for (int a = 0; a < arrays; ++a) {
        float *array = aligned_alloc(64, bytes);
        if (!array)
          fail("out of memory");
        memset(array, a < inputs ? 1 : 2, bytes);
        if (a < inputs)
          jobs[t].srcs[c * inputs + a] = array;
        else
          jobs[t].dsts[c * outputs + a - inputs] = array;
      }
  }
  int next = 0; /* the copy the next run uses */
  for (int r = 0; r < repeat; ++r) {
    double fastest = 0;
    for (int v = 0; v < variants; ++v, next = (next + 1) % copies) {
      pthread_barrier_init(&start, NULL, threads);
      for (int t = 0; t < threads; ++t) {
        jobs[t].src = jobs[t].srcs + (size_t)next * inputs;
        jobs[t].dst = jobs[t].dsts + (size_t)next * outputs;
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
  int collectiveMode = !strcmp(mode, "collective");
  if ((argc == 5 && (!strcmp(mode, "copy") || !strcmp(mode, "read"))) ||
      (argc == 7 && collectiveMode)) {
    int threads = atoi(argv[2]), repeat = atoi(argv[4]);
    int inputs = collectiveMode ? atoi(argv[5]) : 1;
    int outputs = collectiveMode ? atoi(argv[6]) : !strcmp(mode, "copy");
    size_t bytes = strtoull(argv[3], NULL, 10);
    if (threads <= 0 || repeat <= 0 || inputs <= 0 || outputs < 0 ||
        bytes < 64)
      fail("THREADS, REPEAT and INPUTS must be positive, OUTPUTS not "
           "negative, BYTES at least 64");
    bandwidth(collectiveMode ? COLLECTIVE
              : !strcmp(mode, "read") ? READ
                                      : COPY,
              threads, bytes & ~(size_t)63, repeat, inputs, outputs);
  } else if (argc == 8 && !strcmp(mode, "sgemm")) {
    int m = atoi(argv[2]), n = atoi(argv[3]), k = atoi(argv[4]);
    int repeat = atoi(argv[7]);
    if (m <= 0 || n <= 0 || k <= 0 || repeat <= 0)
      fail("M, N, K and REPEAT must be positive");
    sgemm(m, n, k, atoi(argv[5]), atoi(argv[6]), repeat);
  } else {
    fail("usage: bounds copy|read THREADS BYTES REPEAT | bounds collective "
         "THREADS BYTES REPEAT INPUTS OUTPUTS | bounds sgemm M N K TRANS_A "
         "TRANS_B REPEAT");
  }
  return 0;
}
