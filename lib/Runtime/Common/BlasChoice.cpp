//===- BlasChoice.cpp - PCC_BLAS ------------------------------------------===//

#include "BlasChoice.h"

#include "RuntimeError.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace pcc::runtime {

BlasChoice blasChoice() {
  static const BlasChoice choice = [] {
    const char *text = std::getenv("PCC_BLAS");
    if (!text || !std::strcmp(text, "auto"))
      return BlasChoice::Auto;
    if (!std::strcmp(text, "openblas"))
      return BlasChoice::OpenBlas;
    if (!std::strcmp(text, "builtin"))
      return BlasChoice::Builtin;
    return BlasChoice::Invalid;
  }();
  return choice;
}

std::string invalidBlasChoice() {
  return std::string("PCC_BLAS must be auto (OpenBLAS where it loads, else "
                     "pcc's own), openblas or builtin, not '") +
         std::getenv("PCC_BLAS") + "'";
}

bool checkBlasChoice() {
  if (blasChoice() != BlasChoice::Invalid)
    return true;
  reportError(invalidBlasChoice());
  return false;
}

} // namespace pcc::runtime
