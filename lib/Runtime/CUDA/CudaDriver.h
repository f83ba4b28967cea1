//===- CudaDriver.h - The CUDA driver API, loaded with dlopen --*- C++ -*-===//
//
// The part of the CUDA driver API (libcuda.so.1) and of NCCL that the cuda
// platform of the runtime uses, as a table of function pointers filled by
// dlsym. The types, constants and prototypes are declared here rather than
// taken from cuda.h so that the runtime builds on machines without the CUDA
// toolkit; the symbol names are the versioned ones that cuda.h maps each
// function to (for example cuMemFree is exported as cuMemFree_v2), and the
// constants are the values cuda.h gives them.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_CUDADRIVER_H
#define PCC_LIB_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <string>

namespace pcc::runtime::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;

// CUresult values.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;

// Flags and enumerators.
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr int CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr CUjit_option CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;
constexpr CUjit_option CU_JIT_OPTIMIZATION_LEVEL = 7;

/// The driver functions pcc uses, named as in cuda.h.
struct Driver {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxPushCurrent)(CUcontext context);
  CUresult (*cuCtxPopCurrent)(CUcontext *context);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamQuery)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *pointer, size_t bytes,
                                unsigned flags);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream stream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value,
                              size_t count, CUstream stream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value,
                               size_t count, CUstream stream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                               CUstream stream);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, CUjit_option *options,
                                 void **optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX,
                             unsigned gridY, unsigned gridZ, unsigned blockX,
                             unsigned blockY, unsigned blockZ,
                             unsigned sharedMemBytes, CUstream stream,
                             void **params, void **extra);
};

// The types and values of nccl.h (NCCL 2.x).
using ncclResult_t = int;
using ncclComm_t = struct ncclComm *;
constexpr ncclResult_t ncclSuccess = 0;
constexpr ncclResult_t ncclInProgress = 7;
constexpr int ncclInt8 = 0, ncclUint8 = 1, ncclInt32 = 2, ncclUint32 = 3,
              ncclInt64 = 4, ncclUint64 = 5;
constexpr int ncclSum = 0, ncclMax = 2, ncclMin = 3;
/// What ranks in several processes share to make one communicator
/// (ncclGetUniqueId, then ncclCommInitRank in every rank).
struct ncclUniqueId {
  char internal[128];
};

/// The NCCL functions pcc uses, named as in nccl.h.
struct Nccl {
  const char *(*getErrorString)(ncclResult_t result);
  /// Optional (NCCL 2.13 and later).
  const char *(*getLastError)(ncclComm_t comm);
  ncclResult_t (*commInitAll)(ncclComm_t *comms, int count, const int *gpus);
  ncclResult_t (*getUniqueId)(ncclUniqueId *id);
  /// One rank's communicator, on the current GPU; blocks until all `count`
  /// ranks have joined (in every process).
  ncclResult_t (*commInitRank)(ncclComm_t *comm, int count, ncclUniqueId id,
                               int rank);
  /// Frees a communicator whose work is complete (pcc keeps its
  /// communicators for the life of the process; tests free theirs).
  ncclResult_t (*commDestroy)(ncclComm_t comm);
  ncclResult_t (*allReduce)(const void *in, void *out, size_t count, int dtype,
                            int op, ncclComm_t comm, CUstream s);
  ncclResult_t (*allGather)(const void *in, void *out, size_t count, int dtype,
                            ncclComm_t comm, CUstream s);
  ncclResult_t (*reduceScatter)(const void *in, void *out, size_t recvCount,
                                int dtype, int op, ncclComm_t comm, CUstream s);
  ncclResult_t (*broadcast)(const void *in, void *out, size_t count, int dtype,
                            int root, ncclComm_t comm, CUstream s);
  ncclResult_t (*send)(const void *in, size_t count, int dtype, int peer,
                       ncclComm_t comm, CUstream s);
  ncclResult_t (*recv)(void *out, size_t count, int dtype, int peer,
                       ncclComm_t comm, CUstream s);
  ncclResult_t (*groupStart)();
  ncclResult_t (*groupEnd)();
  ncclResult_t (*commGetAsyncError)(ncclComm_t comm, ncclResult_t *error);
  ncclResult_t (*commAbort)(ncclComm_t comm);
};

/// Loads libcuda.so.1 (once per process; later calls return the same
/// answer), calls cuInit and counts the GPUs. Returns the driver, or null
/// with `message` saying what is missing and what to do (install the driver
/// or use --backend=cpu). `gpus` receives the number of GPUs, which is at
/// least 1 when the driver is returned.
const Driver *loadDriver(int &gpus, std::string &message);

/// Whether pcc_cuda_simulate chose the simulated GPU.
bool isSimulated();

/// The simulated GPU's driver and NCCL (lib/Runtime/Sim), which stand in
/// for the libraries when isSimulated().
const Driver &simulatedDriver();
const Nccl &simulatedNccl();

/// "CUDA_ERROR_NAME (description)" for a CUresult.
std::string describe(const Driver &driver, CUresult result);

} // namespace pcc::runtime::cuda

#endif // PCC_LIB_RUNTIME_CUDADRIVER_H
