/*===- MpiShim.c - The MPI calls of the pcc runtime, behind a plain C ABI -===*\
|*                                                                            *|
|* Built against mpi.h into libpcc_mpi.so, which the runtime loads with       *|
|* dlopen only when a program runs under an MPI launcher (Processes.cpp), so  *|
|* that pcc and the executables it writes run without MPI installed. The ABI  *|
|* names no MPI type: an MPI's handles and constants differ between           *|
|* implementations, and this file is the only one that sees them. The calls   *|
|* are made by one thread at a time (MPI_THREAD_SERIALIZED): the runtime      *|
|* holds a lock around each. Every function returns 0 or an MPI error code.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include <mpi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCC_MPI_EXPORT __attribute__((visibility("default")))

/* Messages longer than this are split: MPI counts are ints. */
#define PCC_MPI_CHUNK ((int64_t)1 << 30)

PCC_MPI_EXPORT int pcc_mpi_init(int *rank, int *size, int *tagLimit) {
  int provided = 0, flag = 0, *limit = NULL;
  /* Open MPI's shared-memory transport sends a message of up to 4 KiB
   * (headers included) by copying it through a shared queue, and a longer
   * one by a system call that reads the sender's memory after a round
   * trip. pcc's messages carry a 64-byte header before a device's inputs,
   * up to 16 KiB of them: sent eagerly to 32 KiB (the transport's largest
   * fragment), each costs one trip. A value set by the user wins. */
  setenv("OMPI_MCA_btl_vader_eager_limit", "32768", 0);
  int status = MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
  if (status != MPI_SUCCESS)
    return status;
  if (provided < MPI_THREAD_SERIALIZED)
    return MPI_ERR_OTHER;
  /* Errors come back as codes, for the runtime to report. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &limit, &flag);
  *tagLimit = flag ? *limit : 32767;
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  return MPI_Comm_size(MPI_COMM_WORLD, size);
}

/* The job's processes on this machine, and the memory they share
 * (pcc_mpi_machine): freed before MPI is. */
static MPI_Comm machine = MPI_COMM_NULL;
static MPI_Win machineWindow = MPI_WIN_NULL;

PCC_MPI_EXPORT int pcc_mpi_finalize(void) {
  if (machineWindow != MPI_WIN_NULL)
    MPI_Win_free(&machineWindow);
  if (machine != MPI_COMM_NULL)
    MPI_Comm_free(&machine);
  return MPI_Finalize();
}

/* Sets *size to the number of the job's processes on this machine and
 * writes their ranks, in the order of their places on it, to `ranks` (room
 * for the job's size). Collective: every process calls it once. */
PCC_MPI_EXPORT int pcc_mpi_machine(int *ranks, int *size) {
  int status = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0,
                                   MPI_INFO_NULL, &machine);
  if (status != MPI_SUCCESS)
    return status;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(machine, size);
  return MPI_Allgather(&rank, 1, MPI_INT, ranks, 1, MPI_INT, machine);
}

/* Sets *base to `bytes` of zeroed memory that the processes of this
 * machine share (an MPI-3 shared-memory window), or to NULL when any of
 * them asks for none or cannot have it: then all go without. Collective
 * over the machine, after pcc_mpi_machine. */
PCC_MPI_EXPORT int pcc_mpi_machine_memory(int64_t bytes, void **base) {
  *base = NULL;
  long long wanted = bytes, least = 0;
  int status =
      MPI_Allreduce(&wanted, &least, 1, MPI_LONG_LONG, MPI_MIN, machine);
  if (status != MPI_SUCCESS || least == 0)
    return status;
  int place;
  MPI_Comm_rank(machine, &place);
  void *own = NULL, *first = NULL;
  MPI_Aint size;
  int unit;
  /* One block, all of it the first process's: every process reaches it
   * at the same offsets. */
  int ok = MPI_Win_allocate_shared(place == 0 ? (MPI_Aint)least : 0, 1,
                                   MPI_INFO_NULL, machine, &own,
                                   &machineWindow) == MPI_SUCCESS &&
           MPI_Win_shared_query(machineWindow, 0, &size, &unit, &first) ==
               MPI_SUCCESS &&
           first != NULL;
  if (ok && place == 0)
    memset(first, 0, (size_t)least);
  /* Also waits for the first process's zeroing. */
  int allOk = 0;
  status = MPI_Allreduce(&ok, &allOk, 1, MPI_INT, MPI_MIN, machine);
  if (status != MPI_SUCCESS)
    return status;
  if (allOk)
    *base = first;
  else if (machineWindow != MPI_WIN_NULL)
    MPI_Win_free(&machineWindow);
  return MPI_SUCCESS;
}

