// The body of x86_64_attention.c's kernel for one element type of the
// cache, included once per type with KV_T (the element), KV_LOAD (VLEN of
// them widened to f32), KV_OWN (the step's own row in that type), KV_NAME
// (a name for this type's helpers), KV_ENTRY, KV_WRITES_ENTRY,
// KV_PROMPT_ENTRY and KV_PROMPT_WRITE_ENTRY (the workgroup functions)
// defined. Not a header of its own: it needs the definitions above its
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

// out[0, W) = out * alpha + sum_t e[t] * vt[t][c0, c0 + W) over a block's
// nt positions: W values of a head's sum stay in registers for the whole
// block (64: 8 AVX2 or 4 AVX-512 vectors) instead of being loaded and
// stored again for every few positions. W is 64, or 16 for the rest of a
// head_dim that is not a multiple of 64. Position t also prefetches row t
// of `fetch` (a later block's values, `row` bytes a position) for t <
// fetch_n, so that stream advances as this one is read.
INLINE void KV_NAME(weigh)(const int W, float* out, float alpha, const float* e,
                           const KV_T* const* vt, size_t c0, int nt, const char* fetch,
                           int fetch_n, size_t row) {
  vec acc[64 / VLEN];
  const vec a = v_set1(alpha);
  for (int i = 0; i < W / VLEN; ++i) acc[i] = v_mul(v_load(out + VLEN * i), a);
  for (int t = 0; t < nt; ++t) {
    if (t < fetch_n)
      for (size_t b = 0; b < row; b += 64) _mm_prefetch(fetch + t * row + b, _MM_HINT_T1);
    const vec et = v_set1(e[t]);
    for (int i = 0; i < W / VLEN; ++i)
      acc[i] = v_fmadd(et, KV_LOAD(vt[t] + c0 + VLEN * i), acc[i]);
  }
  for (int i = 0; i < W / VLEN; ++i) v_store(out + VLEN * i, acc[i]);
}

