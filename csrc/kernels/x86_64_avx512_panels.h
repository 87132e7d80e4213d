// Dense bf16 weights laid out in panels (src/emit/panels.rs), exactly:
// y = x . W^T for rows of x [rows, k] f32 and W [n, k] bf16 stored as
// [n/16][k/2][16] 32-bit lanes, lane r of pair j holding row r's values
// (w[2j] low, w[2j+1] high). Included by x86_64_matmul.c in its AVX-512
// build only.
//
// Why the layout: a zmm loaded from a panel is 16 weight rows' pairs, so a
// shift left by 16 gives their even values as f32 and a mask of the high
// halves their odd ones, and each meets one broadcast value of a row of x.
// The sums are then 16 output rows wide and go to y as they are: no
// horizontal sums (the row-major tile reduced 24 vectors per span), and each
// panel is one linear stream to prefetch. In a C harness of a 1B B=8 step
// (docs/performance.md) this took 37.8-39.9 ms against 44.2-45.8 with the
// weights in L2, and 52.5-54.7 against 61.1-66.7 streamed.

#define PANEL 16
// Pairs ahead of the one being read that each panel's stream fetches into
// L1 (64 pairs: 4 KB a panel). No prefetch: 89-110 ms in the harness; 256
// pairs ahead: 58.5-61.1.
#define PANELS_AHEAD 64

// One tile: P panels (16 P weight rows) by R rows of x, over pairs [j0, j1)
// of k. `w` is the first panel, `pk` the lanes of one panel (k / 2 * 16);
// x [R, k] at its row stride k; y [R, n] at the tile's first output row.
// `add` adds the sums to y (a later span), `fetch` prefetches the panels.
INLINE void panels_tile(const uint32_t* w, size_t pk, const int P, const float* x, size_t k,
                        const int R, size_t j0, size_t j1, float* y, size_t n, int add,
                        int fetch) {
  // One accumulator a row and panel, the even and then the odd values of
  // each pair added in turn: a row's sums are the same whatever the tile's
  // shape, so a row gives the same bits alone, in a batch or beside a
  // prompt's rows (a decode step carrying a chunk multiplies them together).
  __m512 acc[8][4];
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < P; ++p) acc[r][p] = _mm512_setzero_ps();
  const __m512i high = _mm512_set1_epi32((int)0xFFFF0000u);
  for (size_t j = j0; j < j1; ++j) {
    __m512 we[4], wo[4];
    for (int p = 0; p < P; ++p) {
      const uint32_t* lanes = w + p * pk + j * PANEL;
      if (fetch) _mm_prefetch((const char*)(lanes + PANELS_AHEAD * PANEL), _MM_HINT_T0);
      const __m512i v = _mm512_loadu_si512(lanes);
      we[p] = _mm512_castsi512_ps(_mm512_slli_epi32(v, 16));
      wo[p] = _mm512_castsi512_ps(_mm512_and_si512(v, high));
    }
    for (int r = 0; r < R; ++r) {
      const __m512 xe = _mm512_set1_ps(x[r * k + 2 * j]);
      const __m512 xo = _mm512_set1_ps(x[r * k + 2 * j + 1]);
      for (int p = 0; p < P; ++p) {
        acc[r][p] = _mm512_fmadd_ps(we[p], xe, acc[r][p]);
        acc[r][p] = _mm512_fmadd_ps(wo[p], xo, acc[r][p]);
      }
    }
  }
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < P; ++p) {
      __m512 s = acc[r][p];
      float* out = y + r * n + p * PANEL;
      if (add) s = _mm512_add_ps(_mm512_loadu_ps(out), s);
      _mm512_storeu_ps(out, s);
    }
}

// The tiles the workgroup calls, each its own function with P and R fixed
// (so the accumulators stay in registers).
#define PANELS_TILE_FN(P, R)                                                                   \
  static __attribute__((noinline)) void panels_tile_##P##x##R(                                \
      const uint32_t* w, size_t pk, const float* x, size_t k, size_t j0, size_t j1, float* y, \
      size_t n, int add, int fetch) {                                                         \
    panels_tile(w, pk, P, x, k, R, j0, j1, y, n, add, fetch);                                  \
  }
#define PANELS_TILE_FNS(P)                                                                     \
  PANELS_TILE_FN(P, 1) PANELS_TILE_FN(P, 2) PANELS_TILE_FN(P, 3) PANELS_TILE_FN(P, 4)          \
      PANELS_TILE_FN(P, 5) PANELS_TILE_FN(P, 6) PANELS_TILE_FN(P, 7) PANELS_TILE_FN(P, 8)
