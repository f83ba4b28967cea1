/* The start-up baseline of bench/run.py for runs on several processes: the
 * least an MPI program does, MPI_Init and one MPI_Allreduce of an int,
 * printed by rank 0, as `mpirun -np 2 ./psum` of examples/psum.mlir prints
 * its psum.
 *
 *   mpirun -np P mpi_startup
 */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, value, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  value = rank + 1;
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d\n", sum);
  MPI_Finalize();
  return 0;
}