// One block of up to BLOCK positions (keys kt, values vt) for the query
// heads [j0, j0 + gn) of a group: their scores, then each head's running
// maximum top[j] and sum sum[j] of exponentials moved to the block's, and
// acc[j] += the block's weighted values. The softmax is thus rescaled once
// per block, not once per few positions, and a group's heads share each
// key and value while it is in L1.
INLINE void KV_NAME(block_heads)(const int nt, const int first_block, const float* q,
                                 const KV_T* const* kt, const KV_T* const* vt, size_t j0,
                                 size_t gn, size_t d, float scale, float* acc, float* top,
                                 float* sum, const KV_T* next_k, const KV_T* next_v,
                                 int next_n) {
  float s[HEAD_GROUP][BLOCK] __attribute__((aligned(32)));
  __m256 most[HEAD_GROUP];
  for (size_t i = 0; i < gn; ++i) most[i] = _mm256_set1_ps(-__builtin_inff());
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int t0 = 0; t0 < nt; t0 += TILE) {
    // Lanes past the block's last position repeat it; they are kept out
    // of the maximum here and set to zero after the exponential.
    const __m256 live =
        _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(nt - t0), lane));
    // The same tile of a later block's keys (its values are fetched as
    // this block's are read, below).
    if (t0 < next_n) {
      const int ahead = next_n - t0 < TILE ? next_n - t0 : TILE;
      const char* kn = (const char*)(next_k + t0 * d);
      for (size_t b = 0; b < ahead * d * sizeof(KV_T); b += 64) _mm_prefetch(kn + b, _MM_HINT_T1);
    }
    for (size_t i = 0; i < gn; ++i) {
      const __m256 sv =
          _mm256_mul_ps(KV_NAME(dots8)(q + (j0 + i) * d, kt + t0, d), _mm256_set1_ps(scale));
      _mm256_store_ps(s[i] + t0, sv);
      most[i] = _mm256_max_ps(most[i], _mm256_blendv_ps(_mm256_set1_ps(-__builtin_inff()), sv, live));
    }
  }
  // Each head's new maximum, and the factor that moves its sums so far to it.
  float m[HEAD_GROUP], shift[8] __attribute__((aligned(32))) = {0};
  for (size_t i = 0; i < gn; ++i) {
    const float block_top = hmax8(most[i]);
    m[i] = first_block || block_top > top[j0 + i] ? block_top : top[j0 + i];
    shift[i] = first_block ? 0.0f : top[j0 + i] - m[i];
  }
  float alpha[8] __attribute__((aligned(32)));
  _mm256_store_ps(alpha, exp8(_mm256_load_ps(shift)));
  for (size_t i = 0; i < gn; ++i) {
    if (first_block) alpha[i] = 0.0f;
    __m256 total = _mm256_setzero_ps();
    for (int t0 = 0; t0 < nt; t0 += TILE) {
      const __m256 live =
          _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(nt - t0), lane));
      const __m256 ev =
          _mm256_and_ps(exp8(_mm256_sub_ps(_mm256_load_ps(s[i] + t0), _mm256_set1_ps(m[i]))), live);
      _mm256_store_ps(s[i] + t0, ev);
      total = _mm256_add_ps(total, ev);
    }
    sum[j0 + i] = (first_block ? 0.0f : sum[j0 + i] * alpha[i]) + hsum8(total);
    top[j0 + i] = m[i];
  }
  // Values 64 at a time for every head, so that a block's values are read
  // from memory once and from L1 by the group's other heads.
  // The first head's first pass also fetches the later block's values.
  const size_t row = d * sizeof(KV_T);
  size_t c0 = 0;
  for (; c0 + 64 <= d; c0 += 64)
    for (size_t i = 0; i < gn; ++i)
      KV_NAME(weigh)(64, acc + (j0 + i) * d + c0, alpha[i], s[i], vt, c0, nt,
                     (const char*)next_v, i == 0 && c0 == 0 ? next_n : 0, row);
  for (; c0 < d; c0 += 16)
    for (size_t i = 0; i < gn; ++i)
      KV_NAME(weigh)(16, acc + (j0 + i) * d + c0, alpha[i], s[i], vt, c0, nt,
                     (const char*)next_v, i == 0 && c0 == 0 ? next_n : 0, row);
}

// Where cache slot `at` of layer `layer` starts in the caches [layers, 2,
// slots, capacity, d]: its keys (`which` 0) or its values (1), in elements.
INLINE size_t KV_NAME(cache_at)(size_t layer, size_t which, size_t slots, size_t at,
                                size_t capacity, size_t d) {
  return ((layer * 2 + which) * slots + at) * capacity * d;
}

// Where a slot's keys and values are, and how many positions it has cached.
typedef struct {
  const KV_T* keys;
  const KV_T* vals;
  size_t cached;
} KV_NAME(slot_t);

// Unit wg's keys, values and cached positions: in a decode step (`prompt`
// null) row wg / hkv at pos[row], in cache slot wg; in a prompt's rows
// (`prompt` its slot and its first row's position, two i32: 0 for a whole
// prompt, a chunk's start for a chunk), row wg / hkv is at position
// prompt[1] + row of slot prompt[0], whose keys and values the graph has
// already written into the cache (its own are read as the step's, below).
// The slot is clamped as the graph's cache write (StableHLO's
// dynamic_update_slice) clamps it, so it never reads past the cache.
INLINE KV_NAME(slot_t) KV_NAME(slot_at)(const KV_T* kv, const int32_t* pos,
                                        const int32_t* prompt, size_t layer, size_t slots,
                                        size_t hkv, size_t capacity, size_t window, size_t d,
                                        size_t wg) {
  int64_t p = prompt ? (int64_t)prompt[1] + (int64_t)(wg / hkv) : pos[wg / hkv];
  if (p < 0) p = 0;
  if (p > (int64_t)window) p = (int64_t)window;
  size_t at = wg;
  if (prompt) {
    int64_t first_head = (int64_t)*prompt * (int64_t)hkv;
    if (first_head > (int64_t)(slots - hkv)) first_head = (int64_t)(slots - hkv);
    if (first_head < 0) first_head = 0;
    at = (size_t)first_head + wg % hkv;
  }
  KV_NAME(slot_t) s = {kv + KV_NAME(cache_at)(layer, 0, slots, at, capacity, d),
                       kv + KV_NAME(cache_at)(layer, 1, slots, at, capacity, d), (size_t)p};
  return s;
}

