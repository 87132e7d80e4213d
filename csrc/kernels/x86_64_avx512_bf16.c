// Hand-written x86-64 kernels for CPUs with AVX512-BF16 (AMD Zen 4 and
// later, Intel Cooper Lake and later), linked into compiled modules like
// x86_64_matmul.c: `y = x . W^T` for any number of rows of x already
// rounded to bf16 (the graph converts them) and a weight W that is either
// dense bf16 or in 32-value blocks (Q8_0, Q4_0, Q4_1, the layout
// x86_64_matmul.c reads), whose values are rounded to bf16 once per panel.
//
// Why it exists: for several rows (a batched decode step, a prompt's chunk)
// a step is bound by its multiplies, not by reading weights. Widening bf16
// to f32 and using FMAs does 16 multiply-adds per 512-bit instruction;
// `vdpbf16ps` does 32 on bf16 operands, summing each pair in f32. That is
// only possible with x rounded to bf16 too, which changes the results, so
// graphs call this kernel only when asked (`IREE_LLM_KERNELS=x86-64-bf16`;
// docs/performance.md gives the measured error and speed).
//
// Built freestanding like the other kernel: no libc, registers and buffers.

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "x86_64_avx512_sums.h"

#define INLINE static inline __attribute__((always_inline))

// Weight rows and x rows of one register tile: 3 x 8 accumulators, 3 weight
// vectors and one x vector fill 28 of the 32 registers; each x vector
// loaded feeds 3 products and each weight vector 8.
#define TILE_W 3
#define TILE_X 8

// 32 bf16 values from p, zeros past `left` values (the tail of a row).
INLINE __m512bh load32(const uint16_t* p, size_t left) {
  if (left >= 32) return (__m512bh)_mm512_loadu_si512((const void*)p);
  return (__m512bh)_mm512_maskz_loadu_epi16((__mmask32)((1ull << left) - 1), p);
}

// y[r * n + a] = sum(acc[a][r]) (added to y when `accumulate`); full tiles
// of TILE_X rows of x reduce eight vectors at a time.
INLINE void store_sums(const int WR, const int XR, const __m512 acc[TILE_W][TILE_X], float* y,
                       size_t n, int accumulate) {
  for (int a = 0; a < WR; ++a) {
    if (XR == TILE_X) {
      store_sums8(acc[a], y + a, n, accumulate);
      continue;
    }
    for (int r = 0; r < XR; ++r) {
      const float v = _mm512_reduce_add_ps(acc[a][r]);
      y[r * n + a] = accumulate ? y[r * n + a] + v : v;
    }
  }
}

