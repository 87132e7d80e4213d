// The 8-bit form's rows of x and block formats, shared by its two builds of
// the packed product (x86_64_avx512_vnni.c and x86_64_avx2_q8.c), which
// must agree on them byte for byte: the emitter sizes the buffer from them
// (src/emit/kernels/blocks.rs, `quantize_rows`) and either build may read it.
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

#include "x86_64_avx2_reduce.h"

// Block formats, as src/types.rs's BlockFormat::kernel_code numbers them.
enum { Q8_0 = 0, Q4_0 = 1, Q4_1 = 2 };

#define GROUP_ROWS 8
#define GROUP_BLOCK_BYTES (GROUP_ROWS * 32 + GROUP_ROWS * 12)
// Where a block's 4-byte values of each kind start, after its int8 values.
enum { XD = 0, XS = GROUP_ROWS, XQS = 2 * GROUP_ROWS };

// One block of 32 values of x rounded with AVX2, as every 8-bit path rounds
// it: xq = round-to-nearest-even(x / xd) with xd = max|x| / 127, xs the
// exact sum of the block, and (when `xqs` is given) the sum of xq. The sum
// pairs x[i] with x[16 + i] first and then halves, the order in which
// AVX-512's _mm512_reduce_add_ps sums (x[0..16] + x[16..32]), so the VNNI
// kernel's rounding gives the same xs.
static inline __attribute__((always_inline)) void round_block_avx2(const float* xb, int8_t* xq,
                                                                   float* xd, float* xs,
                                                                   int32_t* xqs) {
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  // _mm256_packs_* interleave 128-bit halves; this puts the values back in order.
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  __m256 v[4];
  for (int i = 0; i < 4; ++i) v[i] = _mm256_loadu_ps(xb + 8 * i);
  const __m256 top = _mm256_max_ps(
      _mm256_max_ps(_mm256_and_ps(v[0], abs_mask), _mm256_and_ps(v[1], abs_mask)),
      _mm256_max_ps(_mm256_and_ps(v[2], abs_mask), _mm256_and_ps(v[3], abs_mask)));
  const float scale = hmax8(top) / 127.0f;
  *xd = scale;
  *xs = hsum8(_mm256_add_ps(_mm256_add_ps(v[0], v[2]), _mm256_add_ps(v[1], v[3])));
  const __m256 inv = _mm256_set1_ps(scale > 0.0f ? 1.0f / scale : 0.0f);
  __m256i q[4];
  for (int i = 0; i < 4; ++i) q[i] = _mm256_cvtps_epi32(_mm256_mul_ps(v[i], inv));
  if (xqs)
    *xqs = hsum8_epi32(
        _mm256_add_epi32(_mm256_add_epi32(q[0], q[1]), _mm256_add_epi32(q[2], q[3])));
  // |x| * inv rounds to at most 127, so the saturating packs keep every value.
  const __m256i packed =
      _mm256_packs_epi16(_mm256_packs_epi32(q[0], q[1]), _mm256_packs_epi32(q[2], q[3]));
  _mm256_storeu_si256((__m256i*)xq, _mm256_permutevar8x32_epi32(packed, order));
}

// A float sent as the bits of an index (the emitter's push constants are
// integers).
static inline float float_from_bits(size_t bits) {
  const uint32_t b = (uint32_t)bits;
  float v;
  __builtin_memcpy(&v, &b, sizeof v);
  return v;
}

// y[r][first, last) = res[r][first, last) + y[r][first, last) for every row:
// a fused product's residual, the same f32 additions as IREE's add.
static inline void add_residual(float* restrict y, const float* restrict res, size_t rows,
                                size_t n, size_t first, size_t per) {
  const size_t last = first + per < n ? first + per : n;
  for (size_t r = 0; r < rows; ++r)
    for (size_t i = first; i < last; ++i) y[r * n + i] = res[r * n + i] + y[r * n + i];
}

// RMSNorm's factor for one row x [k]: 1 / sqrt(mean(x^2) + eps), the
// squares summed in 4 x 8 lanes with AVX2 in both builds, so that the two
// builds normalize a row alike. k is a multiple of 32.
static inline __attribute__((always_inline)) float rms_inverse(const float* x, size_t k,
                                                               float eps) {
  __m256 s[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(),
                 _mm256_setzero_ps()};
  for (size_t i = 0; i < k; i += 32)
    for (int j = 0; j < 4; ++j) {
      const __m256 v = _mm256_loadu_ps(x + i + 8 * j);
      s[j] = _mm256_fmadd_ps(v, v, s[j]);
    }
  const float sum = hsum8(_mm256_add_ps(_mm256_add_ps(s[0], s[1]), _mm256_add_ps(s[2], s[3])));
  const float mean = sum / (float)k;
  return 1.0f / _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(mean + eps)));
}

// Rows [first, first + per) of x [rows, k] into `out` (fewer at the end;
// `per` is a multiple of GROUP_ROWS), each block of a row through `block`
// (the build's own instructions, inlined: it gets the block's 32 values and
// writes its 32 int8 values at xq and its XD, XS and XQS values at xf[...]).
// With `norm` (f32 [k]) each row is first normalized as the graph's RMSNorm
// does, (x * rms_inverse(x)) * norm, a block at a time: the product that
// takes the rows then needs no norm dispatches of its own before it.
// A group's rows past `rows` are written as zeros.
static inline __attribute__((always_inline)) void quantize_rows(
    const float* x, const float* norm, float eps, int8_t* out, size_t rows, size_t k,
    size_t first, size_t per, void (*block)(const float* xb, int8_t* xq, float* xf)) {
  const size_t blocks = k / 32;
  const size_t groups = (rows + GROUP_ROWS - 1) / GROUP_ROWS;
  size_t last = first + per;
  if (last > groups * GROUP_ROWS) last = groups * GROUP_ROWS;
  for (size_t r = first; r < last; ++r) {
    int8_t* group = out + (r / GROUP_ROWS) * blocks * GROUP_BLOCK_BYTES;
    const size_t slot = r % GROUP_ROWS;
    const float* xr = x + r * k;
    const float inv = norm && r < rows ? rms_inverse(xr, k, eps) : 0.0f;
    for (size_t j = 0; j < blocks; ++j) {
      int8_t* xq = group + j * GROUP_BLOCK_BYTES + 32 * slot;
      float* xf = (float*)(group + j * GROUP_BLOCK_BYTES + 32 * GROUP_ROWS) + slot;
      if (r >= rows) {
        _mm256_storeu_si256((__m256i*)xq, _mm256_setzero_si256());
        xf[XD] = xf[XS] = 0.0f;
        ((int32_t*)xf)[XQS] = 0;
        continue;
      }
      if (norm) {
        float normed[32] __attribute__((aligned(32)));
        for (int i = 0; i < 32; ++i) normed[i] = (xr[32 * j + i] * inv) * norm[32 * j + i];
        block(normed, xq, xf);
      } else {
        block(xr + 32 * j, xq, xf);
      }
    }
  }
}

#endif