// The cached positions (at most a block) `ahead` blocks after block b of
// slot s, counting the workgroup's slots [s, s_end) as one run of their
// cached blocks (a slot's own key, which is not in the cache, takes no
// block of the run): what to prefetch while block b is multiplied. n = 0
// when the run ends first.
typedef struct {
  const KV_T* k;
  const KV_T* v;
  int n;
} KV_NAME(ahead_t);

INLINE KV_NAME(ahead_t) KV_NAME(ahead)(const KV_T* kv, const int32_t* pos,
                                       const int32_t* prompt, size_t layer, size_t slots,
                                       size_t hkv, size_t capacity, size_t window, size_t d,
                                       size_t s, size_t s_end, size_t b, size_t ahead) {
  KV_NAME(ahead_t) none = {0, 0, 0};
  for (; s < s_end; ++s, b = 0) {
    const KV_NAME(slot_t) sl =
        KV_NAME(slot_at)(kv, pos, prompt, layer, slots, hkv, capacity, window, d, s);
    // b is at most this: the block of the own key alone when `cached` is a
    // multiple of BLOCK.
    const size_t blocks = (sl.cached + BLOCK - 1) / BLOCK;
    if (b + ahead < blocks) {
      const size_t at = (b + ahead) * BLOCK;
      KV_NAME(ahead_t) a = {sl.keys + at * d, sl.vals + at * d,
                            (int)(sl.cached - at < BLOCK ? sl.cached - at : BLOCK)};
      return a;
    }
    ahead -= blocks - b;
  }
  return none;
}

INLINE void KV_NAME(prefetch_block)(KV_NAME(ahead_t) a, size_t d) {
  for (size_t b = 0; b < (size_t)a.n * d * sizeof(KV_T); b += 64) {
    _mm_prefetch((const char*)a.k + b, _MM_HINT_T1);
    _mm_prefetch((const char*)a.v + b, _MM_HINT_T1);
  }
}

