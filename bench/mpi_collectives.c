/* The MPI baseline of bench/run.py: times MPI_Allreduce (sum) or
 * MPI_Allgather of COUNT floats per rank, REPEAT times, and prints one line
 * per run on rank 0: the slowest rank's time in seconds (the collective is
 * done when every rank is done). Like the pcc runs it is compared with, it
 * cycles through ROTATE buffers so that repeats do not find their data in
 * cache, and checks the result against a hand computation.
 *
 *   mpirun -np N mpi_collectives allreduce|allgather COUNT REPEAT ROTATE
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *message) {
  fprintf(stderr, "mpi_collectives: %s\n", message);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 5)
    fail("usage: mpi_collectives allreduce|allgather COUNT REPEAT ROTATE");
  int gather = strcmp(argv[1], "allgather") == 0;
  if (!gather && strcmp(argv[1], "allreduce") != 0)
    fail("the collective is allreduce or allgather");
  long count = atol(argv[2]), repeat = atol(argv[3]), rotate = atol(argv[4]);
  if (count <= 0 || repeat <= 0 || rotate <= 0)
    fail("COUNT, REPEAT and ROTATE must be positive");
  long outCount = gather ? count * size : count;
  float **in = malloc(rotate * sizeof(float *));
  float **out = malloc(rotate * sizeof(float *));
  for (long r = 0; r < rotate; ++r) {
    in[r] = malloc(count * sizeof(float));
    out[r] = malloc(outCount * sizeof(float));
    if (!in[r] || !out[r])
      fail("out of memory");
    /* Small integers: every sum is exact, whatever the order. */
    for (long i = 0; i < count; ++i)
      in[r][i] = (float)((rank + i) % 7);
    memset(out[r], 0, outCount * sizeof(float));
  }
  double *times = malloc(repeat * sizeof(double));
  MPI_Barrier(MPI_COMM_WORLD);
  for (long k = 0; k < repeat; ++k) {
    long r = k % rotate;
    double start = MPI_Wtime();
    if (gather)
      MPI_Allgather(in[r], (int)count, MPI_FLOAT, out[r], (int)count,
                    MPI_FLOAT, MPI_COMM_WORLD);
    else
      MPI_Allreduce(in[r], out[r], (int)count, MPI_FLOAT, MPI_SUM,
                    MPI_COMM_WORLD);
    double local = MPI_Wtime() - start;
    MPI_Reduce(&local, &times[k], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  }
  for (long i = 0; i < outCount; ++i) {
    double expected = 0;
    if (gather) {
      expected = (double)((i / count + i % count) % 7);
    } else {
      for (int p = 0; p < size; ++p)
        expected += (double)((p + i) % 7);
    }
    if (out[(repeat - 1) % rotate][i] != (float)expected)
      fail("wrong result");
  }
  if (rank == 0)
    for (long k = 0; k < repeat; ++k)
      printf("%.9f\n", times[k]);
  MPI_Finalize();
  return 0;
}
