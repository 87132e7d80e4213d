// A prompt's attention in tiles of rows, for x86_64_attention_body.h's
// prompt entry: included there once per cache type, with KV_T, KV_LOAD and
// KV_NAME defined, after the body's helpers (slot_at).
//
// Why: the decode form takes one (row, key/value head) at a time, so a
// prompt's rows each read their keys and values again and pay a
// horizontal sum for every score. A tile instead holds the query heads of
// several rows side by side, one a lane (lane r * g + j: row r of the tile,
// query head j of the key/value head), and meets each key and value once
// for all of them:
// - the scores of a block of positions: one vector a position, a multiply-
//   add per dimension with the key's value broadcast (the queries are
//   transposed once a tile, to one vector a dimension);
// - the softmax lane by lane, over those vectors, so its maxima and sums
//   are vertical;
// - the weighted values: one vector a dimension, a multiply-add per
//   position with the value broadcast.
// The scores are scaled after the products and the softmax is taken a
// block at a time with a running maximum, as in the decode form; what
// differs is the order of the additions, so results differ by rounding.
//
// Lanes past the tile's rows carry zero queries; their results are not
// stored. Row r sees positions 0..=p0 + r0 + r, its own among them (the
// graph has written the prompt's keys and values into the cache first).
//
// AVX-512 only: with AVX2's 8 lanes SmolLM2's 3 query heads a key/value
// head fill 6 lanes (2 rows) and the AVX2 build's 16 registers spill, and
// a C harness ran that form 1.3x slower than the decode form, so the AVX2
// build keeps it. With AVX-512 (C harness, one thread, f32 cache, output
// sums equal to about 1e-6): SmolLM2's 30 layers, a prompt of 128 from
// 14.2 to 7.7 ms, of 512 from 228 to 106 ms, a chunk of 32 at position 96
// from 6.4 to 3.7 ms, of 17 tokens 0.39 against 0.38 ms; the 1B preset's
// 16 layers, a prompt of 256 from 109 to 53 ms.

// Positions a block: one score vector each, so that the scores stay in
// registers (16 of AVX-512's 32).
#define PT_KEYS 16
// The largest head_dim a tile keeps on the stack (transposed queries and
// outputs, and a block's keys and values widened for an f16 cache: 32 KB at
// 128). Larger ones take the decode form.
#define PT_MAX_D 128

#define v_max _mm512_max_ps
#define v_div _mm512_div_ps
#define v_sub _mm512_sub_ps
#define v_exp exp16_nonpositive

#ifndef IREE_LLM_PROMPT_TRANSPOSE
#define IREE_LLM_PROMPT_TRANSPOSE
// m[i][j] <- m[j][i] for a 16 x 16 block in registers: pairs of rows
// interleaved, then fours within each 128-bit lane, then the 128-bit lanes
// moved across (64 shuffles).
INLINE void transpose_lanes(__m512 m[16]) {
  __m512 u[16], w[16];
  for (int p = 0; p < 8; ++p) {
    u[2 * p] = _mm512_unpacklo_ps(m[2 * p], m[2 * p + 1]);
    u[2 * p + 1] = _mm512_unpackhi_ps(m[2 * p], m[2 * p + 1]);
  }
  // w[4q + c]: column 4k + c of rows 4q .. 4q + 3 in 128-bit lane k.
  for (int q = 0; q < 4; ++q) {
    w[4 * q] = _mm512_shuffle_ps(u[4 * q], u[4 * q + 2], 0x44);
    w[4 * q + 1] = _mm512_shuffle_ps(u[4 * q], u[4 * q + 2], 0xEE);
    w[4 * q + 2] = _mm512_shuffle_ps(u[4 * q + 1], u[4 * q + 3], 0x44);
    w[4 * q + 3] = _mm512_shuffle_ps(u[4 * q + 1], u[4 * q + 3], 0xEE);
  }
  for (int c = 0; c < 4; ++c) {
    const __m512 a = _mm512_shuffle_f32x4(w[c], w[4 + c], 0x88);
    const __m512 b = _mm512_shuffle_f32x4(w[c], w[4 + c], 0xDD);
    const __m512 e = _mm512_shuffle_f32x4(w[8 + c], w[12 + c], 0x88);
    const __m512 f = _mm512_shuffle_f32x4(w[8 + c], w[12 + c], 0xDD);
    m[c] = _mm512_shuffle_f32x4(a, e, 0x88);
    m[8 + c] = _mm512_shuffle_f32x4(a, e, 0xDD);
    m[4 + c] = _mm512_shuffle_f32x4(b, f, 0x88);
    m[12 + c] = _mm512_shuffle_f32x4(b, f, 0xDD);
  }
}
#endif