// One workgroup: the units [first, first + per) of n, unit wg being row
// wg / hkv's key/value head wg % hkv, one after the other.
// q: row i's [hkv, g, d] at q + q_at + i * q_row; kv [layers, 2, slots,
// capacity, d] (slot i * hkv + h of layer `layer`: its keys, then its
// values); k, v: the rows' own (f32), row i's [hkv, d] at k + k_at + i *
// kv_row and v + v_at + i * kv_row (q, k and v may be one tensor of a
// layer's projected rows, read in place, from any row of it: a step's
// decode rows or the chunk it carries); out [rows, hkv, g, d]. A decode
// step: pos [rows] i32, row i in cache slot i (n = slots). A prompt's rows
// (`prompt` its slot and first position): row i at position prompt[1] + i.
// d is a multiple of 16, g * d <= MAX_GD; positions past `window` are not
// read.
INLINE void KV_NAME(attend)(const float* restrict q, const KV_T* restrict kv,
                            const float* restrict k, const float* restrict v,
                            const int32_t* restrict pos, const int32_t* restrict prompt,
                            float* restrict out, size_t n, size_t layer, size_t slots,
                            size_t hkv, size_t g, size_t capacity, size_t window, size_t d,
                            size_t q_row, size_t kv_row, size_t q_at, size_t k_at,
                            size_t v_at, size_t first, size_t per) {
  // The emitter calls the kernel only within these bounds; past them the
  // stack arrays would overflow, so stop loudly rather than write garbage.
  if (g * d > MAX_GD || g > MAX_G || d % 16 != 0) __builtin_trap();
  const size_t s0 = first, s1 = first + per < n ? first + per : n;
  const float scale = score_scale(d);
  // The workgroup's first blocks, which no earlier block prefetches.
  for (size_t i = 0; i < PREFETCH_BLOCKS; ++i)
    KV_NAME(prefetch_block)(KV_NAME(ahead)(kv, pos, prompt, layer, slots, hkv, capacity, window,
                                           d, s0, s1, 0, i),
                            d);
  for (size_t wg = s0; wg < s1; ++wg) {
    const size_t row = wg / hkv, head = wg % hkv;
    const float* qw = q + q_at + row * q_row + head * g * d;
    float* ow = out + wg * g * d;
    // The step's own key and value in the cache's type (for f16 rounded to
    // nearest, as the graph's convert does when it writes them).
    KV_OWN(own_k, k + k_at + row * kv_row + head * d, d);
    KV_OWN(own_v, v + v_at + row * kv_row + head * d, d);
    const KV_NAME(slot_t) sl =
        KV_NAME(slot_at)(kv, pos, prompt, layer, slots, hkv, capacity, window, d, wg);
    const size_t cached = sl.cached;
    float acc[MAX_GD], top[MAX_G], sum[MAX_G];
    for (size_t c = 0; c < g * d; ++c) acc[c] = 0.0f;
    // Positions 0..cached are the cache's, position `cached` the step's own.
    // Groups of heads beyond the first read the keys and values again.
    for (size_t j0 = 0; j0 < g; j0 += HEAD_GROUP) {
      const size_t gn = g - j0 < HEAD_GROUP ? g - j0 : HEAD_GROUP;
      for (size_t b0 = 0; b0 <= cached; b0 += BLOCK) {
        const int nt = cached + 1 - b0 < BLOCK ? (int)(cached + 1 - b0) : BLOCK;
        // Rows of the block's positions; lanes of its last tile past nt
        // repeat its last position (read, never counted).
        const KV_T* kt[BLOCK];
        const KV_T* vt[BLOCK];
        for (int t = 0; t < BLOCK; ++t) {
          const size_t at = b0 + (t < nt ? (size_t)t : (size_t)nt - 1);
          kt[t] = at < cached ? sl.keys + at * d : own_k;
          vt[t] = at < cached ? sl.vals + at * d : own_v;
        }
        // The block PREFETCH_BLOCKS ahead in the workgroup's run (this
        // slot's, or near its end the next slot's), fetched into L2 while
        // this block is multiplied; by the first group of heads only, as
        // later ones read what it read.
        const KV_NAME(ahead_t) a =
            j0 == 0 ? KV_NAME(ahead)(kv, pos, prompt, layer, slots, hkv, capacity, window, d, wg,
                                     s1, b0 / BLOCK, PREFETCH_BLOCKS)
                    : (KV_NAME(ahead_t)){0, 0, 0};
        KV_NAME(block_heads)(nt, b0 == 0, qw, kt, vt, j0, gn, d, scale, acc, top, sum, a.k,
                             a.v, a.n);
      }
    }
    for (size_t j = 0; j < g; ++j) {
      const __m256 l = _mm256_set1_ps(sum[j]);
      for (size_t c = 0; c < d; c += 8)
        _mm256_storeu_ps(ow + j * d + c, _mm256_div_ps(_mm256_loadu_ps(acc + j * d + c), l));
    }
  }
}

// A decode step: row i at pos[i] in cache slot i; q, k and v rows as
// attend() takes them.
void KV_ENTRY(const float* restrict q, size_t q_offset, const KV_T* restrict kv,
              size_t kv_offset, const float* restrict k, size_t k_offset,
              const float* restrict v, size_t v_offset, const int32_t* restrict pos,
              size_t pos_offset, float* restrict out, size_t out_offset, size_t n, size_t layer,
              size_t slots, size_t hkv, size_t g, size_t capacity, size_t window, size_t d,
              size_t q_row, size_t kv_row, size_t q_at, size_t k_at, size_t v_at,
              size_t first, size_t per) {
  KV_NAME(attend)(q + q_offset, kv + kv_offset, k + k_offset, v + v_offset, pos + pos_offset,
                  0, out + out_offset, n, layer, slots, hkv, g, capacity, window, d, q_row,
                  kv_row, q_at, k_at, v_at, first, per);
}

