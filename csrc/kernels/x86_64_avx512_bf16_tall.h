// Panel products for 9 to a few dozen rows of x (a decode step carrying a
// prompt's chunk, a short prompt chunk): one panel by up to 24 rows at a
// time, or two panels by up to 12, x interleaved. Included by x86_64_avx512_bf16.c after the panel
// kernels (x86_64_avx512_bf16_panels.h), whose results these reproduce
// bit for bit.
//
// Why: the panel kernels take rows 8 at a time, so with 16 or 24 rows the
// first tile of rows streams a workgroup's panels from memory and the later
// tiles multiply them out of L2 while the memory idles: the two never
// overlap, and a step carrying 8 or 16 prompt tokens cost their multiplies
// at the FMA pipes' peak on top of a step bound by memory. Here each weight
// vector loaded meets every row at once (up to 24 accumulators), so the
// panels stream at an even pace under the multiplies (docs/performance.md).
//
// x comes interleaved, [k/2][rows] 32-bit pairs (the graph transposes it):
// the rows' pairs for one j are adjacent, where rows 4 KB apart would all
// fall in one L1 set and evict each other at 16 rows.

// Rows of x a tile takes at most: 24 accumulators, the weight vector and a
// broadcast fill 26 of the 32 registers.
#define TALL_MOST 24
// Pairs ahead of the one being multiplied that the panel stream of a tile
// of one panel fetches into L1: half the panel kernels' distance, as each
// line takes 2-3x as long to multiply (32 lines are still 200 ns or more).
// 128 read 1-5% slower at 16 and 24 rows (sixty-third session).
#define TALL_AHEAD 32
// Rows of x a tile of two panels takes at most: 2 x 12 accumulators, the
// two weight vectors and a broadcast fill 27 of the 32 registers.
#define TALL_PAIR_MOST 12

// acc[r] += the pairs [j0, j1) of panel `w` against row r of the
// interleaved x `xi` (row stride `stride` pairs, the tile's first row at
// xi), r < R. With `fetch`, prefetches the stream `TALL_AHEAD` pairs on:
// this panel below `half` pairs, then `next`.
INLINE void tall_sums(const uint32_t* w, const uint32_t* next, size_t half, const uint32_t* xi,
                      size_t stride, size_t j0, size_t j1, const int R, __m512* acc, int fetch) {
  for (size_t j = j0; j < j1; ++j) {
    if (fetch) {
      const size_t ahead = j + TALL_AHEAD;
      const uint32_t* line =
          ahead < half ? w + ahead * BF16_PANEL : next + (ahead - half) * BF16_PANEL;
      _mm_prefetch((const char*)line, _MM_HINT_T0);
    }
    const __m512bh wv = (__m512bh)_mm512_loadu_si512(w + j * BF16_PANEL);
    const uint32_t* xj = xi + j * stride;
#pragma GCC unroll 24
    for (int r = 0; r < R; ++r)
      acc[r] = _mm512_dpbf16_ps(acc[r], wv, (__m512bh)_mm512_set1_epi32((int)xj[r]));
  }
}

// Up to 12 rows, two panels at once: a[r] += the pairs [j0, j1) of panel
// `w` against row r, b[r] += those of panel `v`, each broadcast of x
// feeding both. With `fetch`, each stream is prefetched the panel
// kernels' distance ahead, past `half` pairs into `wn` and `vn` (the panels
// each stream reads next).
//
// Why: a tile of one panel by 9 to 16 rows is neither bound by its
// multiplies nor able to keep the memory busy. Its single stream, fetched
// far ahead, ran 20-25% below the two streams of the 8-row panel tiles, so
// a step carrying a few prompt tokens took a fifth longer than a plain one
// although it has multiplies to spare. Two streams side by side, half the
// x loads a multiply, as the panel tiles have, read at their rate
// (docs/performance.md, sixty-third session).
INLINE void tall_pair_sums(const uint32_t* w, const uint32_t* wn, const uint32_t* v,
                           const uint32_t* vn, size_t half, const uint32_t* xi, size_t stride,
                           size_t j0, size_t j1, const int R, __m512* a, __m512* b, int fetch) {
  for (size_t j = j0; j < j1; ++j) {
    if (fetch) {
      const size_t ahead = j + BF16_PANELS_AHEAD;
      const size_t at = (ahead < half ? ahead : ahead - half) * BF16_PANEL;
      _mm_prefetch((const char*)((ahead < half ? w : wn) + at), _MM_HINT_T0);
      _mm_prefetch((const char*)((ahead < half ? v : vn) + at), _MM_HINT_T0);
    }
    const __m512bh wv = (__m512bh)_mm512_loadu_si512(w + j * BF16_PANEL);
    const __m512bh vv = (__m512bh)_mm512_loadu_si512(v + j * BF16_PANEL);
    const uint32_t* xj = xi + j * stride;
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      const __m512bh xv = (__m512bh)_mm512_set1_epi32((int)xj[r]);
      a[r] = _mm512_dpbf16_ps(a[r], wv, xv);
      b[r] = _mm512_dpbf16_ps(b[r], vv, xv);
    }
  }
}