PANELS_TILE_FNS(1) PANELS_TILE_FNS(2) PANELS_TILE_FNS(4)
#define PANELS_CASE(P, R)                                                                      \
  case P * 16 + R:                                                                             \
    panels_tile_##P##x##R(wp, pk, xr, k, j0, j1, yr, n, c > 0, fetch);                         \
    break;
#define PANELS_CASES(P)                                                                        \
  PANELS_CASE(P, 1) PANELS_CASE(P, 2) PANELS_CASE(P, 3) PANELS_CASE(P, 4) PANELS_CASE(P, 5)    \
      PANELS_CASE(P, 6) PANELS_CASE(P, 7) PANELS_CASE(P, 8)

// Panels a tile takes for R rows of x: 16 accumulators at most.
INLINE int panels_for_rows(int rows) { return rows <= 4 ? 4 : 2; }

// y = x . W^T for weight rows [first, first + count), first and n
// multiples of 16. x [rows, k] f32, w the panels, y [rows, n] f32. k is
// taken `span` values (even) at a time: within a span one tile of x rows
// at a time, every panel of the workgroup over it. A span's sums are added
// to the last span's, so a row's bits depend on the span, and every call
// that must give a row the same bits passes the same one.
static void panels_in_spans(const float* restrict x, const uint32_t* restrict w,
                            float* restrict y, size_t rows, size_t n, size_t k, size_t first,
                            size_t count, size_t span) {
  size_t last = first + count;
  if (last > n) last = n;
  const size_t pk = k / 2 * PANEL;
  for (size_t c = 0; c < k; c += span) {
    const size_t len = k - c < span ? k - c : span;
    const size_t j0 = c / 2, j1 = (c + len) / 2;
    for (size_t r = 0; r < rows; r += 8) {
      const int xn = rows - r < 8 ? (int)(rows - r) : 8;
      // The first tile of x rows reads the span's panels from memory.
      const int fetch = r == 0;
      const int most = panels_for_rows(xn);
      for (size_t i = first; i < last;) {
        const size_t left = (last - i) / PANEL;
        const int P = left >= (size_t)most ? most : left >= 2 ? 2 : 1;
        const uint32_t* wp = w + i / PANEL * pk;
        const float* xr = x + r * k;
        float* yr = y + r * n + i;
        switch (P * 16 + xn) { PANELS_CASES(1) PANELS_CASES(2) PANELS_CASES(4) }
        i += (size_t)P * PANEL;
      }
    }
  }
}

// One workgroup, in spans of ROWS_SPAN values as the row-major tile takes
// them: the span of x stays in L1 and, for a prompt's later tiles of x
// rows, the span's panels in L2.
void iree_llm_bf16_panels_workgroup(const float* restrict x, size_t x_offset,
                                    const uint32_t* restrict w, size_t w_offset,
                                    float* restrict y, size_t y_offset, size_t rows, size_t n,
                                    size_t k, size_t first, size_t count) {
  // The binding is bf16: its offset counts halves of a lane.
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  panels_in_spans(x + x_offset, w, y + y_offset, rows, n, k, first, count,
                  k < ROWS_SPAN ? k : ROWS_SPAN);
}

#include "x86_64_avx512_live_rows.h"

// The same product over the first `live` rows of x only (see live_rows).
void iree_llm_bf16_panels_live_workgroup(const float* restrict x, size_t x_offset,
                                         const uint32_t* restrict w, size_t w_offset,
                                         const int32_t* restrict live, size_t live_offset,
                                         float* restrict y, size_t y_offset, size_t rows,
                                         size_t n, size_t k, size_t first, size_t count) {
  const size_t used = live_rows(live + live_offset, rows);
  iree_llm_bf16_panels_workgroup(x, x_offset, w, w_offset, y, y_offset, used, n, k, first, count);
  zero_rows_f32(y + y_offset, used, rows, n, first, count);
}

// ---- The MLP's gate and up projections with SiLU, in one pass ---------------
//
// act = silu(x . Wg^T) * (x . Wu^T) in f32 for the stacked gate and up
// matrix in panels (gate rows 0..m, up rows m..2m): the two products (8 m
// bytes a row) are not written out and read back by a SiLU dispatch. Each
// tile takes gate panel p and up panel p together over all of k (x's rows
// then come from L2 past the first 1,536 values of k).