// One position's key k and value v (f32, d of them) stored at `keys` and
// `vals` in the cache's type (for f16 rounded to nearest, as KV_OWN rounds
// what attend() reads).
INLINE void KV_NAME(store_own)(KV_T* keys, KV_T* vals, const float* k, const float* v,
                               size_t d) {
  KV_OWN(own_k, k, d);
  KV_OWN(own_v, v, d);
  // d * sizeof(KV_T) is a multiple of 32 bytes (d is of 16).
  for (size_t b = 0; b < d * sizeof(KV_T); b += 32) {
    _mm256_storeu_si256((__m256i*)((char*)keys + b),
                        _mm256_loadu_si256((const __m256i*)((const char*)own_k + b)));
    _mm256_storeu_si256((__m256i*)((char*)vals + b),
                        _mm256_loadu_si256((const __m256i*)((const char*)own_v + b)));
  }
}

// Writes unit wg's own key and value, for wg in [first, first + per) of n,
// into the caches at pos[row] of its slot, in the cache's type (for f16
// rounded to nearest, as KV_OWN rounds what attend() reads): where the
// graph's scatter wrote them. A position outside the caches is skipped, as
// the scatter skips it. Row i's units read only positions below pos[i] of
// their own slots, so no workgroup reads what another writes.
INLINE void KV_NAME(write_own)(KV_T* kv, const float* k, const float* v,
                               const int32_t* pos, size_t n, size_t layer, size_t slots,
                               size_t hkv, size_t capacity, size_t d, size_t kv_row,
                               size_t k_at, size_t v_at, size_t first, size_t per) {
  const size_t s1 = first + per < n ? first + per : n;
  for (size_t wg = first; wg < s1; ++wg) {
    const size_t row = wg / hkv, head = wg % hkv;
    const int64_t p = pos[row];
    if (p < 0 || p >= (int64_t)capacity) continue;
    KV_T* keys = kv + KV_NAME(cache_at)(layer, 0, slots, wg, capacity, d) + (size_t)p * d;
    KV_T* vals = kv + KV_NAME(cache_at)(layer, 1, slots, wg, capacity, d) + (size_t)p * d;
    KV_NAME(store_own)(keys, vals, k + k_at + row * kv_row + head * d,
                       v + v_at + row * kv_row + head * d, d);
  }
}

// A decode step that also writes the rows' own keys and values into the
// caches (write_own), after its workgroup's attention has read them.
void KV_WRITES_ENTRY(const float* restrict q, size_t q_offset, KV_T* kv, size_t kv_offset,
                     const float* restrict k, size_t k_offset, const float* restrict v,
                     size_t v_offset, const int32_t* restrict pos, size_t pos_offset,
                     float* restrict out, size_t out_offset, size_t n, size_t layer,
                     size_t slots, size_t hkv, size_t g, size_t capacity, size_t window,
                     size_t d, size_t q_row, size_t kv_row, size_t q_at, size_t k_at,
                     size_t v_at, size_t first, size_t per) {
  KV_NAME(attend)(q + q_offset, kv + kv_offset, k + k_offset, v + v_offset, pos + pos_offset,
                  0, out + out_offset, n, layer, slots, hkv, g, capacity, window, d, q_row,
                  kv_row, q_at, k_at, v_at, first, per);
  KV_NAME(write_own)(kv + kv_offset, k + k_offset, v + v_offset, pos + pos_offset, n, layer,
                     slots, hkv, capacity, d, kv_row, k_at, v_at, first, per);
}

#if VLEN == 16
#include "x86_64_prompt_tiles.h"
#endif

