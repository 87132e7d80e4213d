// Dense bf16 weights laid out in panels (src/emit/panels.rs) times rows of
// x rounded to bf16: y = x . W^T for x [rows, k] bf16 and W [n, k] stored as
// [n/16][k/2][16] 32-bit lanes, lane r of pair j holding row r's values
// (w[2j] low, w[2j+1] high). Included by x86_64_avx512_bf16.c.
//
// A vector loaded from a panel is already what `vdpbf16ps` takes: 16 pairs,
// one a weight row. Against a broadcast pair of x (x[2j], x[2j+1]) it adds
// w[2j] x[2j] + w[2j+1] x[2j+1] to 16 output rows' sums at once: one
// instruction per panel and row of x, nothing widened, no sums across lanes
// (the row-major tile reduces 24 vectors per span).

#define BF16_PANEL 16
// Pairs ahead of the one being read that each panel's stream fetches into
// L1 (4 KB a panel), as the exact panel kernel does.
#define BF16_PANELS_AHEAD 64
// Values of k a span: x rows of the span (8 x 2 KB in bf16) stay in L1, and
// for a prompt the workgroup's panels for the span (64 KB for 32 rows) in
// L2 while its later tiles of x rows pass.
#define BF16_PANELS_SPAN 1024

#include "x86_64_avx512_silu.h"
#ifdef IREE_LLM_AMX
#include "x86_64_amx_bf16.h"
#include "x86_64_amx_blocks.h"
#endif

// One tile: P panels by R rows of x over pairs [j0, j1) of k; `pk` is the
// lanes of one panel (k / 2 * 16), x [R, k] bf16 at stride k, y [R, n] at
// the tile's first output row. `add` adds the sums to y, `fetch` prefetches.
INLINE void bf16_panels_tile(const uint32_t* w, size_t pk, const int P, const uint16_t* x,
                             size_t k, const int R, size_t j0, size_t j1, float* y, size_t n,
                             int add, int fetch) {
  __m512 acc[8][4];
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < P; ++p) acc[r][p] = _mm512_setzero_ps();
  for (size_t j = j0; j < j1; ++j) {
    __m512bh wv[4];
    for (int p = 0; p < P; ++p) {
      const uint32_t* lanes = w + p * pk + j * BF16_PANEL;
      if (fetch) _mm_prefetch((const char*)(lanes + BF16_PANELS_AHEAD * BF16_PANEL), _MM_HINT_T0);
      wv[p] = (__m512bh)_mm512_loadu_si512(lanes);
    }
    for (int r = 0; r < R; ++r) {
      uint32_t pair;
      __builtin_memcpy(&pair, x + r * k + 2 * j, sizeof pair);
      const __m512bh xv = (__m512bh)_mm512_set1_epi32((int)pair);
      for (int p = 0; p < P; ++p) acc[r][p] = _mm512_dpbf16_ps(acc[r][p], wv[p], xv);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < P; ++p) {
      float* out = y + r * n + p * BF16_PANEL;
      const __m512 s = add ? _mm512_add_ps(_mm512_loadu_ps(out), acc[r][p]) : acc[r][p];
      _mm512_storeu_ps(out, s);
    }
}

#define BF16_PANELS_TILE_FN(P, R)                                                              \
  static __attribute__((noinline)) void bf16_panels_tile_##P##x##R(                           \
      const uint32_t* w, size_t pk, const uint16_t* x, size_t k, size_t j0, size_t j1,         \
      float* y, size_t n, int add, int fetch) {                                                \
    bf16_panels_tile(w, pk, P, x, k, R, j0, j1, y, n, add, fetch);                             \
  }
#define BF16_PANELS_TILE_FNS(P)                                                                \
  BF16_PANELS_TILE_FN(P, 1) BF16_PANELS_TILE_FN(P, 2) BF16_PANELS_TILE_FN(P, 3)                \
  BF16_PANELS_TILE_FN(P, 4) BF16_PANELS_TILE_FN(P, 5) BF16_PANELS_TILE_FN(P, 6)                \
  BF16_PANELS_TILE_FN(P, 7) BF16_PANELS_TILE_FN(P, 8)
BF16_PANELS_TILE_FNS(1) BF16_PANELS_TILE_FNS(2) BF16_PANELS_TILE_FNS(4)
#define BF16_PANELS_CASE(P, R)                                                                 \
  case P * 16 + R:                                                                             \
    bf16_panels_tile_##P##x##R(wp, pk, xr, k, j0, j1, yr, n, c > 0, fetch);                    \
    break;