#include "x86_64_avx512_silu.h"

// R rows of x by one gate panel (at w) and its up panel (at w + up), over
// all pairs of k; act [R, m] f32 at the tile's first column.
INLINE void gated_tile(const uint32_t* w, size_t up, const float* x, size_t k, const int R,
                       float* act, size_t m) {
  // As the panel tile: one order of sums for a row whatever the tile.
  __m512 g[8], u[8];
  for (int r = 0; r < R; ++r) g[r] = u[r] = _mm512_setzero_ps();
  const __m512i high = _mm512_set1_epi32((int)0xFFFF0000u);
  for (size_t j = 0; j < k / 2; ++j) {
    const uint32_t* lanes = w + j * PANEL;
    _mm_prefetch((const char*)(lanes + PANELS_AHEAD * PANEL), _MM_HINT_T0);
    _mm_prefetch((const char*)(lanes + up + PANELS_AHEAD * PANEL), _MM_HINT_T0);
    const __m512i vg = _mm512_loadu_si512(lanes), vu = _mm512_loadu_si512(lanes + up);
    const __m512 ge = _mm512_castsi512_ps(_mm512_slli_epi32(vg, 16));
    const __m512 gd = _mm512_castsi512_ps(_mm512_and_si512(vg, high));
    const __m512 ue = _mm512_castsi512_ps(_mm512_slli_epi32(vu, 16));
    const __m512 ud = _mm512_castsi512_ps(_mm512_and_si512(vu, high));
    for (int r = 0; r < R; ++r) {
      const __m512 xe = _mm512_set1_ps(x[r * k + 2 * j]);
      const __m512 xo = _mm512_set1_ps(x[r * k + 2 * j + 1]);
      g[r] = _mm512_fmadd_ps(ge, xe, g[r]);
      g[r] = _mm512_fmadd_ps(gd, xo, g[r]);
      u[r] = _mm512_fmadd_ps(ue, xe, u[r]);
      u[r] = _mm512_fmadd_ps(ud, xo, u[r]);
    }
  }
  for (int r = 0; r < R; ++r) _mm512_storeu_ps(act + r * m, silu_times(g[r], u[r]));
}

#define GATED_TILE_FN(R)                                                                       \
  static __attribute__((noinline)) void gated_tile_##R(const uint32_t* w, size_t up,           \
                                                       const float* x, size_t k, float* act,   \
                                                       size_t m) {                             \
    gated_tile(w, up, x, k, R, act, m);                                                        \
  }
GATED_TILE_FN(1) GATED_TILE_FN(2) GATED_TILE_FN(3) GATED_TILE_FN(4) GATED_TILE_FN(5)
GATED_TILE_FN(6) GATED_TILE_FN(7) GATED_TILE_FN(8)
#define GATED_CASE(R)                                                                          \
  case R:                                                                                      \
    gated_tile_##R(wp, up, xr, k, ar, m);                                                      \
    break;

// One workgroup: act[:, i] = silu(x . Wg[i]) * (x . Wu[i]) for the columns
// [first, first + count) of m, first and m multiples of 16. x [rows, k] f32;
// w [2m/16][k/2][16] lanes, the gate's m rows then the up's; act [rows, m]
// f32. Tile of 8 rows of x by tile, the workgroup's panels over each.
void iree_llm_bf16_panels_silu_workgroup(const float* restrict x, size_t x_offset,
                                         const uint32_t* restrict w, size_t w_offset,
                                         float* restrict act, size_t act_offset, size_t rows,
                                         size_t m, size_t k, size_t first, size_t count) {
  x += x_offset;
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  act += act_offset;
  size_t last = first + count;
  if (last > m) last = m;
  const size_t pk = k / 2 * PANEL;
  const size_t up = m / PANEL * pk;
  for (size_t r = 0; r < rows; r += 8) {
    const int xn = rows - r < 8 ? (int)(rows - r) : 8;
    const float* xr = x + r * k;
    for (size_t i = first; i < last; i += PANEL) {
      const uint32_t* wp = w + i / PANEL * pk;
      float* ar = act + r * m + i;
      switch (xn) {
        GATED_CASE(1) GATED_CASE(2) GATED_CASE(3) GATED_CASE(4) GATED_CASE(5) GATED_CASE(6)
        GATED_CASE(7) GATED_CASE(8)
      }
    }
  }
}