// Rows [t0, t0 + nt) of a slot's keys or values as f32 rows of d. An f32
// cache is read in place: past nt a block reads later rows of the cache
// (inside its buffer, which the values follow), whose scores are then set
// to -inf and whose values are never read. An f16 cache's rows are
// widened into `buf`, zeros past nt.
INLINE const float* KV_NAME(tile_rows)(const KV_T* rows, size_t t0, int nt, size_t d,
                                      float* buf) {
  if (sizeof(KV_T) == sizeof(float)) return (const float*)(rows + t0 * d);
  for (int t = 0; t < PT_KEYS; ++t)
    for (size_t c = 0; c < d; c += VLEN)
      v_store(buf + t * d + c, t < nt ? KV_LOAD(rows + (t0 + t) * d + c) : v_zero());
  return buf;
}

// Rows [r0, r0 + nr) of a prompt (row r at position p0 + r), the g query
// heads of key/value head `head`, against that head's cached `keys` and
// `vals`: out as the decode form writes it (unit row * hkv + head). nr * g
// <= VLEN, d <= PT_MAX_D and a multiple of VLEN (the caller checks).
INLINE void KV_NAME(prompt_tile)(const float* q, size_t q_row, const KV_T* keys,
                                 const KV_T* vals, float* out, size_t r0, size_t nr, size_t p0,
                                 size_t head, size_t hkv, size_t g, size_t d, float scale) {
  float qt[PT_MAX_D * VLEN] __attribute__((aligned(64)));
  float ot[PT_MAX_D * VLEN] __attribute__((aligned(64)));
  float pt[PT_KEYS * VLEN] __attribute__((aligned(64)));
  // Only an f16 cache's blocks are widened into these.
  float kbuf[sizeof(KV_T) == sizeof(float) ? 1 : PT_KEYS * PT_MAX_D] __attribute__((aligned(64)));
  float vbuf[sizeof(KV_T) == sizeof(float) ? 1 : PT_KEYS * PT_MAX_D] __attribute__((aligned(64)));
  float limit[VLEN] __attribute__((aligned(64)));
  const size_t lanes = nr * g;
  // Lane i's query, transposed: qt[c * VLEN + i]. Padding lanes take
  // zeros and the first row's limit, so they never hold only masked
  // positions.
  for (size_t i = 0; i < VLEN; ++i) limit[i] = (float)(p0 + r0 + (i < lanes ? i / g : 0));
  for (size_t c0 = 0; c0 < d; c0 += VLEN) {
    vec m[VLEN];
    for (size_t i = 0; i < VLEN; ++i)
      m[i] = i < lanes ? v_load(q + (r0 + i / g) * q_row + (head * g + i % g) * d + c0) : v_zero();
    transpose_lanes(m);
    for (int j = 0; j < VLEN; ++j) v_store(qt + (c0 + j) * VLEN, m[j]);
  }
  for (size_t c = 0; c < d * VLEN; c += VLEN) v_store(ot + c, v_zero());
  const vec lim = v_load(limit);
  const vec minus_inf = v_set1(-__builtin_inff());
  vec top = minus_inf, sum = v_zero();
  // Positions every lane sees (the tile's first row's and below), and the
  // tile's last.
  const size_t open = p0 + r0, last = p0 + r0 + nr - 1;
  for (size_t t0 = 0; t0 <= last; t0 += PT_KEYS) {
    const int nt = last + 1 - t0 < PT_KEYS ? (int)(last + 1 - t0) : PT_KEYS;
    const float* kb = KV_NAME(tile_rows)(keys, t0, nt, d, kbuf);
    vec s[PT_KEYS];
    for (int t = 0; t < PT_KEYS; ++t) s[t] = v_zero();
    for (size_t c = 0; c < d; ++c) {
      const vec qc = v_load(qt + c * VLEN);
      for (int t = 0; t < PT_KEYS; ++t) s[t] = v_fmadd(v_set1(kb[t * d + c]), qc, s[t]);
    }
    // The lanes that see each position: all up to `open`, none past the
    // block's end, and between them each lane up to its own row's. Most
    // blocks are seen whole and take no masks.
    const int whole = nt == PT_KEYS && t0 + PT_KEYS - 1 <= open;
    __mmask16 sees[PT_KEYS];
    const vec sc = v_set1(scale);
    vec most = minus_inf;
    for (int t = 0; t < PT_KEYS; ++t) {
      s[t] = v_mul(s[t], sc);
      if (!whole) {
        sees[t] = t >= nt             ? 0
                  : t0 + t <= open ? 0xFFFF
                                   : _mm512_cmp_ps_mask(v_set1((float)(t0 + t)), lim, _CMP_LE_OQ);
        s[t] = _mm512_mask_blend_ps(sees[t], minus_inf, s[t]);
      }
      most = v_max(most, s[t]);
    }
    // The lanes' new maxima, and the factor that moves what they summed so
    // far to them (the first block: e^-87 times zero sums).
    const vec now = v_max(top, most);
    const vec alpha = v_exp(v_sub(top, now));
    top = now;
    vec total = v_zero();
    for (int t = 0; t < PT_KEYS; ++t) {
      vec e = v_exp(v_sub(s[t], now));
      // Exactly zero where unseen (the exponential stops at e^-87).
      if (!whole) e = _mm512_maskz_mov_ps(sees[t], e);
      total = v_add(total, e);
      v_store(pt + t * VLEN, e);
    }
    sum = v_fmadd(sum, alpha, total);
    const float* vb = KV_NAME(tile_rows)(vals, t0, nt, d, vbuf);
    for (size_t c0 = 0; c0 < d; c0 += 8) {
      vec o[8];
      for (int i = 0; i < 8; ++i) o[i] = v_mul(v_load(ot + (c0 + i) * VLEN), alpha);
      for (int t = 0; t < nt; ++t) {
        const vec e = v_load(pt + t * VLEN);
        for (int i = 0; i < 8; ++i) o[i] = v_fmadd(v_set1(vb[t * d + c0 + i]), e, o[i]);
      }
      for (int i = 0; i < 8; ++i) v_store(ot + (c0 + i) * VLEN, o[i]);
    }
  }
  // Each lane's sum divides its outputs (padding lanes' sums are positive
  // too), and the tile goes back to one row of d a lane.
  const vec inv = v_div(v_set1(1.0f), sum);
  for (size_t c0 = 0; c0 < d; c0 += VLEN) {
    vec m[VLEN];
    for (int j = 0; j < VLEN; ++j) m[j] = v_mul(v_load(ot + (c0 + j) * VLEN), inv);
    transpose_lanes(m);
    for (size_t i = 0; i < lanes; ++i)
      v_store(out + ((r0 + i / g) * hkv + head) * g * d + (i % g) * d + c0, m[i]);
  }
}

