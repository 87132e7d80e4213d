// SiLU for the gated panel kernels (x86_64_avx512_panels.h in the exact
// AVX-512 build, x86_64_avx512_bf16_panels.h): 16 lanes of f32. Needs
// immintrin.h and INLINE from the file that includes it.

#ifndef IREE_LLM_X86_64_AVX512_SILU_H
#define IREE_LLM_X86_64_AVX512_SILU_H

// e^x for x <= 0 (below -87 taken as e^-87), to about an ulp, as
// x86_64_attention.c's exp8: x = n ln 2 + r, e^r by its Taylor series
// through r^7, times 2^n in the exponent bits.
INLINE __m512 exp16_nonpositive(__m512 x) {
  x = _mm512_max_ps(x, _mm512_set1_ps(-87.0f));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.0f / 5040.0f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 720.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  const __m512i bits =
      _mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23);
  return _mm512_mul_ps(p, _mm512_castsi512_ps(bits));
}

// silu(g) * u = g * u * sigmoid(g), the sigmoid from e^-|g| (never
// overflows): 1 / (1 + t) for g >= 0, t / (1 + t) below.
INLINE __m512 silu_times(__m512 g, __m512 u) {
  const __m512 t = exp16_nonpositive(_mm512_sub_ps(_mm512_setzero_ps(), _mm512_abs_ps(g)));
  const __m512 one_t = _mm512_add_ps(_mm512_set1_ps(1.0f), t);
  const __mmask16 neg = _mm512_cmp_ps_mask(g, _mm512_setzero_ps(), _CMP_LT_OQ);
  const __m512 num = _mm512_mask_blend_ps(neg, _mm512_set1_ps(1.0f), t);
  return _mm512_mul_ps(_mm512_mul_ps(g, u), _mm512_div_ps(num, one_t));
}

#endif
