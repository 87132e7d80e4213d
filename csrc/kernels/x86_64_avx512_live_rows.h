// The live rows of a panel product (x86_64_live_rows.h). The rest of the
// result is written as zeros, so whatever reads those rows stays finite.
// Included by both panel kernels (exact and bf16 activations), whose panels
// are 16 weight rows wide.

#include "x86_64_live_rows.h"

// y[r, first..first + count) = 0 for rows [from, rows) of y [rows, n] f32,
// first and n multiples of 16.
INLINE void zero_rows_f32(float* y, size_t from, size_t rows, size_t n, size_t first,
                          size_t count) {
  size_t last = first + count;
  if (last > n) last = n;
  for (size_t r = from; r < rows; ++r)
    for (size_t i = first; i < last; i += 16) _mm512_storeu_ps(y + r * n + i, _mm512_setzero_ps());
}
