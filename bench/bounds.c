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
 *                                      regular and non-temporal stores, in
 *                                      blocks of two sizes, each thread's
 *                                      part fixed or claimed block by
 *                                      block, the fastest
 *
 *   bounds sgemm M N K TRANS_A TRANS_B REPEAT
 *                                      seconds for one OpenBLAS sgemm of an
 *                                      M x K by K x N product on one thread,
 *                                      A stored as K x M if TRANS_A is 1, B
 *                                      as N x K if TRANS_B is 1
 *
 * Like the benchmarks, the bandwidth modes' repetitions cycle through
 * enough copies of the arrays that the threads read 128 MiB of inputs (four
 * times this machine's last-level cache) before they read one again, after
 * a first pass over the copies that is not timed (as bench/run.py times
 * pcc). Each copy's arrays lie as a collective's data does: every array
 * one row of a matrix whose columns the threads split.
 */
#define _GNU_SOURCE
#include <cblas.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
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

enum { READ_LANES = 64 };

struct Job {
  enum Mode mode;
  int inputs;    /* source arrays per repetition */
  int outputs;   /* destination arrays per repetition (0 for READ) */
  size_t bytes;
  float **srcs, **dsts; /* per copy: its sources, then its destinations */
  int copies, variants, runs, threads;
  atomic_long *arrived; /* shared: runs begun times threads */
  atomic_long *claimed; /* shared, per run: CLAIM_FLOATS blocks claimed */
  float **rows;         /* per copy: its sources, then its destinations,
                           whole (thread 0's parts) */
  double *seconds;      /* per run */
  float sum;
};

/* The blocks (in floats) that collective() is timed with: the inputs' and
 * outputs' streams interleave at a block's grain, and on some machines a
 * finer one keeps reads and writes in flight together. */
static const size_t BLOCKS[] = {64, 1024};
enum { BLOCK_COUNT = sizeof BLOCKS / sizeof BLOCKS[0] };

/* Claimed variants: the threads take blocks of this many floats of the
 * whole rows in turn, as pcc's devices share out a large collective, so
 * that a thread on a slower core does less of the work. */
enum { CLAIM_FLOATS = 16384 };

/* Block by block (held in L1): the sum of the inputs, written into every
 * output. A copy (one input) reads its block straight from the source,
 * which the first write has brought into cache. */
static void collective(float *const *dst, int outputs, float *const *src,
                       int inputs, size_t n, size_t block, int streaming) {
  float sum[1024];
  for (size_t i = 0; i < n; i += block) {
    size_t len = n - i < block ? n - i : block;
    const float *block = src[0] + i;
    if (inputs > 1) {
      /* No plain copy: a compiler makes it `rep movs`, which the hardware
       * prefetcher serves worse than loads. */
      for (size_t k = 0; k < len; ++k)
        sum[k] = src[0][i + k] + src[1][i + k];
      for (int s = 2; s < inputs; ++s)
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

/* Run after run, on the same thread (as pcc's devices are), each begun
 * when every thread is ready: run r uses copy r % copies; the runs of each
 * variant (regular stores or non-temporal ones, in each block size) come in
 * a block of their own, after a pass over the copies that is not timed
 * (short runs right after the arrays were first written, or after another
 * variant's regular stores, pay for the dirty lines those left: 1.1-1.7x
 * the time at 1 MiB per device). */
static void *runJob(void *arg) {
  struct Job *job = arg;
  size_t n = job->bytes / sizeof(float);
  for (int r = 0; r < job->runs; ++r) {
    atomic_fetch_add(job->arrived, 1);
    while (atomic_load(job->arrived) < (long)(r + 1) * job->threads)
      sched_yield();
    float **src = job->srcs + (size_t)(r % job->copies) * job->inputs;
    float **dst = job->dsts + (size_t)(r % job->copies) * job->outputs;
    double t0 = now();
    if (job->mode == READ) {
      /* READ_LANES accumulators, so the adds pipeline and vectorize. */
      float acc[READ_LANES] = {0};
      for (size_t i = 0; i + READ_LANES <= n; i += READ_LANES)
        for (int k = 0; k < READ_LANES; ++k)
          acc[k] += src[0][i + k];
      for (int k = 0; k < READ_LANES; ++k)
        job->sum += acc[k];
    } else if (job->mode == COLLECTIVE) {
      /* Variant v: stores regular (even v) or non-temporal (odd v), in
       * blocks BLOCKS[v / 2 % BLOCK_COUNT], parts fixed (v below
       * 2 * BLOCK_COUNT) or claimed. */
      int variant = r / (job->runs / job->variants);
      size_t block = BLOCKS[variant / 2 % BLOCK_COUNT];
      if (variant < 2 * BLOCK_COUNT) {
        collective(dst, job->outputs, src, job->inputs, n, block, variant % 2);
      } else {
        float **rows = job->rows +
                       (size_t)(r % job->copies) * (job->inputs + job->outputs);
        size_t total = n * job->threads;
        float *from[job->inputs], *to[job->outputs + 1];
        for (;;) {
          size_t at =
              (size_t)atomic_fetch_add(&job->claimed[r], 1) * CLAIM_FLOATS;
          if (at >= total)
            break;
          for (int a = 0; a < job->inputs; ++a)
            from[a] = rows[a] + at;
          for (int a = 0; a < job->outputs; ++a)
            to[a] = rows[job->inputs + a] + at;
          size_t len = total - at < CLAIM_FLOATS ? total - at : CLAIM_FLOATS;
          collective(to, job->outputs, from, job->inputs, len, block,
                     variant % 2);
        }
      }
    } else {
      memcpy(dst[0], src[0], job->bytes);
    }
    job->seconds[r] = now() - t0;
  }
  return NULL;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(const double *values, int count) {
  double *sorted = malloc(count * sizeof(double));
  if (!sorted)
    fail("out of memory");
  memcpy(sorted, values, count * sizeof(double));
  qsort(sorted, count, sizeof(double), compareDoubles);
  double m = sorted[count / 2];
  free(sorted);
  return m;
}

/* The i-th CPU this process may run on, so that the threads run on
 * distinct cores as pcc's devices (pinned) and Open MPI's ranks (bound) do:
 * left to the scheduler, two new threads often share a core. */
static int allowedCpu(int i) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) == 0)
    return -1;
  i %= CPU_COUNT(&set);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set) && i-- == 0)
      return cpu;
  return -1;
}

