/* The GPU bound of scripts/gpu-check.sh's benchmarks (bench/gpu.py): the
 * device's copy bandwidth, measured in the same run as the benchmarks.
 *
 *   gpu_bounds copy BYTES REPEAT   seconds per device-to-device copy of
 *                                  BYTES on GPU 0, one line per repetition
 *                                  (the bandwidth bound counts bytes read
 *                                  plus written)
 *
 * The buffers are managed memory, as pcc's are, moved to the GPU first.
 * Needs only the driver (libcuda.so.1, opened at run time), so it builds
 * without the CUDA toolkit; it also runs on pcc's mock driver.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

static CUresult (*cuInit)(unsigned);
static CUresult (*cuDeviceGet)(int *, int);
static CUresult (*cuDevicePrimaryCtxRetain)(void **, int);
static CUresult (*cuCtxSetCurrent)(void *);
static CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
static CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, void *);
static CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, void *);
static CUresult (*cuStreamCreate)(void **, unsigned);
static CUresult (*cuStreamSynchronize)(void *);
/* Optional (not in pcc's mock driver). */
static CUresult (*cuMemPrefetchAsync)(CUdeviceptr, size_t, int, void *);

static void fail(const char *what) {
  fprintf(stderr, "gpu_bounds: %s\n", what);
  exit(1);
}

static void check(CUresult result, const char *what) {
  if (result != 0) {
    fprintf(stderr, "gpu_bounds: %s failed: CUDA error %d\n", what, result);
    exit(1);
  }
}

static void *symbol(void *library, const char *name, int required) {
  void *address = dlsym(library, name);
  if (!address && required) {
    fprintf(stderr, "gpu_bounds: the CUDA driver has no %s\n", name);
    exit(1);
  }
  return address;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4 || strcmp(argv[1], "copy") != 0 || atoll(argv[2]) <= 0 ||
      atoi(argv[3]) <= 0)
    fail("usage: gpu_bounds copy BYTES REPEAT");
  size_t bytes = (size_t)atoll(argv[2]);
  int repeat = atoi(argv[3]);
  void *library = dlopen("libcuda.so.1", RTLD_NOW);
  if (!library) {
    fprintf(stderr, "gpu_bounds: cannot load libcuda.so.1: %s\n", dlerror());
    return 1;
  }
  *(void **)&cuInit = symbol(library, "cuInit", 1);
  *(void **)&cuDeviceGet = symbol(library, "cuDeviceGet", 1);
  *(void **)&cuDevicePrimaryCtxRetain =
      symbol(library, "cuDevicePrimaryCtxRetain", 1);
  *(void **)&cuCtxSetCurrent = symbol(library, "cuCtxSetCurrent", 1);
  *(void **)&cuMemAllocManaged = symbol(library, "cuMemAllocManaged", 1);
  *(void **)&cuMemcpyAsync = symbol(library, "cuMemcpyAsync", 1);
  *(void **)&cuMemsetD32Async = symbol(library, "cuMemsetD32Async", 1);
  *(void **)&cuStreamCreate = symbol(library, "cuStreamCreate", 1);
  *(void **)&cuStreamSynchronize = symbol(library, "cuStreamSynchronize", 1);
  *(void **)&cuMemPrefetchAsync = symbol(library, "cuMemPrefetchAsync", 0);

  int device;
  void *context;
  check(cuInit(0), "cuInit");
  check(cuDeviceGet(&device, 0), "cuDeviceGet");
  check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  void *stream;
  check(cuStreamCreate(&stream, 1 /* CU_STREAM_NON_BLOCKING */),
        "cuStreamCreate");
  CUdeviceptr src, dst;
  check(cuMemAllocManaged(&src, bytes, 1 /* CU_MEM_ATTACH_GLOBAL */),
        "cuMemAllocManaged");
  check(cuMemAllocManaged(&dst, bytes, 1), "cuMemAllocManaged");
  if (cuMemPrefetchAsync) {
    check(cuMemPrefetchAsync(src, bytes, device, stream), "cuMemPrefetchAsync");
    check(cuMemPrefetchAsync(dst, bytes, device, stream), "cuMemPrefetchAsync");
  }
  /* Touched on the GPU, then one untimed copy. */
  check(cuMemsetD32Async(src, 0x3f800000u, bytes / 4, stream), "cuMemsetD32Async");
  check(cuMemsetD32Async(dst, 0, bytes / 4, stream), "cuMemsetD32Async");
  check(cuMemcpyAsync(dst, src, bytes, stream), "cuMemcpyAsync");
  check(cuStreamSynchronize(stream), "cuStreamSynchronize");
  for (int r = 0; r < repeat; ++r) {
    double t0 = now();
    check(cuMemcpyAsync(dst, src, bytes, stream), "cuMemcpyAsync");
    check(cuStreamSynchronize(stream), "cuStreamSynchronize");
    printf("%.9f\n", now() - t0);
  }
  return 0;
}