// n / hkv rows of a prompt in cache slot slot[0] from position slot[1] (two
// i32), their keys and values already in the cache: row i at position
// slot[1] + i. q, k and v as attend() takes them (q_row, kv_row, q_at, k_at,
// v_at: one tensor of the layer's projected rows, read in place, or
// tensors of their own). In the AVX-512 build in tiles of rows
// (x86_64_prompt_tiles.h) where they apply, else one (row, key/value head)
// at a time as a decode step.
void KV_PROMPT_ENTRY(const float* restrict q, size_t q_offset, const KV_T* restrict kv,
                     size_t kv_offset, const float* restrict k, size_t k_offset,
                     const float* restrict v, size_t v_offset, const int32_t* restrict slot,
                     size_t slot_offset, float* restrict out, size_t out_offset, size_t n,
                     size_t layer, size_t slots, size_t hkv, size_t g, size_t capacity,
                     size_t window, size_t d, size_t q_row, size_t kv_row, size_t q_at,
                     size_t k_at, size_t v_at, size_t first, size_t per) {
#if VLEN == 16
  if (KV_NAME(prompt_tiles)(q + q_offset + q_at, q_row, kv + kv_offset, slot + slot_offset,
                            out + out_offset, n, layer, slots, hkv, g, capacity, window, d,
                            first, per))
    return;
#endif
  KV_NAME(attend)(q + q_offset, kv + kv_offset, k + k_offset, v + v_offset, 0,
                  slot + slot_offset, out + out_offset, n, layer, slots, hkv, g, capacity,
                  window, d, q_row, kv_row, q_at, k_at, v_at, first, per);
}

// Writes a prompt's (or a chunk's) keys and values into the caches before
// its attention reads them there: units [first, first + per) of n, unit wg
// being row wg / hkv's key/value head wg % hkv; row i's keys and values as
// attend() takes them (k + k_at + i * kv_row, v + v_at + i * kv_row), into
// slot slot[0] * hkv + head at position slot[1] + i, in the cache's type
// (f16 rounded to nearest, as the graph's convert rounds). The slot and the
// first position are clamped as the graph's dynamic_update_slice of the
// rows' [hkv, rows] block clamps them. Why a kernel: that write was seven
// of IREE's dispatches a layer (the keys and values sliced out of the
// projected rows, transposed, then written), about a third of a short
// prompt's dispatches (docs/performance.md).
void KV_PROMPT_WRITE_ENTRY(const float* restrict rows, size_t rows_offset, KV_T* kv,
                           size_t kv_offset, const int32_t* restrict slot, size_t slot_offset,
                           size_t n, size_t layer, size_t slots, size_t hkv, size_t capacity,
                           size_t d, size_t kv_row, size_t k_at, size_t v_at, size_t first,
                           size_t per) {
  rows += rows_offset;
  kv += kv_offset;
  slot += slot_offset;
  const size_t t = n / hkv, s1 = first + per < n ? first + per : n;
  if (t > capacity || hkv > slots) __builtin_trap();
  int64_t head0 = (int64_t)slot[0] * (int64_t)hkv, p0 = slot[1];
  if (head0 > (int64_t)(slots - hkv)) head0 = (int64_t)(slots - hkv);
  if (head0 < 0) head0 = 0;
  if (p0 > (int64_t)(capacity - t)) p0 = (int64_t)(capacity - t);
  if (p0 < 0) p0 = 0;
  for (size_t wg = first; wg < s1; ++wg) {
    const size_t row = wg / hkv, head = wg % hkv, at = (size_t)head0 + head;
    const size_t p = (size_t)p0 + row;
    KV_T* keys = kv + KV_NAME(cache_at)(layer, 0, slots, at, capacity, d) + p * d;
    KV_T* vals = kv + KV_NAME(cache_at)(layer, 1, slots, at, capacity, d) + p * d;
    KV_NAME(store_own)(keys, vals, rows + k_at + row * kv_row + head * d,
                       rows + v_at + row * kv_row + head * d, d);
  }
}
