# lit configuration for pcc's tests: FileCheck tests of pcc-opt, and checks
# that generated files kept in the repository are current.

import os

import lit.formats
from lit.llvm import llvm_config

config.name = "pcc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pcc_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["pcc-opt", "pcc"], [config.pcc_tools_dir])

config.substitutions.append(("%pcc_src", config.pcc_src_root))
config.substitutions.append(("%pcc_obj", config.pcc_obj_root))

# The sanitizer build (scripts/sanitize.sh): its shared libraries, the mock
# CUDA driver among them, load only into programs built with its sanitizers.
# Its tests look for memory errors, not for wrong numbers (the normal build
# runs every case): the NumPy oracle runs every third case in each variant.
if config.pcc_sanitizers:
    config.available_features.add("sanitizers")
config.substitutions.append(
    ("%oracle_options", "--sample 3" if config.pcc_sanitizers else ""))

# gpu-module-to-binary needs ptxas from the CUDA toolkit (present on every
# machine here, GPU or not); running kernels needs a GPU (the `cuda` feature).
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("cuda-toolkit")


def count_gpus():
    """The number of GPUs the CUDA driver reports, 0 without a driver."""
    import ctypes
    try:
        driver = ctypes.CDLL("libcuda.so.1")
        count = ctypes.c_int(0)
        if driver.cuInit(0) != 0 or driver.cuDeviceGetCount(ctypes.byref(count)) != 0:
            return 0
        return count.value
    except OSError:
        return 0


def has_openblas():
    """Whether the runtime can load OpenBLAS (PCC_BLAS=openblas)."""
    import ctypes
    try:
        ctypes.CDLL("libopenblas.so.0")
        return True
    except OSError:
        return False


if has_openblas():
    config.available_features.add("openblas")

if count_gpus() > 0:
    config.available_features.add("cuda")

# Runs on several processes: Open MPI's mpirun, and the MPI shim this build
# made (without mpi.h at build time there is none). scripts/mpirun.sh runs
# mpirun as root, oversubscribed, and in a temporary directory of its own, as
# several tests start mpirun at once.
def has_mpi():
    import shutil
    return shutil.which("mpirun") is not None and os.path.exists(
        os.path.join(config.pcc_obj_root, "lib", "Runtime", "libpcc_mpi.so"))


if has_mpi():
    config.available_features.add("mpi")
    config.substitutions.append(
        ("%mpirun", os.path.join(config.pcc_src_root, "scripts", "mpirun.sh")))

# The benchmark harness's baselines and plots (scripts/setup.sh installs
# them): Open MPI, OpenBLAS, matplotlib, mpi4py, mlir-runner.
def has_bench_tools():
    import importlib.util
    import shutil
    cblas = any(os.path.exists(path) for path in (
        "/usr/include/cblas.h", "/usr/include/x86_64-linux-gnu/cblas.h"))
    return (shutil.which("mpicc") is not None and cblas
            and importlib.util.find_spec("matplotlib") is not None
            and importlib.util.find_spec("mpi4py") is not None
            and os.path.exists(os.path.join(config.llvm_tools_dir,
                                            "mlir-runner")))


if has_bench_tools():
    config.available_features.add("bench-tools")