#define BF16_PANELS_CASES(P)                                                                   \
  BF16_PANELS_CASE(P, 1) BF16_PANELS_CASE(P, 2) BF16_PANELS_CASE(P, 3) BF16_PANELS_CASE(P, 4)  \
  BF16_PANELS_CASE(P, 5) BF16_PANELS_CASE(P, 6) BF16_PANELS_CASE(P, 7) BF16_PANELS_CASE(P, 8)

// One workgroup: y = x . W^T for weight rows [first, first + count), first
// and n multiples of 16. x [rows, k] bf16, w the panels, y [rows, n] f32.
// Span by span of k; within a span one tile of x rows at a time, every
// panel of the workgroup over it (2 panels for 5-8 rows of x, 4 for fewer:
// at most 16 accumulators).
void iree_llm_bf16_panels_bf16_workgroup(const uint16_t* restrict x, size_t x_offset,
                                         const uint32_t* restrict w, size_t w_offset,
                                         float* restrict y, size_t y_offset, size_t rows,
                                         size_t n, size_t k, size_t first, size_t count) {
  x += x_offset;
  // The binding is bf16: its offset counts halves of a lane.
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  y += y_offset;
  size_t last = first + count;
  if (last > n) last = n;
#ifdef IREE_LLM_AMX
  if (amx_takes(k)) {
    amx_panels(x, w, y, rows, n, k, first, last);
    return;
  }
#endif
  const size_t pk = k / 2 * BF16_PANEL;
  const size_t span = k < BF16_PANELS_SPAN ? k : BF16_PANELS_SPAN;
  for (size_t c = 0; c < k; c += span) {
    const size_t len = k - c < span ? k - c : span;
    const size_t j0 = c / 2, j1 = (c + len) / 2;
    for (size_t r = 0; r < rows; r += 8) {
      const int xn = rows - r < 8 ? (int)(rows - r) : 8;
      // The first tile of x rows reads the span's panels from memory.
      const int fetch = r == 0;
      const int most = xn <= 4 ? 4 : 2;
      for (size_t i = first; i < last;) {
        const size_t left = (last - i) / BF16_PANEL;
        const int P = left >= (size_t)most ? most : left >= 2 ? 2 : 1;
        const uint32_t* wp = w + i / BF16_PANEL * pk;
        const uint16_t* xr = x + r * k;
        float* yr = y + r * n + i;
        switch (P * 16 + xn) { BF16_PANELS_CASES(1) BF16_PANELS_CASES(2) BF16_PANELS_CASES(4) }
        i += (size_t)P * BF16_PANEL;
      }
    }
  }
}

#include "x86_64_avx512_live_rows.h"

// The same product over the first `live` rows of x only (see live_rows).
void iree_llm_bf16_panels_bf16_live_workgroup(const uint16_t* restrict x, size_t x_offset,
                                              const uint32_t* restrict w, size_t w_offset,
                                              const int32_t* restrict live, size_t live_offset,
                                              float* restrict y, size_t y_offset, size_t rows,
                                              size_t n, size_t k, size_t first, size_t count) {
  const size_t used = live_rows(live + live_offset, rows);
  iree_llm_bf16_panels_bf16_workgroup(x, x_offset, w, w_offset, y, y_offset, used, n, k, first,
                                      count);
  zero_rows_f32(y + y_offset, used, rows, n, first, count);
}

// ---- The MLP's gate and up projections with SiLU, in one pass ---------------
//
// act = silu(x . Wg^T) * (x . Wu^T), rounded to bf16, for the stacked gate
// and up matrix in panels (gate rows 0..m, up rows m..2m): the down
// projection's input as the bf16 form rounds it anyway, so the two f32
// products (4 m bytes a row) are neither written nor read again, only m
// bf16 values a row. Each tile takes gate panel p and up panel p together
// over all of k.