PCC_MPI_EXPORT void pcc_mpi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

PCC_MPI_EXPORT void pcc_mpi_error_string(int code, char *text, int size) {
  int length = 0;
  char buffer[MPI_MAX_ERROR_STRING];
  if (MPI_Error_string(code, buffer, &length) != MPI_SUCCESS)
    length = snprintf(buffer, sizeof(buffer), "MPI error %d", code);
  snprintf(text, (size_t)size, "%.*s", length, buffer);
}

/* Broadcasts `bytes` from process 0. */
PCC_MPI_EXPORT int pcc_mpi_broadcast(void *data, int64_t bytes) {
  for (int64_t at = 0; at < bytes; at += PCC_MPI_CHUNK) {
    int64_t n = bytes - at < PCC_MPI_CHUNK ? bytes - at : PCC_MPI_CHUNK;
    int status =
        MPI_Bcast((char *)data + at, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (status != MPI_SUCCESS)
      return status;
  }
  return MPI_SUCCESS;
}

/* Every process p contributes bytes [offsets[p], offsets[p + 1]) of `data`
 * (in place) and receives the others'. */
PCC_MPI_EXPORT int pcc_mpi_all_gather(void *data, const int64_t *offsets) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* Counted in units of the largest power of two up to 4 KiB that divides
   * every offset, so that up to 2^31 - 1 units fit an int. */
  int64_t unit = 4096;
  for (int p = 0; p <= size; ++p)
    while (offsets[p] % unit != 0)
      unit /= 2;
  int *counts = malloc(2 * sizeof(int) * (size_t)size);
  if (!counts)
    return MPI_ERR_NO_MEM;
  int *displacements = counts + size;
  for (int p = 0; p < size; ++p) {
    if (offsets[p + 1] / unit > INT32_MAX) {
      free(counts);
      return MPI_ERR_COUNT;
    }
    counts[p] = (int)((offsets[p + 1] - offsets[p]) / unit);
    displacements[p] = (int)(offsets[p] / unit);
  }
  MPI_Datatype type;
  int status = MPI_Type_contiguous((int)unit, MPI_BYTE, &type);
  if (status == MPI_SUCCESS) {
    MPI_Type_commit(&type);
    status = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data, counts,
                            displacements, type, MPI_COMM_WORLD);
    MPI_Type_free(&type);
  }
  free(counts);
  return status;
}

/* The bytes of an MPI_Request, which callers of pcc_mpi_send and
 * pcc_mpi_receive provide. */
PCC_MPI_EXPORT int pcc_mpi_request_bytes(void) { return sizeof(MPI_Request); }

/* Nonblocking point-to-point messages of at most 1 GiB, into the request
 * at `request`, for pcc_mpi_test. */
PCC_MPI_EXPORT int pcc_mpi_send(const void *data, int64_t bytes, int peer,
                                int tag, void *request) {
  if (bytes > PCC_MPI_CHUNK)
    return MPI_ERR_COUNT;
  return MPI_Isend(data, (int)bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                   (MPI_Request *)request);
}

PCC_MPI_EXPORT int pcc_mpi_receive(void *data, int64_t bytes, int peer, int tag,
                                   void *request) {
  if (bytes > PCC_MPI_CHUNK)
    return MPI_ERR_COUNT;
  return MPI_Irecv(data, (int)bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD,
                   (MPI_Request *)request);
}

/* Sets *done, and when done *bytes to what arrived (receives). */
PCC_MPI_EXPORT int pcc_mpi_test(void *request, int *done, int64_t *bytes) {
  MPI_Status status;
  int result = MPI_Test((MPI_Request *)request, done, &status);
  if (result != MPI_SUCCESS || !*done)
    return result;
  int count = 0;
  MPI_Get_count(&status, MPI_BYTE, &count);
  *bytes = count;
  return MPI_SUCCESS;
}
