// Hand-written x86-64 (AVX2, FMA, F16C) kernel linked into compiled modules
// as a custom dispatch: `y = x . W^T` for a weight W kept in 32-element
// blocks on the device (src/emit/kernels.rs emits the calls).
//
// Why it exists: for a few rows of x (decode steps, a prompt's last token)
// IREE 3.13's generated code for the same contraction reduces every block of
// 32 horizontally into a scalar chain, and at 8 rows it reads an f32 copy of
// the weights; this kernel keeps one vector accumulator per row of x and
// dequantizes each block once for all rows (docs/performance.md has the
// side-by-side figures).
//
// Layout (the GGUF loader's, src/gguf/blocks.rs): W [n, k] is q (int8
// [n, k/32, 32]), d (f16 scale [n, k/32]) and, for Q4_1, m (f16 offset
// [n, k/32]); w = q * d (+ m), the same f32 values as the dequantized copy.
// Built freestanding: no libc, nothing but registers and the four buffers.

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define INLINE static inline __attribute__((always_inline))

INLINE float hsum8(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// Eight int8 values widened to f32 lanes.
INLINE __m256 widen8(const int8_t* p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)p)));
}

// One weight row (k values in k/32 blocks) against `rows` (1..8, a
// compile-time constant after inlining) rows of x [rows, k]; writes
// y[r * ystride].
INLINE void weight_row(const int rows, const float* x, size_t k, const int8_t* q,
                       const uint16_t* d, const uint16_t* m, float* y,
                       size_t ystride) {
  const size_t blocks = k / 32;
  if (rows == 1) {
    // Four accumulators: one chain per quarter block hides FMA latency.
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (size_t j = 0; j < blocks; ++j) {
      const int8_t* b = q + 32 * j;
      const float* xb = x + 32 * j;
      const __m256 dj = _mm256_set1_ps(_cvtsh_ss(d[j]));
      const __m256 mj = m ? _mm256_set1_ps(_cvtsh_ss(m[j])) : _mm256_setzero_ps();
      a0 = _mm256_fmadd_ps(_mm256_fmadd_ps(widen8(b), dj, mj), _mm256_loadu_ps(xb), a0);
      a1 = _mm256_fmadd_ps(_mm256_fmadd_ps(widen8(b + 8), dj, mj), _mm256_loadu_ps(xb + 8), a1);
      a2 = _mm256_fmadd_ps(_mm256_fmadd_ps(widen8(b + 16), dj, mj), _mm256_loadu_ps(xb + 16), a2);
      a3 = _mm256_fmadd_ps(_mm256_fmadd_ps(widen8(b + 24), dj, mj), _mm256_loadu_ps(xb + 24), a3);
    }
    y[0] = hsum8(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
    return;
  }
  __m256 acc[8];
  for (int r = 0; r < rows; ++r) acc[r] = _mm256_setzero_ps();
  for (size_t j = 0; j < blocks; ++j) {
    const int8_t* b = q + 32 * j;
    const __m256 dj = _mm256_set1_ps(_cvtsh_ss(d[j]));
    const __m256 mj = m ? _mm256_set1_ps(_cvtsh_ss(m[j])) : _mm256_setzero_ps();
    // The block dequantized once, then used by every row of x.
    const __m256 w0 = _mm256_fmadd_ps(widen8(b), dj, mj);
    const __m256 w1 = _mm256_fmadd_ps(widen8(b + 8), dj, mj);
    const __m256 w2 = _mm256_fmadd_ps(widen8(b + 16), dj, mj);
    const __m256 w3 = _mm256_fmadd_ps(widen8(b + 24), dj, mj);
    for (int r = 0; r < rows; ++r) {
      const float* xb = x + r * k + 32 * j;
      __m256 s = _mm256_mul_ps(w0, _mm256_loadu_ps(xb));
      s = _mm256_fmadd_ps(w1, _mm256_loadu_ps(xb + 8), s);
      s = _mm256_fmadd_ps(w2, _mm256_loadu_ps(xb + 16), s);
      acc[r] = _mm256_fmadd_ps(w3, _mm256_loadu_ps(xb + 24), _mm256_add_ps(acc[r], s));
    }
  }
  for (int r = 0; r < rows; ++r) y[r * ystride] = hsum8(acc[r]);
}

#define WEIGHT_ROWS(ROWS)                                                     \
  for (size_t i = first; i < last; ++i)                                      \
    weight_row(ROWS, xt, k, q + i * k, d + i * blocks, m ? m + i * blocks : 0, \
               yt + i, n);

// One workgroup: weight rows [first, first + count) for all rows of x.
// x [rows, k] f32, y [rows, n] f32; `has_offset` says whether m is read (for
// formats without offsets the caller passes d again in its place).
void iree_llm_blocks_matmul_workgroup(
    const float* restrict x, size_t x_offset, const int8_t* restrict q,
    size_t q_offset, const uint16_t* restrict d, size_t d_offset,
    const uint16_t* restrict m, size_t m_offset, float* restrict y,
    size_t y_offset, size_t rows, size_t n, size_t k, size_t has_offset,
    size_t first, size_t count) {
  x += x_offset;
  q += q_offset;
  d += d_offset;
  y += y_offset;
  m = has_offset ? m + m_offset : 0;
  const size_t blocks = k / 32;
  size_t last = first + count;
  if (last > n) last = n;
  for (size_t r0 = 0; r0 < rows; r0 += 8) {
    const float* xt = x + r0 * k;
    float* yt = y + r0 * n;
    switch (rows - r0 < 8 ? rows - r0 : 8) {
      case 1: WEIGHT_ROWS(1) break;
      case 2: WEIGHT_ROWS(2) break;
      case 3: WEIGHT_ROWS(3) break;
      case 4: WEIGHT_ROWS(4) break;
      case 5: WEIGHT_ROWS(5) break;
      case 6: WEIGHT_ROWS(6) break;
      case 7: WEIGHT_ROWS(7) break;
      default: WEIGHT_ROWS(8) break;
    }
  }
}

// ---- Dense bf16 weights, one row ------------------------------------------
//
// The same contraction for one row of x and a weight W [n, k] stored as
// bf16 (the checkpoint's own bytes): widening bf16 to f32 is a 16-bit shift.
// Only for one row: at 8 rows IREE's own code measured twice as fast as a
// kernel of this shape (docs/performance.md), so graphs call it for B=1
// decode steps and a prompt's last token.

// Eight bf16 values widened to f32 lanes.
INLINE __m256 widen_bf16x8(const uint16_t* p) {
  const __m128i h = _mm_loadu_si128((const __m128i*)p);
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

// One workgroup: y[i] = w[i, :] . x for weight rows [first, first + count).
// x [k] f32, w [n, k] bf16 (k a multiple of 8), y [n] f32.
void iree_llm_bf16_matvec_workgroup(const float* restrict x, size_t x_offset,
                                    const uint16_t* restrict w, size_t w_offset,
                                    float* restrict y, size_t y_offset, size_t n,
                                    size_t k, size_t first, size_t count) {
  x += x_offset;
  w += w_offset;
  y += y_offset;
  size_t last = first + count;
  if (last > n) last = n;
  for (size_t i = first; i < last; ++i) {
    const uint16_t* wi = w + i * k;
    // Four accumulators hide the FMA latency.
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    size_t j = 0;
    for (; j + 32 <= k; j += 32) {
      a0 = _mm256_fmadd_ps(widen_bf16x8(wi + j), _mm256_loadu_ps(x + j), a0);
      a1 = _mm256_fmadd_ps(widen_bf16x8(wi + j + 8), _mm256_loadu_ps(x + j + 8), a1);
      a2 = _mm256_fmadd_ps(widen_bf16x8(wi + j + 16), _mm256_loadu_ps(x + j + 16), a2);
      a3 = _mm256_fmadd_ps(widen_bf16x8(wi + j + 24), _mm256_loadu_ps(x + j + 24), a3);
    }
    for (; j < k; j += 8)
      a0 = _mm256_fmadd_ps(widen_bf16x8(wi + j), _mm256_loadu_ps(x + j), a0);
    y[i] = hsum8(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
  }
}