// One panel's span of pairs [j0, j1) into y [R rows, n] f32 at the panel's
// first column: stored, or added to y's sums of the earlier spans (`add`),
// as the panel kernel's tiles do.
INLINE void tall_span(const uint32_t* w, size_t half, const uint32_t* xi, size_t stride,
                      size_t j0, size_t j1, const int R, float* y, size_t n, int add,
                      int fetch) {
  __m512 acc[TALL_MOST];
#pragma GCC unroll 24
  for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ps();
  // Panels follow each other in memory: the stream runs on into the next.
  tall_sums(w, w + half * BF16_PANEL, half, xi, stride, j0, j1, R, acc, fetch);
#pragma GCC unroll 24
  for (int r = 0; r < R; ++r) {
    float* out = y + r * n;
    _mm512_storeu_ps(out, add ? _mm512_add_ps(_mm512_loadu_ps(out), acc[r]) : acc[r]);
  }
}

// The same for two adjacent panels (`pk` lanes apart) and at most 12 rows:
// y's columns of both, the next two panels fetched past their ends.
INLINE void tall_span_pair(const uint32_t* w, size_t pk, size_t half, const uint32_t* xi,
                           size_t stride, size_t j0, size_t j1, const int R, float* y, size_t n,
                           int add, int fetch) {
  __m512 a[TALL_PAIR_MOST], b[TALL_PAIR_MOST];
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) a[r] = b[r] = _mm512_setzero_ps();
  tall_pair_sums(w, w + 2 * pk, w + pk, w + 3 * pk, half, xi, stride, j0, j1, R, a, b, fetch);
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    float* out = y + r * n;
    _mm512_storeu_ps(out, add ? _mm512_add_ps(_mm512_loadu_ps(out), a[r]) : a[r]);
    out += BF16_PANEL;
    _mm512_storeu_ps(out, add ? _mm512_add_ps(_mm512_loadu_ps(out), b[r]) : b[r]);
  }
}

// act [R rows, m] bf16 at the panel's first column = silu(gate) * up, over
// all pairs: the gate panel at w, its up panel at w + up; up to 12 rows the
// two side by side, more the stream going gate, up, then the next gate
// panel.
INLINE void tall_gated(const uint32_t* w, size_t up, size_t half, const uint32_t* xi,
                       size_t stride, const int R, uint16_t* act, size_t m) {
  __m512 g[TALL_MOST], u[TALL_MOST];
#pragma GCC unroll 24
  for (int r = 0; r < R; ++r) g[r] = u[r] = _mm512_setzero_ps();
  const uint32_t* next = w + half * BF16_PANEL;
  if (R <= TALL_PAIR_MOST) {
    // Gate and up side by side, each stream running on into its next panel.
    tall_pair_sums(w, next, w + up, next + up, half, xi, stride, 0, half, R, g, u, 1);
  } else {
    tall_sums(w, w + up, half, xi, stride, 0, half, R, g, 1);
    tall_sums(w + up, next, half, xi, stride, 0, half, R, u, 1);
  }
  for (int r = 0; r < R; ++r) {
    const __m256bh a = _mm512_cvtneps_pbh(silu_times(g[r], u[r]));
    _mm256_storeu_si256((__m256i*)(act + r * m), (__m256i)a);
  }
}