// WR weight rows (at w, row stride ws) times XR rows of x (at x, stride xs)
// over `len` values: y[r * n + a] = sum_e w[a, e] * x[r, e], or added to y
// when `accumulate`. With `prefetch` each row's values PREFETCH_AHEAD on
// are fetched into L1 on the way, and past the end of `len` the next
// tile's rows (rows WR.. at the same stride): each row is a short stream
// (4 KB at k = 2048) that the hardware prefetcher picks up only after its
// first misses. Measured on Zen 4, one thread, weights streamed from
// memory: fetching two tiles on into L2 ran 1.3x (k = 2048) and 1.7x (k =
// 8192) the speed of no prefetch. On Zen 5, 2 threads, a C harness of a
// 1B B=8 step's products: 47-48 ms with 1,024 values ahead into L1, 50-51
// into L2, 55-66 with 512 or 2,048 ahead, 53-63 one tile on into L2 (in
// earlier rounds one and two tiles on, as it was, both took 70-88).
#define PREFETCH_AHEAD 1024
INLINE void tile(const int WR, const int XR, const int prefetch, const uint16_t* w, size_t ws,
                 const uint16_t* x, size_t xs, size_t len, float* y, size_t n,
                 int accumulate) {
  __m512 acc[TILE_W][TILE_X];
  for (int a = 0; a < WR; ++a)
    for (int r = 0; r < XR; ++r) acc[a][r] = _mm512_setzero_ps();
  size_t e = 0;
  for (; e + 32 <= len; e += 32) {
    __m512bh wv[TILE_W];
    for (int a = 0; a < WR; ++a) wv[a] = load32(w + a * ws + e, 32);
    if (prefetch)
      for (int a = 0; a < WR; ++a) {
        const size_t ahead = e + PREFETCH_AHEAD;
        const uint16_t* p = ahead < len ? w + a * ws + ahead : w + (WR + a) * ws + (ahead - len);
        _mm_prefetch((const char*)p, _MM_HINT_T0);
      }
    for (int r = 0; r < XR; ++r) {
      const __m512bh xv = load32(x + r * xs + e, 32);
      for (int a = 0; a < WR; ++a) acc[a][r] = _mm512_dpbf16_ps(acc[a][r], wv[a], xv);
    }
  }
  if (e < len) {
    // The last, partial vector of a row: zeros past its end add nothing.
    __m512bh wv[TILE_W];
    for (int a = 0; a < WR; ++a) wv[a] = load32(w + a * ws + e, len - e);
    for (int r = 0; r < XR; ++r) {
      const __m512bh xv = load32(x + r * xs + e, len - e);
      for (int a = 0; a < WR; ++a) acc[a][r] = _mm512_dpbf16_ps(acc[a][r], wv[a], xv);
    }
  }
  store_sums(WR, XR, acc, y, n, accumulate);
}

// Each shape a function of its own, so that the register allocator sees one
// tile at a time (the other kernel's tiles spilled when inlined together);
// `dense_` tiles stream a weight from memory, `panel_` tiles read weights
// already in cache (a panel in L1, a prompt's rows after its first group).
#define TILE_FN(WR, XR)                                                                       \
  static __attribute__((noinline)) void dense_##WR##x##XR(const uint16_t* w, size_t ws,       \
                                                          const uint16_t* x, size_t xs,       \
                                                          size_t len, float* y, size_t n,     \
                                                          int acc) {                          \
    tile(WR, XR, 1, w, ws, x, xs, len, y, n, acc);                                            \
  }                                                                                           \
  static __attribute__((noinline)) void panel_##WR##x##XR(const uint16_t* w, size_t ws,       \
                                                          const uint16_t* x, size_t xs,       \
                                                          size_t len, float* y, size_t n,     \
                                                          int acc) {                          \
    tile(WR, XR, 0, w, ws, x, xs, len, y, n, acc);                                            \
  }
#define TILE_FNS(WR)                                                                       \
  TILE_FN(WR, 1) TILE_FN(WR, 2) TILE_FN(WR, 3) TILE_FN(WR, 4) TILE_FN(WR, 5) TILE_FN(WR, 6) \
  TILE_FN(WR, 7) TILE_FN(WR, 8)
TILE_FNS(1) TILE_FNS(2) TILE_FNS(3)

// Calls the KIND tile of wn weight rows by xn rows of x (a switch, not a
// table of pointers: the object stays free of relocations to patch).
#define CASE(KIND, WR, XR) \
  case WR * 16 + XR: KIND##_##WR##x##XR(TILE_ARGS); break;
#define CASES(KIND, WR)                                                                  \
  CASE(KIND, WR, 1) CASE(KIND, WR, 2) CASE(KIND, WR, 3) CASE(KIND, WR, 4) CASE(KIND, WR, 5) \
  CASE(KIND, WR, 6) CASE(KIND, WR, 7) CASE(KIND, WR, 8)
#define CALL_TILE(KIND, wn, xn)                                  \
  switch ((wn) * 16 + (xn)) {                                    \
    CASES(KIND, 1) CASES(KIND, 2) CASES(KIND, 3) default: break; \
  }

// Values of k a prompt's tiles take at a time (see below).
#define DENSE_SPAN 2048

