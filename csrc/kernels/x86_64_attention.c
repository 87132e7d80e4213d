// Hand-written x86-64 (AVX2 and FMA, or AVX-512) kernel linked into compiled
// modules as a custom dispatch: one decode step's attention of one layer,
// for every row of the step and every key/value head (src/emit/kernels.rs
// emits the call).
//
// Why it exists: the StableHLO form of a ragged step reads every row's whole
// window of the cache and masks what lies at or past the row's position, in
// four dispatches per layer (scores, softmax, values, the row's own key and
// value). This kernel reads only the positions below each row's position
// and does all of it in one dispatch: at B=8 a SmolLM2 step's attention read
// 94 MB of cache (window 256, rows at position 128) and took a quarter of
// the step (docs/performance.md).
//
// What it computes is the graph's: for query head j of key/value head h of
// row i, scores s_t = (q_j . K_t) * (1/sqrt(d)) over the cached positions
// t < pos[i] and the row's own new key, softmax over them, and the weighted
// sum of the values. The softmax is taken a tile of positions at a time
// with a running maximum (each tile's exponentials scaled to the largest
// score so far), so the result differs from the graph's max-first form by
// rounding only; tests hold both to the f64 reference.
//
// Built freestanding: no libc, nothing but registers, the stack and the
// buffers.

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define INLINE static inline __attribute__((always_inline))

// Positions per tile: one vector of scores.
#define TILE 8
// The most query heads of one key/value head times head_dim the kernel
// holds on its stack (the emitter calls it only within this).
#define MAX_GD 2048
#define MAX_G 64

