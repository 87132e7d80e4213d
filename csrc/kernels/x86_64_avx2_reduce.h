// Horizontal reductions of one 8-lane AVX2 vector, for the kernels built
// with AVX2 (x86_64_matmul.c, x86_64_attention.c, x86_64_avx2_q8.c).
//
// The order of hsum8's additions is part of some results: lanes i and i + 4
// first, then pairs, as AVX-512's _mm512_reduce_add_ps ends, so that
// x86_64_avx2_q8.c sums a block of x as the VNNI kernel does.
#ifndef IREE_LLM_X86_64_AVX2_REDUCE_H
#define IREE_LLM_X86_64_AVX2_REDUCE_H

#include <immintrin.h>
#include <stdint.h>

// (v0 + v4 + v2 + v6) + (v1 + v5 + v3 + v7), in that pairing.
static inline __attribute__((always_inline)) float hsum8(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

static inline __attribute__((always_inline)) float hmax8(__m256 v) {
  __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_max_ps(s, _mm_movehl_ps(s, s));
  s = _mm_max_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

static inline __attribute__((always_inline)) int32_t hsum8_epi32(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 1));
  return _mm_cvtsi128_si32(s);
}

#endif