// One workgroup: weight rows [first, first + count) for all rows of x.
// x [rows, k] bf16, w [n, k] bf16, y [rows, n] f32. Rows of x go in groups
// of TILE_X (a group's rows stay in L1/L2 while every weight tile of the
// workgroup passes over them); the workgroup's weight rows stay in L2
// between groups.
//
// For more than one group (a prompt) k is taken DENSE_SPAN values at a
// time, sums added to y after the first span, so that a group's rows (32 KB
// of a span) stay in L1 as the tiles pass; and only the first group's
// tiles prefetch, since the later ones find the weights in L2 already. C
// harness of the 1B preset's products, 128 rows, 2 threads: 333-336 ms
// against 401-405 (55% -> 66% of the measured vdpbf16ps peak); the span
// alone bought 8%, the prefetches 10%, and spans of 1024 or 4096 less.
void iree_llm_bf16_matmul_workgroup(const uint16_t* restrict x, size_t x_offset,
                                    const uint16_t* restrict w, size_t w_offset,
                                    float* restrict y, size_t y_offset, size_t rows, size_t n,
                                    size_t k, size_t first, size_t count) {
  x += x_offset;
  w += w_offset;
  y += y_offset;
  size_t last = first + count;
  if (last > n) last = n;
  const size_t span = rows > TILE_X ? DENSE_SPAN : k;
  for (size_t c = 0; c < k; c += span) {
    const size_t len = k - c < span ? k - c : span;
    for (size_t r = 0; r < rows; r += TILE_X) {
      const size_t xn = rows - r < TILE_X ? rows - r : TILE_X;
      for (size_t i = first; i < last; i += TILE_W) {
        const size_t wn = last - i < TILE_W ? last - i : TILE_W;
#define TILE_ARGS w + i * k + c, k, x + r * k + c, k, len, y + r * n + i, n, c > 0
        if (r == 0) {
          CALL_TILE(dense, wn, xn)
        } else {
          CALL_TILE(panel, wn, xn)
        }
#undef TILE_ARGS
      }
    }
  }
}

// ---- Block weights ---------------------------------------------------------
//
// A panel of TILE_W weight rows over up to PANEL_BLOCKS blocks of k is
// dequantized once into bf16 (12 KB, in L1: w = q * d (+ m) in f32, Q4_0's
// nibbles less 8 first, then rounded to the nearest bf16) and every row of
// x is multiplied by it with the tiles above. Rounding the weights too is
// part of this form's error (docs/performance.md).

// Block formats, as src/types.rs's BlockFormat::kernel_code numbers them.
enum { Q8_0 = 0, Q4_0 = 1, Q4_1 = 2 };

// `fn(FORMAT, ...)` with `format` (a size_t) as a constant, one branch per
// format, so that each inlined copy knows its format.
#define BY_FORMAT(fn, ...)      \
  do {                          \
    if (format == Q8_0)         \
      fn(Q8_0, __VA_ARGS__);    \
    else if (format == Q4_0)    \
      fn(Q4_0, __VA_ARGS__);    \
    else                        \
      fn(Q4_1, __VA_ARGS__);    \
  } while (0)

#define PANEL_BLOCKS 64

// Bytes of x (bf16) one pass over a workgroup's panels reads: rows of x are
// taken in groups that fit in L2 with room to spare.
#define X_GROUP_BYTES (256 * 1024)

