// The body of x86_64_attention.c's kernel for one element type of the
// cache, included once per type with KV_T (the element), KV_LOAD (VLEN of
// them widened to f32), KV_OWN (the step's own row in that type), KV_NAME
// (a name for this type's helpers), KV_TILE (what multiplies one tile of
// positions) and KV_ENTRY (the workgroup function) defined. Not a header of its own: it needs the definitions above its
// #include there.

// The 8 dot products q . kt[t] as one vector: each kept as a vector of
// partial sums over d, then the 8 reduced together.
INLINE __m256 KV_NAME(dots8)(const float* q, const KV_T* const* kt, size_t d) {
  vec p[TILE];
  for (int t = 0; t < TILE; ++t) p[t] = v_zero();
  for (size_t c = 0; c < d; c += VLEN) {
    const vec qc = v_load(q + c);
    for (int t = 0; t < TILE; ++t) p[t] = v_fmadd(qc, KV_LOAD(kt[t] + c), p[t]);
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
INLINE void KV_NAME(accumulate)(float* acc, float alpha, const float* e, const KV_T* const* vt,
                                size_t d) {
  const vec a = v_set1(alpha);
  for (size_t c = 0; c < d; c += VLEN) {
    vec s0 = v_mul(v_load(acc + c), a), s1 = v_zero();
    for (int t = 0; t < TILE; t += 2) {
      s0 = v_fmadd(v_set1(e[t]), KV_LOAD(vt[t] + c), s0);
      s1 = v_fmadd(v_set1(e[t + 1]), KV_LOAD(vt[t + 1] + c), s1);
    }
    v_store(acc + c, v_add(s0, s1));
  }
}

// One tile of positions (keys kt, values vt; lanes from nt on repeat a
// position and are left out) for each of the g query heads: scores, the
// running maximum top[j] and sum sum[j] of the exponentials, and acc[j]
// += their weighted values.
INLINE void KV_NAME(tile_heads)(const int nt, const int first_tile, const float* q,
                                const KV_T* const* kt, const KV_T* const* vt, size_t g,
                                size_t d, float scale, float* acc, float* top, float* sum) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256 live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(nt), lane));
  for (size_t j = 0; j < g; ++j) {
    const __m256 sv = _mm256_mul_ps(KV_NAME(dots8)(q + j * d, kt, d), _mm256_set1_ps(scale));
    const float tile_top = hmax8(sv);
    const float m = first_tile || tile_top > top[j] ? tile_top : top[j];
    // The sums so far were scaled to top[j]; rescale them to m.
    const float alpha = first_tile ? 0.0f : _mm256_cvtss_f32(exp8(_mm256_set1_ps(top[j] - m)));
    const __m256 ev = _mm256_and_ps(exp8(_mm256_sub_ps(sv, _mm256_set1_ps(m))), live);
    float e[TILE] __attribute__((aligned(32)));
    _mm256_store_ps(e, ev);
    sum[j] = (first_tile ? 0.0f : sum[j] * alpha) + hsum8(ev);
    top[j] = m;
    KV_NAME(accumulate)(acc + j * d, alpha, e, vt, d);
  }
}

// One workgroup: row i = wg / hkv, key/value head h = wg % hkv, for
// wg = first / per.
// q [rows, hkv, g, d]; kv [layers, 2, slots, capacity, d] (slot i * hkv + h
// of layer `layer`: its keys, then its values); k, v [rows, hkv, d] (the
// step's own, f32); pos [rows] i32; out [rows, hkv, g, d]. d is a multiple of 16,
// g * d <= MAX_GD; positions past `window` are not read.
void KV_ENTRY(
    const float* restrict q, size_t q_offset, const KV_T* restrict kv, size_t kv_offset,
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
  // The step's own key and value in the cache's type (for f16 rounded to
  // nearest, as the graph's convert does when it writes them).
  KV_OWN(own_k, k, d);
  KV_OWN(own_v, v, d);
  const KV_T* keys = kv + kv_offset + ((layer * 2 + 0) * slots + wg) * capacity * d;
  const KV_T* vals = kv + kv_offset + ((layer * 2 + 1) * slots + wg) * capacity * d;
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
    const KV_T* kt[TILE];
    const KV_T* vt[TILE];
    for (int t = 0; t < TILE; ++t) {
      kt[t] = t0 + t < cached ? keys + (t0 + t) * d : own_k;
      vt[t] = t0 + t < cached ? vals + (t0 + t) * d : own_v;
    }
    // The next tile's keys and values, while this one is multiplied (C
    // harness, B=8 rows at position 128, 30 layers: 2.63 -> 2.40 ms on one
    // thread; two tiles ahead bought no more).
    if (t0 + TILE < cached) {
      const char* kn = (const char*)(keys + (t0 + TILE) * d);
      const char* vn = (const char*)(vals + (t0 + TILE) * d);
      for (size_t b = 0; b < TILE * d * sizeof(KV_T); b += 64) {
        _mm_prefetch(kn + b, _MM_HINT_T0);
        _mm_prefetch(vn + b, _MM_HINT_T0);
      }
    }
    KV_TILE(nt, t0 == 0, q, kt, vt, g, d, scale, acc, top, sum);
  }
  for (size_t j = 0; j < g; ++j) {
    const __m256 l = _mm256_set1_ps(sum[j]);
    for (size_t c = 0; c < d; c += 8)
      _mm256_storeu_ps(out + j * d + c, _mm256_div_ps(_mm256_loadu_ps(acc + j * d + c), l));
  }
}
