//===- NpyFuzzer.cpp - libFuzzer harness for the .npy reader --------------===//
//
// Arbitrary bytes go to readNpyFromMemory, which must never crash, hang or
// read out of bounds (ASan, UBSan). What it accepts must survive a round
// trip: written back with writeNpyToMemory and read again, it is the same
// array; and the printer must format it.
//
//===----------------------------------------------------------------------===//

#include "pcc/ArrayIO/ArrayIO.h"

#include <cstdio>
#include <cstdlib>

using namespace pcc::arrayio;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Array array;
  std::string error;
  if (!readNpyFromMemory(data, size, array, error)) {
    if (error.empty()) {
      std::fprintf(stderr, "rejected without a message\n");
      std::abort();
    }
    return 0;
  }
  std::vector<uint8_t> written;
  if (!writeNpyToMemory(array, written, error)) {
    std::fprintf(stderr, "cannot write back what was read: %s\n",
                 error.c_str());
    std::abort();
  }
  Array again;
  if (!readNpyFromMemory(written.data(), written.size(), again, error) ||
      again.dtype != array.dtype || again.shape != array.shape ||
      again.data != array.data) {
    std::fprintf(stderr, "round trip changed the array: %s\n", error.c_str());
    std::abort();
  }
  (void)formatArray(array);
  return 0;
}