// Block j of a weight row as 32 bf16 values in order.
INLINE __m512bh block_bf16(const int format, const uint8_t* q, size_t j, const uint16_t* d,
                           const uint16_t* m) {
  const __m512 dj = _mm512_set1_ps(_cvtsh_ss(d[j]));
  __m512 lo, hi;  // values 0..16 and 16..32
  if (format == Q8_0) {
    const __m256i b = _mm256_loadu_si256((const __m256i*)(q + 32 * j));
    lo = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm256_castsi256_si128(b)));
    hi = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm256_extracti128_si256(b, 1)));
    lo = _mm512_mul_ps(lo, dj);
    hi = _mm512_mul_ps(hi, dj);
  } else {
    // Low nibbles of the 16 bytes are values 0..16, high nibbles 16..32.
    const __m128i b = _mm_loadu_si128((const __m128i*)(q + 16 * j));
    const __m128i low = _mm_set1_epi8(0x0F);
    __m512i l = _mm512_cvtepu8_epi32(_mm_and_si128(b, low));
    __m512i h = _mm512_cvtepu8_epi32(_mm_and_si128(_mm_srli_epi16(b, 4), low));
    if (format == Q4_0) {
      l = _mm512_sub_epi32(l, _mm512_set1_epi32(8));
      h = _mm512_sub_epi32(h, _mm512_set1_epi32(8));
      lo = _mm512_mul_ps(_mm512_cvtepi32_ps(l), dj);
      hi = _mm512_mul_ps(_mm512_cvtepi32_ps(h), dj);
    } else {
      const __m512 mj = _mm512_set1_ps(_cvtsh_ss(m[j]));
      lo = _mm512_fmadd_ps(_mm512_cvtepi32_ps(l), dj, mj);
      hi = _mm512_fmadd_ps(_mm512_cvtepi32_ps(h), dj, mj);
    }
  }
  // The second operand fills the lower 16 elements.
  return _mm512_cvtne2ps_pbh(hi, lo);
}

// Weight rows [i0, i0 + wr) over blocks [c0, c0 + nb) as bf16, row a at
// panel + a * PANEL_BLOCKS * 32.
INLINE void dequantize_panel(const int format, const uint8_t* q, size_t row_bytes,
                             const uint16_t* d, const uint16_t* m, size_t blocks, size_t i0,
                             size_t wr, size_t c0, size_t nb, uint16_t* panel) {
  for (size_t a = 0; a < wr; ++a) {
    const uint8_t* qa = q + (i0 + a) * row_bytes;
    const uint16_t* da = d + (i0 + a) * blocks;
    const uint16_t* ma = m ? m + (i0 + a) * blocks : 0;
    uint16_t* p = panel + a * PANEL_BLOCKS * 32;
    for (size_t j = 0; j < nb; ++j)
      _mm512_store_si512((void*)(p + 32 * j), (__m512i)block_bf16(format, qa, c0 + j, da, ma));
  }
}

INLINE void blocks_rows(const int format, const uint16_t* x, size_t rows, size_t k,
                        const uint8_t* q, const uint16_t* d, const uint16_t* m, float* y, size_t n,
                        size_t first, size_t last) {
  const size_t blocks = k / 32, row_bytes = blocks * (format == Q8_0 ? 32 : 16);
  const size_t chunk = (blocks < PANEL_BLOCKS ? blocks : PANEL_BLOCKS) * 32 * sizeof(uint16_t);
  size_t group = X_GROUP_BYTES / chunk / TILE_X * TILE_X;
  if (group < TILE_X) group = TILE_X;
  uint16_t panel[TILE_W * PANEL_BLOCKS * 32] __attribute__((aligned(64)));
  for (size_t g = 0; g < rows; g += group) {
    const size_t g_end = rows - g < group ? rows : g + group;
    for (size_t i = first; i < last; i += TILE_W) {
      const size_t wn = last - i < TILE_W ? last - i : TILE_W;
      for (size_t c = 0; c < blocks; c += PANEL_BLOCKS) {
        const size_t nb = blocks - c < PANEL_BLOCKS ? blocks - c : PANEL_BLOCKS;
        dequantize_panel(format, q, row_bytes, d, m, blocks, i, wn, c, nb, panel);
        for (size_t r = g; r < g_end; r += TILE_X) {
          const size_t xn = g_end - r < TILE_X ? g_end - r : TILE_X;
#define TILE_ARGS panel, PANEL_BLOCKS * 32, x + r * k + 32 * c, k, nb * 32, y + r * n + i, n, c > 0
          CALL_TILE(panel, wn, xn)
#undef TILE_ARGS
        }
      }
    }
  }
}

