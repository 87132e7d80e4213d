// Hand-written x86-64 kernel for CPUs with AVX512-BF16 (AMD Zen 4 and
// later, Intel Cooper Lake and later), linked into compiled modules like
// x86_64_matmul.c: `y = x . W^T` for a dense bf16 weight W and any number
// of rows of x already rounded to bf16 (the graph converts them).
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

// WR weight rows (at w, row stride k) times XR rows of x (at x, stride k)
// over all k: y[r * n + a] = sum_e w[a, e] * x[r, e].
INLINE void tile(const int WR, const int XR, const uint16_t* w, const uint16_t* x, size_t k,
                 float* y, size_t n) {
  __m512 acc[TILE_W][TILE_X];
  for (int a = 0; a < WR; ++a)
    for (int r = 0; r < XR; ++r) acc[a][r] = _mm512_setzero_ps();
  size_t e = 0;
  for (; e + 32 <= k; e += 32) {
    __m512bh wv[TILE_W];
    for (int a = 0; a < WR; ++a) wv[a] = load32(w + a * k + e, 32);
    // The weight rows two tiles on, one line per row per step, into L2:
    // each row is a short stream (4 KB at k = 2048) that the hardware
    // prefetcher picks up only after its first misses. Measured on Zen 4,
    // one thread, weights streamed from memory: 1.3x (k = 2048) and 1.7x
    // (k = 8192) the speed without; one tile on or into L1 gained less.
    for (int a = 0; a < WR; ++a)
      _mm_prefetch((const char*)(w + (2 * WR + a) * k + e), _MM_HINT_T1);
    for (int r = 0; r < XR; ++r) {
      const __m512bh xv = load32(x + r * k + e, 32);
      for (int a = 0; a < WR; ++a) acc[a][r] = _mm512_dpbf16_ps(acc[a][r], wv[a], xv);
    }
  }
  if (e < k) {
    // The last, partial vector of a row: zeros past its end add nothing.
    __m512bh wv[TILE_W];
    for (int a = 0; a < WR; ++a) wv[a] = load32(w + a * k + e, k - e);
    for (int r = 0; r < XR; ++r) {
      const __m512bh xv = load32(x + r * k + e, k - e);
      for (int a = 0; a < WR; ++a) acc[a][r] = _mm512_dpbf16_ps(acc[a][r], wv[a], xv);
    }
  }
  for (int r = 0; r < XR; ++r)
    for (int a = 0; a < WR; ++a) y[r * n + a] = _mm512_reduce_add_ps(acc[a][r]);
}

// Each shape a function of its own, so that the register allocator sees one
// tile at a time (the other kernel's tiles spilled when inlined together).
#define TILE_FN(WR, XR)                                                                      \
  static __attribute__((noinline)) void tile_##WR##x##XR(const uint16_t* w, const uint16_t* x, \
                                                         size_t k, float* y, size_t n) {     \
    tile(WR, XR, w, x, k, y, n);                                                              \
  }
#define TILE_FNS(WR)                                                                       \
  TILE_FN(WR, 1) TILE_FN(WR, 2) TILE_FN(WR, 3) TILE_FN(WR, 4) TILE_FN(WR, 5) TILE_FN(WR, 6) \
  TILE_FN(WR, 7) TILE_FN(WR, 8)
TILE_FNS(1) TILE_FNS(2) TILE_FNS(3)

#define CASE(WR, XR) \
  case WR * 16 + XR: tile_##WR##x##XR(wi, xr, k, yr, n); break;
#define CASES(WR) \
  CASE(WR, 1) CASE(WR, 2) CASE(WR, 3) CASE(WR, 4) CASE(WR, 5) CASE(WR, 6) CASE(WR, 7) CASE(WR, 8)

// One workgroup: weight rows [first, first + count) for all rows of x.
// x [rows, k] bf16, w [n, k] bf16, y [rows, n] f32. Rows of x go in groups
// of TILE_X (a group's rows stay in L1/L2 while every weight tile of the
// workgroup passes over them); the workgroup's weight rows stay in L2
// between groups.
void iree_llm_bf16_matmul_workgroup(const uint16_t* restrict x, size_t x_offset,
                                    const uint16_t* restrict w, size_t w_offset,
                                    float* restrict y, size_t y_offset, size_t rows, size_t n,
                                    size_t k, size_t first, size_t count) {
  x += x_offset;
  w += w_offset;
  y += y_offset;
  size_t last = first + count;
  if (last > n) last = n;
  for (size_t r = 0; r < rows; r += TILE_X) {
    const int xn = rows - r < TILE_X ? (int)(rows - r) : TILE_X;
    const uint16_t* xr = x + r * k;
    for (size_t i = first; i < last; i += TILE_W) {
      const int wn = last - i < TILE_W ? (int)(last - i) : TILE_W;
      const uint16_t* wi = w + i * k;
      float* yr = y + r * n + i;
      switch (wn * 16 + xn) {
        CASES(1) CASES(2) CASES(3)
      }
    }
  }
}
