/* The MPI baseline of bench/run.py: times one collective of COUNT floats
 * per rank, REPEAT times, and prints one line per run on rank 0: the slowest
 * rank's time in seconds (the collective is done when every rank is done).
 * Like the pcc runs it is compared with, it cycles through ROTATE buffers so
 * that repeats do not find their data in cache, and checks the result
 * against a hand computation.
 *
 *   mpirun -np N mpi_collectives KIND COUNT REPEAT ROTATE
 *
 * KIND: allreduce (MPI_Allreduce, sum), allgather (MPI_Allgather),
 * reducescatter (MPI_Reduce_scatter_block: rank r keeps block r of the
 * sum), alltoall (MPI_Alltoall: block j to rank j), sendrecv (a ring shift
 * with MPI_Sendrecv: rank r receives rank r-1's buffer), or groupallreduce
 * (MPI_Allreduce within two halves of the ranks, made by MPI_Comm_split).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *message) {
  fprintf(stderr, "mpi_collectives: %s\n", message);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

enum Kind { AllReduce, AllGather, ReduceScatter, AllToAll, SendRecv, Groups };

/* Rank p's input element i: small integers, so that every sum is exact,
 * whatever the order. */
static float input(int p, long i) { return (float)((p + i) % 7); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 5)
    fail("usage: mpi_collectives KIND COUNT REPEAT ROTATE");
  static const char *names[] = {"allreduce", "allgather", "reducescatter",
                                "alltoall",  "sendrecv",  "groupallreduce"};
  enum Kind kind = AllReduce;
  while (kind <= Groups && strcmp(argv[1], names[kind]) != 0)
    ++kind;
  if (kind > Groups)
    fail("unknown collective");
  long count = atol(argv[2]), repeat = atol(argv[3]), rotate = atol(argv[4]);
  if (count <= 0 || repeat <= 0 || rotate <= 0)
    fail("COUNT, REPEAT and ROTATE must be positive");
  if ((kind == ReduceScatter || kind == AllToAll) && count % size != 0)
    fail("COUNT must be a multiple of the number of ranks");
  if (kind == Groups && size % 2 != 0)
    fail("groupallreduce needs an even number of ranks");
  long block = count / size;
  long outCount = kind == AllGather       ? count * size
                  : kind == ReduceScatter ? block
                                          : count;
  MPI_Comm half = MPI_COMM_NULL;
  if (kind == Groups)
    MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &half);
  float **in = malloc(rotate * sizeof(float *));
  float **out = malloc(rotate * sizeof(float *));
  for (long r = 0; r < rotate; ++r) {
    in[r] = malloc(count * sizeof(float));
    out[r] = malloc(outCount * sizeof(float));
    if (!in[r] || !out[r])
      fail("out of memory");
    for (long i = 0; i < count; ++i)
      in[r][i] = input(rank, i);
    memset(out[r], 0, outCount * sizeof(float));
  }
  double *times = malloc(repeat * sizeof(double));
  MPI_Barrier(MPI_COMM_WORLD);
  for (long k = 0; k < repeat; ++k) {
    long r = k % rotate;
    double start = MPI_Wtime();
    switch (kind) {
    case AllReduce:
      MPI_Allreduce(in[r], out[r], (int)count, MPI_FLOAT, MPI_SUM,
                    MPI_COMM_WORLD);
      break;
    case AllGather:
      MPI_Allgather(in[r], (int)count, MPI_FLOAT, out[r], (int)count, MPI_FLOAT,
                    MPI_COMM_WORLD);
      break;
    case ReduceScatter:
      MPI_Reduce_scatter_block(in[r], out[r], (int)block, MPI_FLOAT, MPI_SUM,
                               MPI_COMM_WORLD);
      break;
    case AllToAll:
      MPI_Alltoall(in[r], (int)block, MPI_FLOAT, out[r], (int)block, MPI_FLOAT,
                   MPI_COMM_WORLD);
      break;
    case SendRecv:
      MPI_Sendrecv(in[r], (int)count, MPI_FLOAT, (rank + 1) % size, 0, out[r],
                   (int)count, MPI_FLOAT, (rank + size - 1) % size, 0,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    case Groups:
      MPI_Allreduce(in[r], out[r], (int)count, MPI_FLOAT, MPI_SUM, half);
      break;
    }
    double local = MPI_Wtime() - start;
    MPI_Reduce(&local, &times[k], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  }
  const float *result = out[(repeat - 1) % rotate];
  for (long i = 0; i < outCount; ++i) {
    double expected = 0;
    switch (kind) {
    case AllReduce:
      for (int p = 0; p < size; ++p)
        expected += input(p, i);
      break;
    case AllGather:
      expected = input((int)(i / count), i % count);
      break;
    case ReduceScatter:
      for (int p = 0; p < size; ++p)
        expected += input(p, rank * block + i);
      break;
    case AllToAll:
      expected = input((int)(i / block), rank * block + i % block);
      break;
    case SendRecv:
      expected = input((rank + size - 1) % size, i);
      break;
    case Groups:
      for (int p = rank < size / 2 ? 0 : size / 2, q = 0; q < size / 2;
           ++p, ++q)
        expected += input(p, i);
      break;
    }
    if (result[i] != (float)expected)
      fail("wrong result");
  }
  if (rank == 0)
    for (long k = 0; k < repeat; ++k)
      printf("%.9f\n", times[k]);
  if (half != MPI_COMM_NULL)
    MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