// Eight rows of x (a B=8 decode step): a panel would be read by one tile
// only, so each step of a tile rounds one block of each of its weight rows
// to bf16 in registers and feeds it straight to the products (as
// x86_64_matmul.c's eight_rows does for the exact form). The values, the
// products and their order are the panel path's: the same results.
// C harness of a SmolLM2 B=8 step's products (Q4_1, 8 rows, 2 threads,
// five alternating rounds, medians): panels 6.88 ms, tiles of 2 weight rows
// 5.82, of 3 5.58.
#define FUSED_ROWS 3
// Weight rows a tile prefetches ahead of its own (two tiles).
#define FUSED_AHEAD 6

// WR weight rows (q, d, m: the first row's block c0; row strides row_bytes
// and `blocks`) times eight rows of x (from block c0) over nb blocks;
// y[r * n + a] set, or added to when `accumulate`.
INLINE void fused_tile(const int format, const int WR, const uint8_t* q, size_t row_bytes,
                       const uint16_t* d, const uint16_t* m, size_t blocks, size_t nb,
                       const uint16_t* x, size_t k, float* y, size_t n, int accumulate) {
  __m512 acc[FUSED_ROWS][TILE_X];
  for (int a = 0; a < WR; ++a)
    for (int r = 0; r < TILE_X; ++r) acc[a][r] = _mm512_setzero_ps();
  for (size_t j = 0; j < nb; ++j) {
    __m512bh wv[FUSED_ROWS];
    for (int a = 0; a < WR; ++a)
      wv[a] = block_bf16(format, q + a * row_bytes, j, d + a * blocks, m ? m + a * blocks : 0);
    for (int r = 0; r < TILE_X; ++r) {
      __m512bh xv = load32(x + r * k + 32 * j, 32);
      __asm__("" : "+v"(xv));  // one load for WR products
      for (int a = 0; a < WR; ++a) acc[a][r] = _mm512_dpbf16_ps(acc[a][r], wv[a], xv);
    }
    // The next block's weights after this one's products (for the
    // compiler's schedule only: hoisted, they spilled accumulators).
    __asm__("" : "+r"(q) : "v"(acc[WR - 1][TILE_X - 1]));
  }
  for (int a = 0; a < WR; ++a) store_sums8(acc[a], y + a, n, accumulate);
}

#define FUSED_TILE_FN(FORMAT, WR)                                                              \
  static __attribute__((noinline)) void fused_##FORMAT##_##WR(                                 \
      const uint8_t* q, size_t row_bytes, const uint16_t* d, const uint16_t* m, size_t blocks, \
      size_t nb, const uint16_t* x, size_t k, float* y, size_t n, int acc) {                   \
    fused_tile(FORMAT, WR, q, row_bytes, d, m, blocks, nb, x, k, y, n, acc);                   \
  }
#define FUSED_TILE_FNS(FORMAT) \
  FUSED_TILE_FN(FORMAT, 1) FUSED_TILE_FN(FORMAT, 2) FUSED_TILE_FN(FORMAT, 3)
FUSED_TILE_FNS(Q8_0) FUSED_TILE_FNS(Q4_0) FUSED_TILE_FNS(Q4_1)