// R rows of x by one gate panel (at w) and its up panel (at w + up), over
// all pairs of k; act [R, m] bf16 at the tile's first column.
INLINE void gated_tile(const uint32_t* w, size_t up, const uint16_t* x, size_t k, const int R,
                       uint16_t* act, size_t m) {
  __m512 g[8], u[8];
  for (int r = 0; r < R; ++r) g[r] = u[r] = _mm512_setzero_ps();
  for (size_t j = 0; j < k / 2; ++j) {
    const uint32_t* lanes = w + j * BF16_PANEL;
    _mm_prefetch((const char*)(lanes + BF16_PANELS_AHEAD * BF16_PANEL), _MM_HINT_T0);
    _mm_prefetch((const char*)(lanes + up + BF16_PANELS_AHEAD * BF16_PANEL), _MM_HINT_T0);
    const __m512bh wg = (__m512bh)_mm512_loadu_si512(lanes);
    const __m512bh wu = (__m512bh)_mm512_loadu_si512(lanes + up);
    for (int r = 0; r < R; ++r) {
      uint32_t pair;
      __builtin_memcpy(&pair, x + r * k + 2 * j, sizeof pair);
      const __m512bh xv = (__m512bh)_mm512_set1_epi32((int)pair);
      g[r] = _mm512_dpbf16_ps(g[r], wg, xv);
      u[r] = _mm512_dpbf16_ps(u[r], wu, xv);
    }
  }
  for (int r = 0; r < R; ++r) {
    const __m256bh a = _mm512_cvtneps_pbh(silu_times(g[r], u[r]));
    _mm256_storeu_si256((__m256i*)(act + r * m), (__m256i)a);
  }
}

#define GATED_TILE_FN(R)                                                                       \
  static __attribute__((noinline)) void gated_tile_##R(const uint32_t* w, size_t up,           \
                                                       const uint16_t* x, size_t k,            \
                                                       uint16_t* act, size_t m) {              \
    gated_tile(w, up, x, k, R, act, m);                                                        \
  }
GATED_TILE_FN(1) GATED_TILE_FN(2) GATED_TILE_FN(3) GATED_TILE_FN(4) GATED_TILE_FN(5)
GATED_TILE_FN(6) GATED_TILE_FN(7) GATED_TILE_FN(8)
#define GATED_CASE(R)                                                                          \
  case R:                                                                                      \
    gated_tile_##R(wp, up, xr, k, ar, m);                                                      \
    break;

// One workgroup: act[:, i] = silu(x . Wg[i]) * (x . Wu[i]) in bf16 for the
// columns [first, first + count) of m, first and m multiples of 16. x [rows,
// k] bf16; w [2m/16][k/2][16] lanes, the gate's m rows then the up's; act
// [rows, m] bf16. Tile of 8 rows of x by tile, the workgroup's panels over
// each (in L2 after the first).
void iree_llm_bf16_panels_silu_bf16_workgroup(const uint16_t* restrict x, size_t x_offset,
                                              const uint32_t* restrict w, size_t w_offset,
                                              uint16_t* restrict act, size_t act_offset,
                                              size_t rows, size_t m, size_t k, size_t first,
                                              size_t count) {
  x += x_offset;
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  act += act_offset;
  size_t last = first + count;
  if (last > m) last = m;
#ifdef IREE_LLM_AMX
  if (amx_takes(k)) {
    amx_silu(x, w, act, rows, m, k, first, last);
    return;
  }
#endif
  const size_t pk = k / 2 * BF16_PANEL;
  const size_t up = m / BF16_PANEL * pk;
  for (size_t r = 0; r < rows; r += 8) {
    const int xn = rows - r < 8 ? (int)(rows - r) : 8;
    const uint16_t* xr = x + r * k;
    for (size_t i = first; i < last; i += BF16_PANEL) {
      const uint32_t* wp = w + i / BF16_PANEL * pk;
      uint16_t* ar = act + r * m + i;
      switch (xn) {
        GATED_CASE(1) GATED_CASE(2) GATED_CASE(3) GATED_CASE(4) GATED_CASE(5) GATED_CASE(6)
        GATED_CASE(7) GATED_CASE(8)
      }
    }
  }
}

// The activation of the first `live` rows of x only (see live_rows); the
// rest of act is zero.
void iree_llm_bf16_panels_silu_bf16_live_workgroup(const uint16_t* restrict x, size_t x_offset,
                                                   const uint32_t* restrict w, size_t w_offset,
                                                   const int32_t* restrict live,
                                                   size_t live_offset, uint16_t* restrict act,
                                                   size_t act_offset, size_t rows, size_t m,
                                                   size_t k, size_t first, size_t count) {
  const size_t used = live_rows(live + live_offset, rows);
  iree_llm_bf16_panels_silu_bf16_workgroup(x, x_offset, w, w_offset, act, act_offset, used, m, k,
                                           first, count);
  size_t last = first + count;
  if (last > m) last = m;
  act += act_offset;
  for (size_t r = used; r < rows; ++r)
    for (size_t i = first; i < last; i += BF16_PANEL)
      _mm256_storeu_si256((__m256i*)(act + r * m + i), _mm256_setzero_si256());
}
