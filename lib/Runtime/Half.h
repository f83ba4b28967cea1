//===- Half.h - f16 and bf16 conversions for the pcc runtime ---*- C++ -*-===//
//
// The collectives accumulate 16-bit floats in f32 and round once at the end;
// their conversions (pcc::halfToFloat, floatToHalf, bf16ToFloat,
// floatToBf16, found from namespace pcc::runtime) are pcc's one
// implementation, shared with ArrayIO and the cuda kernels.
//
//===----------------------------------------------------------------------===//

#ifndef PCC_LIB_RUNTIME_HALF_H
#define PCC_LIB_RUNTIME_HALF_H

#include "pcc/Support/Float16.h"

#endif // PCC_LIB_RUNTIME_HALF_H