// Weight rows [first, last) against eight rows of x, panel by panel of k
// as blocks_rows goes (so sums are grouped the same way).
INLINE void eight_rows(const int format, const uint16_t* x, size_t k, const uint8_t* q,
                       const uint16_t* d, const uint16_t* m, float* y, size_t n, size_t first,
                       size_t last) {
  const size_t blocks = k / 32, per_block = format == Q8_0 ? 32 : 16;
  const size_t row_bytes = blocks * per_block;
  for (size_t i = first; i < last; i += FUSED_ROWS) {
    const int wr = last - i < FUSED_ROWS ? (int)(last - i) : FUSED_ROWS;
    for (size_t c = 0; c < blocks; c += PANEL_BLOCKS) {
      const size_t nb = blocks - c < PANEL_BLOCKS ? blocks - c : PANEL_BLOCKS;
      for (int a = 0; a < wr; ++a) {
        const size_t ahead = i + a + FUSED_AHEAD;
        const char* row = (const char*)(q + ahead * row_bytes + c * per_block);
        for (size_t b = 0; b < nb * per_block; b += 64) _mm_prefetch(row + b, _MM_HINT_T0);
        _mm_prefetch((const char*)(d + ahead * blocks + c), _MM_HINT_T0);
        if (m) _mm_prefetch((const char*)(m + ahead * blocks + c), _MM_HINT_T0);
      }
      const uint8_t* qi = q + i * row_bytes + c * per_block;
      const uint16_t* di = d + i * blocks + c;
      const uint16_t* mi = m ? m + i * blocks + c : 0;
#define FUSED_ARGS qi, row_bytes, di, mi, blocks, nb, x + 32 * c, k, y + i, n, c > 0
#define FUSED_CALL(FORMAT)                                             \
  switch (wr) {                                                        \
    case 1: fused_##FORMAT##_1(FUSED_ARGS); break;                     \
    case 2: fused_##FORMAT##_2(FUSED_ARGS); break;                     \
    default: fused_##FORMAT##_3(FUSED_ARGS); break;                    \
  }
      if (format == Q8_0) {
        FUSED_CALL(Q8_0)
      } else if (format == Q4_0) {
        FUSED_CALL(Q4_0)
      } else {
        FUSED_CALL(Q4_1)
      }
#undef FUSED_CALL
#undef FUSED_ARGS
    }
  }
}

#ifdef IREE_LLM_AMX
// x86_64_amx_blocks.h (included with the AMX panel kernels below).
static void amx_blocks(const int format, const uint16_t* x, size_t rows, size_t k,
                       const uint8_t* q, const uint16_t* d, const uint16_t* m, float* y,
                       size_t n, size_t first, size_t last);
#endif

// One workgroup: weight rows [first, first + count) for all rows of x.
// x [rows, k] bf16; q is [n, k/32, 32] int8 for Q8_0 and [n, k/32, 16]
// nibble bytes for Q4_0 and Q4_1; d [n, k/32] f16 scales; m (Q4_1's
// offsets, read for Q4_1 only; the caller passes d again otherwise); y
// [rows, n] f32.
void iree_llm_blocks_bf16_workgroup(const uint16_t* restrict x, size_t x_offset,
                                    const int8_t* restrict q, size_t q_offset,
                                    const uint16_t* restrict d, size_t d_offset,
                                    const uint16_t* restrict m, size_t m_offset,
                                    float* restrict y, size_t y_offset, size_t rows, size_t n,
                                    size_t k, size_t format, size_t first, size_t count) {
  x += x_offset;
  const uint8_t* qb = (const uint8_t*)(q + q_offset);
  d += d_offset;
  y += y_offset;
  m = format == Q4_1 ? m + m_offset : 0;
  size_t last = first + count;
  if (last > n) last = n;
#ifdef IREE_LLM_AMX
  // Whole groups of 16 weight rows through the tiles, however many rows of
  // x; a last group of fewer rows (never met in Llama shapes) through the
  // vectors, the same way for every row count.
  const size_t whole = first + (last - first) / 16 * 16;
  if (whole > first) BY_FORMAT(amx_blocks, x, rows, k, qb, d, m, y, n, first, whole);
  if (whole == last) return;
  first = whole;
#else
  if (rows == TILE_X) {
    eight_rows(format == Q8_0 ? Q8_0 : format == Q4_0 ? Q4_0 : Q4_1, x, k, qb, d, m, y, n, first,
               last);
    return;
  }
#endif
  BY_FORMAT(blocks_rows, x, rows, k, qb, d, m, y, n, first, last);
}

#include "x86_64_avx512_bf16_panels.h"
#include "x86_64_avx512_bf16_tall.h"