INLINE float hsum8(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

INLINE float hmax8(__m256 v) {
  __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_max_ps(s, _mm_movehl_ps(s, s));
  s = _mm_max_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// e^x for x <= 0, to about an ulp: x = n ln 2 + r with |r| <= ln 2 / 2
// (ln 2 split in two so that n ln 2 is exact in the first part), e^r by
// its Taylor series through r^7 (the first term left out is below 1e-8 of
// the result), times 2^n built in the exponent bits. Below -87 e^x is
// under the smallest normal float and is taken as e^-87 (about 1.6e-38):
// against the largest term of a softmax, which is 1, that is nothing.
INLINE __m256 exp8(__m256 x) {
  x = _mm256_max_ps(x, _mm256_set1_ps(-87.0f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.0f / 5040.0f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 720.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  const __m256i bits = _mm256_slli_epi32(
      _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(bits));
}

// Rows of keys and values are read in vectors of VLEN floats: 8 with
// AVX2, 16 when build.rs compiles this file a second time with AVX-512
// flags (half the instructions for the dot products and the weighted
// sums, which is where a workgroup spends its time once the cache is in
// L1). head_dim is a multiple of 16 (the emitter checks).
#if defined(__AVX512F__)
#include "x86_64_avx512_sums.h"
#define VLEN 16
typedef __m512 vec;
#define v_zero _mm512_setzero_ps
#define v_load _mm512_loadu_ps
#define v_store _mm512_storeu_ps
#define v_set1 _mm512_set1_ps
#define v_mul _mm512_mul_ps
#define v_add _mm512_add_ps
#define v_fmadd _mm512_fmadd_ps
#else
#define VLEN 8
typedef __m256 vec;
#define v_zero _mm256_setzero_ps
#define v_load _mm256_loadu_ps
#define v_store _mm256_storeu_ps
#define v_set1 _mm256_set1_ps
#define v_mul _mm256_mul_ps
#define v_add _mm256_add_ps
#define v_fmadd _mm256_fmadd_ps
#endif

// The 8 dot products q . kt[t] as one vector: each kept as a vector of
// partial sums over d, then the 8 reduced together.
INLINE __m256 dots8(const float* q, const float* const* kt, size_t d) {
  vec p[TILE];
  for (int t = 0; t < TILE; ++t) p[t] = v_zero();
  for (size_t c = 0; c < d; c += VLEN) {
    const vec qc = v_load(q + c);
    for (int t = 0; t < TILE; ++t) p[t] = v_fmadd(qc, v_load(kt[t] + c), p[t]);
  }
#if VLEN == 16
  return sums8(p);
#else
  const __m256 h01 = _mm256_hadd_ps(p[0], p[1]), h23 = _mm256_hadd_ps(p[2], p[3]);
  const __m256 h45 = _mm256_hadd_ps(p[4], p[5]), h67 = _mm256_hadd_ps(p[6], p[7]);
  const __m256 h0123 = _mm256_hadd_ps(h01, h23), h4567 = _mm256_hadd_ps(h45, h67);
  return _mm256_add_ps(_mm256_permute2f128_ps(h0123, h4567, 0x20),
                       _mm256_permute2f128_ps(h0123, h4567, 0x31));
#endif
}

// acc = acc * alpha + sum_t e[t] * vt[t] over the tile's positions.
INLINE void accumulate(float* acc, float alpha, const float* e, const float* const* vt,
                       size_t d) {
  const vec a = v_set1(alpha);
  for (size_t c = 0; c < d; c += VLEN) {
    vec s0 = v_mul(v_load(acc + c), a), s1 = v_zero();
    for (int t = 0; t < TILE; t += 2) {
      s0 = v_fmadd(v_set1(e[t]), v_load(vt[t] + c), s0);
      s1 = v_fmadd(v_set1(e[t + 1]), v_load(vt[t + 1] + c), s1);
    }
    v_store(acc + c, v_add(s0, s1));
  }
}

// One tile of positions (keys kt, values vt; lanes from nt on repeat a
// position and are left out) for each of the g query heads: scores, the
// running maximum top[j] and sum sum[j] of the exponentials, and acc[j]
// += their weighted values.
INLINE void tile_heads(const int nt, const int first_tile, const float* q,
                       const float* const* kt, const float* const* vt, size_t g, size_t d,
                       float scale, float* acc, float* top, float* sum) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256 live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(nt), lane));
  for (size_t j = 0; j < g; ++j) {
    const __m256 sv = _mm256_mul_ps(dots8(q + j * d, kt, d), _mm256_set1_ps(scale));
    const float tile_top = hmax8(sv);
    const float m = first_tile || tile_top > top[j] ? tile_top : top[j];
    // The sums so far were scaled to top[j]; rescale them to m.
    const float alpha = first_tile ? 0.0f : _mm256_cvtss_f32(exp8(_mm256_set1_ps(top[j] - m)));
    const __m256 ev = _mm256_and_ps(exp8(_mm256_sub_ps(sv, _mm256_set1_ps(m))), live);
    float e[TILE] __attribute__((aligned(32)));
    _mm256_store_ps(e, ev);
    sum[j] = (first_tile ? 0.0f : sum[j] * alpha) + hsum8(ev);
    top[j] = m;
    accumulate(acc + j * d, alpha, e, vt, d);
  }
}

// One workgroup: row i = wg / hkv, key/value head h = wg % hkv, for
// wg = first / per.
// q [rows, hkv, g, d]; kv [layers, 2, slots, capacity, d] (slot i * hkv + h
// of layer `layer`: its keys, then its values); k, v [rows, hkv, d] (the
// step's own); pos [rows] i32; out [rows, hkv, g, d]. d is a multiple of 16,
// g * d <= MAX_GD; positions past `window` are not read.
void iree_llm_decode_attention_workgroup(
    const float* restrict q, size_t q_offset, const float* restrict kv, size_t kv_offset,
    const float* restrict k, size_t k_offset, const float* restrict v, size_t v_offset,
    const int32_t* restrict pos, size_t pos_offset, float* restrict out, size_t out_offset,
    size_t n, size_t layer, size_t slots, size_t hkv, size_t g, size_t capacity, size_t window,
    size_t d, size_t first, size_t per) {
  (void)n;
  const size_t wg = first / per, row = wg / hkv;
  // The emitter calls the kernel only within these bounds; past them the
  // stack arrays would overflow, so stop loudly rather than write garbage.
  if (g * d > MAX_GD || g > MAX_G || d % 16 != 0) __builtin_trap();
  q += q_offset + wg * g * d;
  out += out_offset + wg * g * d;
  k += k_offset + wg * d;
  v += v_offset + wg * d;
  const float* keys = kv + kv_offset + ((layer * 2 + 0) * slots + wg) * capacity * d;
  const float* vals = kv + kv_offset + ((layer * 2 + 1) * slots + wg) * capacity * d;
  int64_t p = pos[pos_offset + row];
  if (p < 0) p = 0;
  if (p > (int64_t)window) p = (int64_t)window;
  const size_t cached = (size_t)p;
  // The graph's scale: 1/sqrt(d) in f64, rounded to f32.
  const float scale =
      (float)(1.0 / _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd((double)d))));

  float acc[MAX_GD], top[MAX_G], sum[MAX_G];
  for (size_t c = 0; c < g * d; ++c) acc[c] = 0.0f;
  // Positions 0..cached are the cache's, position `cached` the step's own.
  for (size_t t0 = 0; t0 <= cached; t0 += TILE) {
    const int nt = cached + 1 - t0 < TILE ? (int)(cached + 1 - t0) : TILE;
    const float* kt[TILE];
    const float* vt[TILE];
    for (int t = 0; t < TILE; ++t) {
      kt[t] = t0 + t < cached ? keys + (t0 + t) * d : k;
      vt[t] = t0 + t < cached ? vals + (t0 + t) * d : v;
    }
    // The next tile's keys and values, while this one is multiplied (C
    // harness, B=8 rows at position 128, 30 layers: 2.63 -> 2.40 ms on one
    // thread; two tiles ahead bought no more).
    if (t0 + TILE < cached) {
      const char* kn = (const char*)(keys + (t0 + TILE) * d);
      const char* vn = (const char*)(vals + (t0 + TILE) * d);
      for (size_t b = 0; b < TILE * d * sizeof(float); b += 64) {
        _mm_prefetch(kn + b, _MM_HINT_T0);
        _mm_prefetch(vn + b, _MM_HINT_T0);
      }
    }
    tile_heads(nt, t0 == 0, q, kt, vt, g, d, scale, acc, top, sum);
  }
  for (size_t j = 0; j < g; ++j) {
    const __m256 l = _mm256_set1_ps(sum[j]);
    for (size_t c = 0; c < d; c += 8)
      _mm256_storeu_ps(out + j * d + c, _mm256_div_ps(_mm256_loadu_ps(acc + j * d + c), l));
  }
}