// The activation of the first `live` rows of x only (see live_rows); the
// rest of act is zero.
void iree_llm_bf16_panels_silu_live_workgroup(const float* restrict x, size_t x_offset,
                                              const uint32_t* restrict w, size_t w_offset,
                                              const int32_t* restrict live, size_t live_offset,
                                              float* restrict act, size_t act_offset,
                                              size_t rows, size_t m, size_t k, size_t first,
                                              size_t count) {
  const size_t used = live_rows(live + live_offset, rows);
  iree_llm_bf16_panels_silu_workgroup(x, x_offset, w, w_offset, act, act_offset, used, m, k,
                                      first, count);
  zero_rows_f32(act + act_offset, used, rows, m, first, count);
}

// ---- A decode step's rows with the norm before and the residual after -----
//
// The exact panel products of a step's rows (q/k/v and gate/up after an
// RMSNorm, o and down before a residual add) otherwise wait on the norm's
// dispatches and are followed by the add's, as the row-major fused product
// (iree_llm_bf16_rows_fused_workgroup, x86_64_bf16_rows.h) found. Each
// workgroup here normalizes all rows onto its worker's stack
// (normalize_rows, as iree_llm_blocks_matmul_fused_workgroup does),
// multiplies them with the panel tiles, and adds the residual to its share
// of y. With a norm the emitter runs one workgroup a thread: an earlier
// version that normalized in each of the plain product's balanced
// workgroups ran the 1B preset's B=8 step slower, with 2-16 ms more CPU
// (docs/performance.md).

// The most values of x (rows times k) a workgroup normalizes: 48 KB of a
// worker's 128 KB stack (src/emit/kernels/bf16.rs, FUSED_PANELS_VALUES).
#define FUSED_PANELS_VALUES 12288

// x [rows, k] f32; norm [k] f32 (read if has_norm, epsilon eps_bits as f32
// bits); w the panels; res [rows, n] f32 (read if has_res); y [rows, n].
// With a norm, rows * k <= FUSED_PANELS_VALUES.
void iree_llm_bf16_panels_fused_workgroup(const float* restrict x, size_t x_offset,
                                          const float* restrict norm, size_t norm_offset,
                                          const uint32_t* restrict w, size_t w_offset,
                                          const float* restrict res, size_t res_offset,
                                          float* restrict y, size_t y_offset, size_t rows,
                                          size_t n, size_t k, size_t eps_bits, size_t has_norm,
                                          size_t has_res, size_t first, size_t count) {
  w = (const uint32_t*)((const uint16_t*)w + w_offset);
  if (has_norm) {
    if (rows * k > FUSED_PANELS_VALUES || k % 32 != 0) __builtin_trap();
    float xs[FUSED_PANELS_VALUES] __attribute__((aligned(64)));
    normalize_rows(x + x_offset, norm + norm_offset, rows, k, float_from_bits(eps_bits), xs);
    // All of k in one span: the normalized rows are few enough for L1 or
    // L2, and one workgroup a thread then reads each of its panels once,
    // start to end (in spans of ROWS_SPAN it read every panel's first span,
    // then every panel's second).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
    panels_in_spans(xs, w, y + y_offset, rows, n, k, first, count, k);
#pragma GCC diagnostic pop
  } else {
    iree_llm_bf16_panels_workgroup(x, x_offset, w, 0, y, y_offset, rows, n, k, first, count);
  }
  if (has_res) add_residual(y + y_offset, res + res_offset, rows, n, first, count);
}

// act = silu(h . Wg^T) * (h . Wu^T) for h = rms_norm(x), as
// iree_llm_bf16_panels_silu_workgroup over rows normalized as above; rows
// * k <= FUSED_PANELS_VALUES.
void iree_llm_bf16_panels_silu_fused_workgroup(const float* restrict x, size_t x_offset,
                                               const float* restrict norm, size_t norm_offset,
                                               const uint32_t* restrict w, size_t w_offset,
                                               float* restrict act, size_t act_offset,
                                               size_t rows, size_t m, size_t k, size_t eps_bits,
                                               size_t first, size_t count) {
  if (rows * k > FUSED_PANELS_VALUES || k % 32 != 0) __builtin_trap();
  float xs[FUSED_PANELS_VALUES] __attribute__((aligned(64)));
  normalize_rows(x + x_offset, norm + norm_offset, rows, k, float_from_bits(eps_bits), xs);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  iree_llm_bf16_panels_silu_workgroup(xs, 0, w, w_offset, act, act_offset, rows, m, k, first,
                                      count);
#pragma GCC diagnostic pop
}
