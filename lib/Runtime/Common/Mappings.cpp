//===- Mappings.cpp - The process's memory mappings and their limit -------===//

#include "Mappings.h"

#include <cstdio>

namespace pcc::runtime {

int64_t getMappingLimit() {
  long long limit = -1;
  if (std::FILE *file = std::fopen("/proc/sys/vm/max_map_count", "r")) {
    if (std::fscanf(file, "%lld", &limit) != 1)
      limit = -1;
    std::fclose(file);
  }
  return limit;
}

int64_t countMappings() {
  std::FILE *file = std::fopen("/proc/self/maps", "r");
  if (!file)
    return -1;
  int64_t lines = 0;
  for (int c; (c = std::getc(file)) != EOF;)
    lines += c == '\n';
  std::fclose(file);
  return lines;
}

} // namespace pcc::runtime
