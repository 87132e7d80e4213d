// The 8-bit form's rows of x and block formats, shared by its two builds of
// the packed product (x86_64_avx512_vnni.c and x86_64_avx2_q8.c), which
// must agree on them byte for byte: the emitter sizes the buffer from them
// (src/emit/kernels/mod.rs, `quantize_rows`) and either build may read it.
//
// The rows of x [rows, k] go out in groups of 8 (the product's register
// tile), block by block: for group g and block j, GROUP_BLOCK_BYTES bytes
// at (g * blocks + j) * GROUP_BLOCK_BYTES hold the 8 rows' 32 int8 values,
// then three 4-byte values per row: their scales xd and exact sums xs
// (f32), and the sums of their int8 values (int32). A group's missing rows
// (past `rows`) are zeros. So a tile reads one block of all its rows at
// fixed offsets from one pointer.
#ifndef IREE_LLM_X86_64_Q8_ROWS_H
#define IREE_LLM_X86_64_Q8_ROWS_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

// Block formats, as src/types.rs's BlockFormat::kernel_code numbers them.
enum { Q8_0 = 0, Q4_0 = 1, Q4_1 = 2 };

#define GROUP_ROWS 8
#define GROUP_BLOCK_BYTES (GROUP_ROWS * 32 + GROUP_ROWS * 12)
// Where a block's 4-byte values of each kind start, after its int8 values.
enum { XD = 0, XS = GROUP_ROWS, XQS = 2 * GROUP_ROWS };

// Rows [first, first + per) of x [rows, k] into `out` (fewer at the end;
// `per` is a multiple of GROUP_ROWS), each block of a row through `block`
// (the build's own instructions, inlined: it gets the block's 32 values and
// writes its 32 int8 values at xq and its XD, XS and XQS values at xf[...]).
// A group's rows past `rows` are written as zeros.
static inline __attribute__((always_inline)) void quantize_rows(
    const float* x, int8_t* out, size_t rows, size_t k, size_t first, size_t per,
    void (*block)(const float* xb, int8_t* xq, float* xf)) {
  const size_t blocks = k / 32;
  const size_t groups = (rows + GROUP_ROWS - 1) / GROUP_ROWS;
  size_t last = first + per;
  if (last > groups * GROUP_ROWS) last = groups * GROUP_ROWS;
  for (size_t r = first; r < last; ++r) {
    int8_t* group = out + (r / GROUP_ROWS) * blocks * GROUP_BLOCK_BYTES;
    const size_t slot = r % GROUP_ROWS;
    for (size_t j = 0; j < blocks; ++j) {
      int8_t* xq = group + j * GROUP_BLOCK_BYTES + 32 * slot;
      float* xf = (float*)(group + j * GROUP_BLOCK_BYTES + 32 * GROUP_ROWS) + slot;
      if (r >= rows) {
        _mm256_storeu_si256((__m256i*)xq, _mm256_setzero_si256());
        xf[XD] = xf[XS] = 0.0f;
        ((int32_t*)xf)[XQS] = 0;
        continue;
      }
      block(x + r * k + 32 * j, xq, xf);
    }
  }
}

#endif
