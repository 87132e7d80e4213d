// Horizontal sums of eight 16-lane f32 vectors at once, for the kernels'
// register tiles (x86_64_matmul.c's AVX-512 build, x86_64_avx512_bf16.c).
//
// Why: a tile of one weight row by eight rows of x ends in eight vectors of
// partial sums. Reducing each on its own costs about nine instructions, 72
// for the tile, a tenth of a 1B weight row's work at eight rows; reducing
// them together halves the vectors three times (shuffle, add) and costs 24.
#ifndef IREE_LLM_X86_64_AVX512_SUMS_H
#define IREE_LLM_X86_64_AVX512_SUMS_H

#include <immintrin.h>
#include <stddef.h>

// {sum(v[0]), ..., sum(v[7])}.
static inline __attribute__((always_inline)) __m256 sums8(const __m512 v[8]) {
  // Pairs of vectors: v[2p]'s 128-bit quarters 0+2 and 1+3, then v[2p+1]'s.
  __m512 s[4];
  for (int p = 0; p < 4; ++p)
    s[p] = _mm512_add_ps(_mm512_shuffle_f32x4(v[2 * p], v[2 * p + 1], 0x44),
                         _mm512_shuffle_f32x4(v[2 * p], v[2 * p + 1], 0xEE));
  // Quarter q of t[h] now holds four partial sums of v[4h + q].
  __m512 t[2];
  for (int h = 0; h < 2; ++h)
    t[h] = _mm512_add_ps(_mm512_shuffle_f32x4(s[2 * h], s[2 * h + 1], 0x88),
                         _mm512_shuffle_f32x4(s[2 * h], s[2 * h + 1], 0xDD));
  // Within each quarter q: two partial sums of v[q], then two of v[4 + q].
  const __m512 u = _mm512_add_ps(_mm512_shuffle_ps(t[0], t[1], 0x44),
                                 _mm512_shuffle_ps(t[0], t[1], 0xEE));
  // Lane 4q holds sum(v[q]), lane 4q + 2 sum(v[4 + q]).
  const __m512 w = _mm512_add_ps(u, _mm512_shuffle_ps(u, u, 0xB1));
  const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 2, 6, 10, 14, 0, 0, 0, 0, 0, 0, 0, 0);
  return _mm512_castps512_ps256(_mm512_permutexvar_ps(order, w));
}

// y[r * stride] = sum(v[r]) for r < 8, or added to y when `accumulate`.
static inline __attribute__((always_inline)) void store_sums8(const __m512 v[8], float* y,
                                                              size_t stride, int accumulate) {
  float s[8];
  _mm256_storeu_ps(s, sums8(v));
  for (int r = 0; r < 8; ++r) y[r * stride] = accumulate ? y[r * stride] + s[r] : s[r];
}

#endif
