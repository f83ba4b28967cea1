//===- arrayio-print.cpp - Print .npy files as NumPy would ----------------===//
//
// Test driver for PCCArrayIO: reads each .npy file named on the command line
// and prints `== FILE` followed by formatArray of its contents, so that a
// script can compare the output with NumPy's `str()` of the same arrays.
// With `--copy-to=DIR` it also writes every array back out as DIR/NAME, so
// that the script can compare the writer's bytes with `np.save`'s.
//
//===----------------------------------------------------------------------===//

#include "pcc/ArrayIO/ArrayIO.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace pcc::arrayio;

int main(int argc, char **argv) {
  std::string copyTo;
  int status = 0;
  if (argc < 2) {
    std::fprintf(stderr, "usage: arrayio-print [--copy-to=DIR] FILE.npy...\n");
    return 1;
  }
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--copy-to=", 0) == 0) {
      copyTo = arg.substr(std::strlen("--copy-to="));
      continue;
    }
    Array array;
    std::string error;
    std::printf("== %s\n", arg.c_str());
    if (!readNpy(arg, array, error)) {
      std::printf("error: %s\n", error.c_str());
      status = 1;
      continue;
    }
    std::printf("%s\n", formatArray(array).c_str());
    if (!copyTo.empty()) {
      size_t slash = arg.find_last_of('/');
      std::string name =
          slash == std::string::npos ? arg : arg.substr(slash + 1);
      if (!writeNpy(copyTo + "/" + name, array, error)) {
        std::printf("error: %s\n", error.c_str());
        status = 1;
      }
    }
  }
  return status;
}