// The prompt entry's workgroup in tiles: units [first, first + per) of
// n = rows * hkv, unit u being key/value head u % hkv of row
// rows - 1 - u / hkv. The last rows come first because they see the most
// positions: IREE's workers claim workgroups in order, one at a time while
// there are fewer than 8 a worker, so the costliest go first and the
// cheapest fill in at the end. For each head, the workgroup's rows of it
// are cut into tiles of VLEN / g. Returns 0 (nothing done) where the tiles
// do not apply: more query heads than lanes, head_dim too large, a
// position outside [0, window).
INLINE int KV_NAME(prompt_tiles)(const float* q, size_t q_row, const KV_T* kv,
                                 const int32_t* prompt,
                                 float* out, size_t n, size_t layer, size_t slots, size_t hkv,
                                 size_t g, size_t capacity, size_t window, size_t d,
                                 size_t first, size_t per) {
  const size_t rows = n / hkv, s1 = first + per < n ? first + per : n;
  if (g > VLEN || d > PT_MAX_D || d % VLEN != 0 || prompt[1] < 0 ||
      (size_t)prompt[1] + rows > window || first >= s1)
    return 0;
  const size_t p0 = (size_t)prompt[1], tile = VLEN / g;
  const float scale = score_scale(d);
  for (size_t head = 0; head < hkv; ++head) {
    // This head's units in the workgroup, u = rev * hkv + head in
    // [first, s1), are the rows [rows - rev_b, rows - rev_a).
    const size_t rev_a = (first + hkv - 1 - head) / hkv;
    const size_t rev_b = (s1 + hkv - 1 - head) / hkv;
    const KV_NAME(slot_t) sl =
        KV_NAME(slot_at)(kv, 0, prompt, layer, slots, hkv, capacity, window, d, head);
    for (size_t r0 = rows - rev_b; r0 < rows - rev_a; r0 += tile) {
      const size_t nr = rows - rev_a - r0 < tile ? rows - rev_a - r0 : tile;
      // head_dim as a constant where it is a common one, so that a key's
      // and a value's rows are fixed offsets from one pointer.
      if (d == 64)
        KV_NAME(prompt_tile)(q, q_row, sl.keys, sl.vals, out, r0, nr, p0, head, hkv, g, 64, scale);
      else if (d == 128)
        KV_NAME(prompt_tile)(q, q_row, sl.keys, sl.vals, out, r0, nr, p0, head, hkv, g, 128, scale);
      else
        KV_NAME(prompt_tile)(q, q_row, sl.keys, sl.vals, out, r0, nr, p0, head, hkv, g, d, scale);
    }
  }
  return 1;
}

#undef v_max
#undef v_div
#undef v_sub
#undef v_exp
#undef PT_KEYS
#undef PT_MAX_D
