// AMX tiles for the bf16 panel products (Intel Sapphire Rapids and later):
// the same products as x86_64_avx512_bf16_panels.h, rows of x rounded to
// bf16 against weights in panels, summed in f32. Included by
// x86_64_avx512_bf16.c when built as x86_64_amx_bf16.c (IREE_LLM_AMX).
//
// Why: `tdpbf16ps` multiplies a tile of up to 16 rows of x by 32 values of
// k against 16 weight rows (8,192 multiply-adds) in one instruction, 16
// times the work of a `vdpbf16ps`, so a prompt's products, bound by the
// vector pipes, run several times faster, and a batched decode step's
// products fall far below the time its weights take to arrive.
//
// The panel layout ([n/16][k/2][16] 32-bit lanes, a pair of one row's
// values in each) is already the layout of a tile's second operand: 16 pairs
// of k by 16 weight rows, 64 bytes a pair, so 32 values of k of one panel
// are 1 KB in a row, loaded as they are. Rows of x, [rows, k] bf16, load as
// the first operand at a stride of one row.
//
// The process must have asked Linux for the tile state
// (arch_prctl(ARCH_REQ_XCOMP_PERM)); the runtime does before any module
// runs, and graphs take this object only where that succeeded.

// Values of k one tile product takes (16 pairs).
#define AMX_CHUNK 32
// Values of k a prompt's products take at a time, meant to keep a block of
// 32 rows of x (32 KB of a span) in L1 while the workgroup's panels pass.
// With rows of x 4 KB apart (k = 2048) they share L1 sets; a profile shows
// the loads of x as the hot spot, but a copy of the block's span packed
// tile by tile measured no faster (docs/performance.md, thirty-fourth
// session).
#define AMX_SPAN 512
// Chunks ahead of the one being multiplied that each panel stream fetches.
#define AMX_AHEAD 4

// Tile registers: sums 0 (rows 0-15, panel 0), 1 (rows 0-15, panel 1),
// 2 and 3 (rows 16-31), x 4 (rows 0-15) and 5 (rows 16-31), panels 6, 7.
// `m0` and `m1` rows in the two halves (m1 may be 0: tiles 2, 3, 5 unused).
INLINE void amx_configure(int m0, int m1) {
  uint8_t cfg[64] __attribute__((aligned(64)));
  _mm512_store_si512((void*)cfg, _mm512_setzero_si512());
  cfg[0] = 1;  // palette 1
  const int rows[8] = {m0, m0, m1, m1, m0, m1, 16, 16};
  for (int t = 0; t < 8; ++t) {
    cfg[16 + 2 * t] = rows[t] ? 64 : 0;  // bytes a row (colsb, little-endian u16)
    cfg[48 + t] = (uint8_t)rows[t];
  }
  _tile_loadconfig(cfg);
}

// The rows of x in the two halves of the block of 32 from row r (of
// `rows`), the tiles configured for them unless `set` holds that pair
// already (it starts at -1, -1). Returns the second half's rows.
INLINE int amx_block_rows(size_t rows, size_t r, int set[2]) {
  const int m0 = rows - r < 16 ? (int)(rows - r) : 16;
  const int m1 = rows - r <= 16 ? 0 : rows - r < 32 ? (int)(rows - r - 16) : 16;
  if (m0 != set[0] || m1 != set[1]) {
    amx_configure(m0, m1);
    set[0] = m0;
    set[1] = m1;
  }
  return m1;
}

// Fetches the 1 KB of a chunk (16 lines) into L1.
INLINE void amx_fetch_chunk(const uint32_t* p) {
  for (int line = 0; line < 16; ++line) _mm_prefetch((const char*)(p + 16 * line), _MM_HINT_T0);
}

// Sums over pairs [j0, j1) of k (multiples of 16) of rows of x (from `x`,
// row stride k values; 16 rows, and 16 more when R2) against one or two
// (P2) panels whose lanes start at b0 and b1 (pair j at + 16 j); the sums of
// panel 0 at y0 and of panel 1 at y1, row stride ys floats, rows 16.. 16 ys
// on. `load` adds to the sums there; `fetch` prefetches each panel's stream
// AMX_AHEAD chunks on, past j1 into the same stream `step` lanes on (the
// next call's panels).
INLINE void amx_block(const int R2, const int P2, const uint16_t* x, size_t k, const uint32_t* b0,
                      const uint32_t* b1, size_t j0, size_t j1, float* y0, float* y1, size_t ys,
                      int load, int fetch, size_t step) {
  const size_t xb = 2 * k, yb = 4 * ys;
  if (load) {
    _tile_loadd(0, y0, yb);
    if (P2) _tile_loadd(1, y1, yb);
    if (R2) _tile_loadd(2, y0 + 16 * ys, yb);
    if (R2 && P2) _tile_loadd(3, y1 + 16 * ys, yb);
  } else {
    _tile_zero(0);
    if (P2) _tile_zero(1);
    if (R2) _tile_zero(2);
    if (R2 && P2) _tile_zero(3);
  }
  for (size_t j = j0; j < j1; j += 16) {
    if (fetch) {
      const size_t ahead = j + 16 * AMX_AHEAD;
      const size_t at = ahead < j1 ? 16 * ahead : step + 16 * (ahead - j1 + j0);
      amx_fetch_chunk(b0 + at);
      if (P2) amx_fetch_chunk(b1 + at);
    }
    _tile_loadd(6, b0 + 16 * j, 64);
    _tile_loadd(4, x + 2 * j, xb);
    if (P2) _tile_loadd(7, b1 + 16 * j, 64);
    _tile_dpbf16ps(0, 4, 6);
    if (R2) _tile_loadd(5, x + 16 * k + 2 * j, xb);
    if (P2) _tile_dpbf16ps(1, 4, 7);
    if (R2) _tile_dpbf16ps(2, 5, 6);
    if (R2 && P2) _tile_dpbf16ps(3, 5, 7);
  }
  _tile_stored(0, y0, yb);
  if (P2) _tile_stored(1, y1, yb);
  if (R2) _tile_stored(2, y0 + 16 * ys, yb);
  if (R2 && P2) _tile_stored(3, y1 + 16 * ys, yb);
}