#define TALL_FNS(R)                                                                            \
  static __attribute__((noinline)) void tall_span_##R(                                         \
      const uint32_t* w, size_t half, const uint32_t* xi, size_t stride, size_t j0, size_t j1, \
      float* y, size_t n, int add, int fetch) {                                                \
    tall_span(w, half, xi, stride, j0, j1, R, y, n, add, fetch);                               \
  }                                                                                            \
  static __attribute__((noinline)) void tall_gated_##R(const uint32_t* w, size_t up,           \
                                                       size_t half, const uint32_t* xi,        \
                                                       size_t stride, uint16_t* act,           \
                                                       size_t m) {                             \
    tall_gated(w, up, half, xi, stride, R, act, m);                                            \
  }
TALL_FNS(1) TALL_FNS(2) TALL_FNS(3) TALL_FNS(4) TALL_FNS(5) TALL_FNS(6) TALL_FNS(7) TALL_FNS(8)
TALL_FNS(9) TALL_FNS(10) TALL_FNS(11) TALL_FNS(12) TALL_FNS(13) TALL_FNS(14) TALL_FNS(15)
TALL_FNS(16) TALL_FNS(17) TALL_FNS(18) TALL_FNS(19) TALL_FNS(20) TALL_FNS(21) TALL_FNS(22)
TALL_FNS(23) TALL_FNS(24)
#define TALL_PAIR_FN(R)                                                                        \
  static __attribute__((noinline)) void tall_span_pair_##R(                                    \
      const uint32_t* w, size_t pk, size_t half, const uint32_t* xi, size_t stride, size_t j0, \
      size_t j1, float* y, size_t n, int add, int fetch) {                                     \
    tall_span_pair(w, pk, half, xi, stride, j0, j1, R, y, n, add, fetch);                      \
  }
TALL_PAIR_FN(1) TALL_PAIR_FN(2) TALL_PAIR_FN(3) TALL_PAIR_FN(4) TALL_PAIR_FN(5) TALL_PAIR_FN(6)
TALL_PAIR_FN(7) TALL_PAIR_FN(8) TALL_PAIR_FN(9) TALL_PAIR_FN(10) TALL_PAIR_FN(11)
TALL_PAIR_FN(12)

#define TALL_CASES(CASE)                                                                       \
  CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10) CASE(11)    \
  CASE(12) CASE(13) CASE(14) CASE(15) CASE(16) CASE(17) CASE(18) CASE(19) CASE(20) CASE(21)    \
  CASE(22) CASE(23) CASE(24)
#define TALL_SPAN_CASE(R)                                                                      \
  case R:                                                                                      \
    tall_span_##R(wp, half, xi + r0, rows, j0, j1, y + r0 * n + i, n, c > 0, fetch);           \
    break;
#define TALL_PAIR_CASES(CASE)                                                                  \
  CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10) CASE(11)    \
  CASE(12)
#define TALL_SPAN_PAIR_CASE(R)                                                                 \
  case R:                                                                                      \
    tall_span_pair_##R(wp, pk, half, xi + r0, rows, j0, j1, y + r0 * n + i, n, c > 0, fetch);  \
    break;
#define TALL_GATED_CASE(R)                                                                     \
  case R:                                                                                      \
    tall_gated_##R(wp, up, half, xi + r0, rows, act + r0 * m + i, m);                          \
    break;

// Rows [0, used) in tiles of at most TALL_MOST, as even as they come: the
// first tile's rows, given the tiles.
INLINE size_t tall_tile_rows(size_t used) {
  const size_t tiles = (used + TALL_MOST - 1) / TALL_MOST;
  return tiles == 0 ? 0 : (used + tiles - 1) / tiles;
}