/* All threads start each run together; a run lasts as long as its
 * slowest. COLLECTIVE times REPEAT runs of each variant (regular or
 * non-temporal stores, each block size) and prints those of the fastest (by
 * median): a bound that one way of moving the bytes reaches. */
static void bandwidth(enum Mode mode, int threads, size_t bytes, int repeat,
                      int inputs, int outputs) {
  struct Job *jobs = calloc(threads, sizeof(struct Job));
  pthread_t *ids = calloc(threads, sizeof(pthread_t));
  atomic_long arrived = 0;
  int arrays = inputs + outputs;
  size_t read = (size_t)threads * inputs * bytes;
  int copies = (int)((((size_t)128 << 20) + read - 1) / read);
  int variants =
      mode == COLLECTIVE ? 2 * BLOCK_COUNT * (threads > 1 ? 2 : 1) : 1;
  int runsEach = (copies + repeat) * variants;
  atomic_long *claimed = calloc(runsEach, sizeof(atomic_long));
  float **rows = calloc((size_t)copies * arrays, sizeof(float *));
  if (!claimed || !rows)
    fail("out of memory");
  for (int t = 0; t < threads; ++t) {
    struct Job *job = &jobs[t];
    job->mode = mode;
    job->inputs = inputs;
    job->outputs = outputs;
    job->bytes = bytes;
    job->copies = copies;
    job->variants = variants;
    job->runs = runsEach;
    job->threads = threads;
    job->arrived = &arrived;
    job->claimed = claimed;
    job->rows = rows;
    job->seconds = calloc(job->runs, sizeof(double));
    job->srcs = calloc((size_t)copies * inputs, sizeof(float *));
    job->dsts = calloc((size_t)copies * outputs + 1, sizeof(float *));
    if (!job->seconds || !job->srcs || !job->dsts)
      fail("out of memory");
  }
  /* Copy c's arrays: one allocation, array a its row a, thread t's part of
   * each row the t-th of `threads` (laid out apart, each thread's arrays
   * took 1.05x the time at 1 MiB per device). */
  size_t row = (size_t)threads * bytes;
  for (int c = 0; c < copies; ++c) {
    char *matrix = aligned_alloc(64, row * arrays);
    if (!matrix)
      fail("out of memory");
    memset(matrix, 1, row * inputs);
    memset(matrix + row * inputs, 2, row * outputs);
    for (int a = 0; a < arrays; ++a)
      rows[c * arrays + a] = (float *)(matrix + row * a);
    for (int t = 0; t < threads; ++t)
      for (int a = 0; a < arrays; ++a) {
        float *part = (float *)(matrix + row * a + bytes * t);
        if (a < inputs)
          jobs[t].srcs[c * inputs + a] = part;
        else
          jobs[t].dsts[c * outputs + a - inputs] = part;
      }
  }
  for (int t = 0; t < threads; ++t) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    int cpu = allowedCpu(t);
    if (cpu >= 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      pthread_attr_setaffinity_np(&attr, sizeof one, &one);
    }
    if (pthread_create(&ids[t], &attr, runJob, &jobs[t]) != 0)
      fail("cannot start a thread");
    pthread_attr_destroy(&attr);
  }
  for (int t = 0; t < threads; ++t)
    pthread_join(ids[t], NULL);
  /* Each timed run's slowest thread, variant by variant. */
  double *runs = calloc((size_t)repeat * variants, sizeof(double));
  if (!runs)
    fail("out of memory");
  for (int v = 0; v < variants; ++v)
    for (int r = 0; r < repeat; ++r)
      for (int t = 0; t < threads; ++t) {
        double seconds = jobs[t].seconds[v * (copies + repeat) + copies + r];
        if (seconds > runs[v * repeat + r])
          runs[v * repeat + r] = seconds;
      }
  int best = 0;
  for (int v = 1; v < variants; ++v)
    if (median(runs + v * repeat, repeat) < median(runs + best * repeat, repeat))
      best = v;
  for (int r = 0; r < repeat; ++r)
    printf("%.9f\n", runs[best * repeat + r]);
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