#define AMX_BLOCK_FN(R2, P2)                                                                  \
  static __attribute__((noinline)) void amx_block_##R2##P2(                                   \
      const uint16_t* x, size_t k, const uint32_t* b0, const uint32_t* b1, size_t j0,         \
      size_t j1, float* y0, float* y1, size_t ys, int load, int fetch, size_t step) {         \
    amx_block(R2, P2, x, k, b0, b1, j0, j1, y0, y1, ys, load, fetch, step);                   \
  }
AMX_BLOCK_FN(0, 0) AMX_BLOCK_FN(0, 1) AMX_BLOCK_FN(1, 0) AMX_BLOCK_FN(1, 1)
#define AMX_BLOCK_CALL(R2, P2, ...)     \
  do {                                  \
    if (R2 && P2)                       \
      amx_block_11(__VA_ARGS__);        \
    else if (R2)                        \
      amx_block_10(__VA_ARGS__);        \
    else if (P2)                        \
      amx_block_01(__VA_ARGS__);        \
    else                                \
      amx_block_00(__VA_ARGS__);        \
  } while (0)

// Whether a panel product over k takes the tiles: whenever k is whole
// chunks, however many rows, so that a row's sums never depend on how many
// rows share the call (a decode step carrying a prompt's chunk gives its
// decode rows bit for bit a plain step's); one row through the tiles still
// outruns its weights' arrival from memory.
INLINE int amx_takes(size_t k) { return k % AMX_CHUNK == 0; }

// y = x . W^T for weight rows [first, last) (multiples of 16), as
// iree_llm_bf16_panels_bf16_workgroup. Blocks of 32 rows of x by pairs of
// panels; a prompt's rows span by span of k (sums added to y after the
// first), and only the first block of rows fetches the panels, which the
// later ones find in L2.
static void amx_panels(const uint16_t* x, const uint32_t* w, float* y, size_t rows, size_t n,
                       size_t k, size_t first, size_t last) {
  const size_t pk = k / 2 * BF16_PANEL;
  const size_t span = rows > 16 && k > AMX_SPAN ? AMX_SPAN : k;
  int set[2] = {-1, -1};
  for (size_t c = 0; c < k; c += span) {
    const size_t len = k - c < span ? k - c : span;
    const size_t j0 = c / 2, j1 = (c + len) / 2;
    for (size_t r = 0; r < rows; r += 32) {
      const int m1 = amx_block_rows(rows, r, set);
      for (size_t i = first; i < last; i += 32) {
        const int two = last - i >= 32;
        const uint32_t* b0 = w + i / BF16_PANEL * pk;
        float* y0 = y + r * n + i;
        AMX_BLOCK_CALL(m1 > 0, two, x + r * k, k, b0, b0 + pk, j0, j1, y0, y0 + BF16_PANEL, n,
                       c > 0, r == 0, 2 * pk);
      }
    }
  }
  _tile_release();
}

// act = silu(x . Wg^T) * (x . Wu^T) in bf16 for columns [first, last) of m
// (multiples of 16), as iree_llm_bf16_panels_silu_bf16_workgroup: each
// block of rows by a gate panel and its up panel over all of k, the sums in
// a small buffer, then SiLU in vectors.
static void amx_silu(const uint16_t* x, const uint32_t* w, uint16_t* act, size_t rows, size_t m,
                     size_t k, size_t first, size_t last) {
  const size_t pk = k / 2 * BF16_PANEL;
  const size_t up = m / BF16_PANEL * pk;
  float g[32 * BF16_PANEL] __attribute__((aligned(64)));
  float u[32 * BF16_PANEL] __attribute__((aligned(64)));
  for (size_t r = 0; r < rows; r += 32) {
    const int m0 = rows - r < 16 ? (int)(rows - r) : 16;
    const int m1 = rows - r <= 16 ? 0 : rows - r < 32 ? (int)(rows - r - 16) : 16;
    amx_configure(m0, m1);
    for (size_t i = first; i < last; i += BF16_PANEL) {
      const uint32_t* b0 = w + i / BF16_PANEL * pk;
      AMX_BLOCK_CALL(m1 > 0, 1, x + r * k, k, b0, b0 + up, 0, k / 2, g, u, BF16_PANEL, 0, r == 0,
                     pk);
      for (int q = 0; q < m0 + m1; ++q) {
        const __m512 a = silu_times(_mm512_load_ps(g + q * BF16_PANEL),
                                    _mm512_load_ps(u + q * BF16_PANEL));
        _mm256_storeu_si256((__m256i*)(act + (r + q) * m + i), (__m256i)_mm512_cvtneps_pbh(a));
      }
    }
  }
  _tile_release();
}