// y = x . W^T for the first `used` of `rows` rows of x, interleaved [k/2]
// [rows] pairs (at x, in bf16 values), and weight rows [first, first +
// count) in panels (x86_64_avx512_bf16_panels.h); y [rows, n] f32. Panel by
// panel (two at a time for tiles of up to 12 rows), its tiles of rows, span
// by span of k as the panel kernel sums.
static void tall_product(const uint16_t* x, const uint32_t* w, float* y, size_t rows,
                         size_t used, size_t n, size_t k, size_t first, size_t count) {
  const uint32_t* xi = (const uint32_t*)x;
  size_t last = first + count;
  if (last > n) last = n;
  const size_t half = k / 2, pk = half * BF16_PANEL;
  const size_t span = k < BF16_PANELS_SPAN ? k : BF16_PANELS_SPAN;
  const size_t per = tall_tile_rows(used);
  for (size_t i = first; i < last;) {
    const uint32_t* wp = w + i / BF16_PANEL * pk;
    // Up to 12 rows, two panels at a time while two are left.
    const int pair = per <= TALL_PAIR_MOST && last - i >= 2 * BF16_PANEL;
    for (size_t r0 = 0; r0 < used; r0 += per) {
      const size_t R = used - r0 < per ? used - r0 : per;
      // The first tile streams the panel; the others find it in L2.
      const int fetch = r0 == 0;
      for (size_t c = 0; c < k; c += span) {
        const size_t j0 = c / 2, j1 = (c + (k - c < span ? k - c : span)) / 2;
        if (pair) {
          switch (R) { TALL_PAIR_CASES(TALL_SPAN_PAIR_CASE) }
        } else {
          switch (R) { TALL_CASES(TALL_SPAN_CASE) }
        }
      }
    }
    i += pair ? 2 * BF16_PANEL : BF16_PANEL;
  }
}

void iree_llm_bf16_panels_bf16_tall_workgroup(const uint16_t* restrict x, size_t x_offset,
                                              const uint32_t* restrict w, size_t w_offset,
                                              float* restrict y, size_t y_offset, size_t rows,
                                              size_t n, size_t k, size_t first, size_t count) {
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  tall_product(x + x_offset, w, y + y_offset, rows, rows, n, k, first, count);
}

// The same over the first `live` rows only (see live_rows).
void iree_llm_bf16_panels_bf16_tall_live_workgroup(
    const uint16_t* restrict x, size_t x_offset, const uint32_t* restrict w, size_t w_offset,
    const int32_t* restrict live, size_t live_offset, float* restrict y, size_t y_offset,
    size_t rows, size_t n, size_t k, size_t first, size_t count) {
  const size_t used = live_rows(live + live_offset, rows);
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  tall_product(x + x_offset, w, y + y_offset, rows, used, n, k, first, count);
  zero_rows_f32(y + y_offset, used, rows, n, first, count);
}

// act = silu(x . Wg^T) * (x . Wu^T) in bf16 for the first `used` of `rows`
// rows of x interleaved as above, columns [first, first + count) of m; the
// stacked gate and up panels as iree_llm_bf16_panels_silu_bf16_workgroup
// takes them; act [rows, m] bf16, its rows from `used` on zero.
static void tall_gated_product(const uint16_t* x, const uint32_t* w, uint16_t* act, size_t rows,
                               size_t used, size_t m, size_t k, size_t first, size_t count) {
  const uint32_t* xi = (const uint32_t*)x;
  size_t last = first + count;
  if (last > m) last = m;
  const size_t half = k / 2, pk = half * BF16_PANEL;
  const size_t up = m / BF16_PANEL * pk;
  const size_t per = tall_tile_rows(used);
  for (size_t i = first; i < last; i += BF16_PANEL) {
    const uint32_t* wp = w + i / BF16_PANEL * pk;
    for (size_t r0 = 0; r0 < used; r0 += per) {
      const size_t R = used - r0 < per ? used - r0 : per;
      switch (R) { TALL_CASES(TALL_GATED_CASE) }
    }
    for (size_t r = used; r < rows; ++r)
      _mm256_storeu_si256((__m256i*)(act + r * m + i), _mm256_setzero_si256());
  }
}

void iree_llm_bf16_panels_silu_bf16_tall_workgroup(const uint16_t* restrict x, size_t x_offset,
                                                   const uint32_t* restrict w, size_t w_offset,
                                                   uint16_t* restrict act, size_t act_offset,
                                                   size_t rows, size_t m, size_t k, size_t first,
                                                   size_t count) {
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  tall_gated_product(x + x_offset, w, act + act_offset, rows, rows, m, k, first, count);
}

void iree_llm_bf16_panels_silu_bf16_tall_live_workgroup(
    const uint16_t* restrict x, size_t x_offset, const uint32_t* restrict w, size_t w_offset,
    const int32_t* restrict live, size_t live_offset, uint16_t* restrict act, size_t act_offset,
    size_t rows, size_t m, size_t k, size_t first, size_t count) {
  const size_t used = live_rows(live + live_offset, rows);
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  tall_gated_product(x + x_offset, w, act + act_offset, rows, used, m, k, first, count);
}
