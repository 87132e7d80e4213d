// Hand-written x86-64 (AVX2, FMA, F16C) kernels for the 8-bit activation
// form (`IREE_LLM_KERNELS=x86-64-q8`) on CPUs without AVX512-VNNI: the same
// two exports, the same inputs and, bit for bit, the same results as
// x86_64_avx512_vnni.c, which describes the form, the rounding of x and the
// weight layout (16 weight rows side by side, 4 bytes of each a lane).
//
// Why: with AVX2 the exact products are bound by f32 multiply-adds (8 a
// cycle per FMA pipe) plus dequantizing each block to f32 (docs/
// performance.md: a SmolLM2 B=8 step's products spent 38% of their time
// there). Here `vpmaddubsw` multiplies 32 unsigned nibbles by 32 signed
// bytes of x and adds them in pairs; with 8 weight rows in the lanes of a
// register, the pairs of one block add up in int16 (8 x 2 x 15 x 127 =
// 30,480 fits), one `vpmaddwd` makes them int32, and the block then costs
// one conversion and the scales' multiply-adds for 8 weight rows at once,
// where the row-major form paid them per row.
//
// AVX2 has 8 lanes, so each 64-byte word of the layout (16 rows x 4 bytes)
// is read as two halves: rows 0-7 and rows 8-15 of the group.
//
// Integer sums are exact whatever their order, and the f32 operations per
// lane are the VNNI kernel's (the scale product d * xd, one multiply-add of
// the converted sum, then Q4_1's offset term), so both kernels give the
// same bits and a model's 8-bit results do not depend on the CPU.
//
// Built freestanding: no libc, nothing but registers, the stack and the
// buffers.

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "x86_64_q8_rows.h"

#define INLINE static inline __attribute__((always_inline))

// ---- Rounding rows of x to int8 (x86_64_q8_rows.h's layout) ----------------

// One block of a row (x86_64_q8_rows.h's quantize_rows).
INLINE void quantize_block(const float* xb, int8_t* xq, float* xf) {
  round_block_avx2(xb, xq, &xf[XD], &xf[XS], (int32_t*)&xf[XQS]);
}


// ---- The product ------------------------------------------------------------
//
// A pass multiplies both halves (8 weight rows each) of a group of 16 by R
// rows of x (R <= ROWS_AT_ONCE) over all blocks, each broadcast word of x
// meeting both halves, so 8 rows of x take two passes over the group, the
// second reading the weights from L1 or L2. Taking one half a pass (4 passes
// for 8 rows) kept every accumulator in a register but paid a broadcast of
// x for each multiply: a Zen 3 core issues about three integer vector
// operations a cycle when multiplies and adds mix (docs/performance.md,
// fifty-sixth session), so the broadcasts saved outweigh the spills of the
// 16 accumulators (scripts/q8-product-ab.sh --head, 2 threads, B/A against one
// half a pass: 0.931 and 0.969 at 8 rows, where A/A runs gave 1.036-1.049;
// at 24 rows 0.954-0.990, within the A/A spread; docs/performance.md,
// fifty-fifth session).
#define ROWS_AT_ONCE 4

// The low and high nibbles of one 32-byte word of a half: 8 weight rows, 4
// bytes each.
INLINE void nibbles(const uint8_t* word, __m256i* lo, __m256i* hi) {
  const __m256i low = _mm256_set1_epi8(0x0F);
  const __m256i both = _mm256_loadu_si256((const __m256i*)word);
  *lo = _mm256_and_si256(both, low);
  *hi = _mm256_and_si256(_mm256_srli_epi16(both, 4), low);
}

// Pins an int16 sum to a register at each update, so that GCC keeps the
// order written: each row's sum one chain of additions, the products made
// as they are needed. Unpinned, GCC made a block's products first and
// spilled them. With 4-bit blocks in L2 on one thread: 166 GFLOP/s pinned,
// 114 unpinned, 145 for the earlier code (all 8 registers of a block
// unpacked first, spilling a few); Q8_0 95 against 62 (docs/performance.md,
// twenty-first session).
#define PIN(v) __asm__("" : "+x"(v))

// acc[e][r] (e < 2, r < R) += half e of one block of the group times rows
// r0 .. r0 + R of x's group at block `xb`; d[e], m[e]: the half's 8 scales
// and offsets as f32. Words are unpacked one at a time and meet every row
// of x at once, each row's sum a chain of additions, each broadcast word of
// x serving both halves.
INLINE void block(const int R, const int format, const uint8_t* qb, int r0,
                  const int8_t* xb, const __m256 d[2], const __m256 m[2],
                  __m256 acc[2][ROWS_AT_ONCE]) {
  const int32_t* x4 = (const int32_t*)xb;
  const float* xd = (const float*)(xb + 32 * GROUP_ROWS);
  const float* xs = xd + XS;
  const int32_t* xqs = (const int32_t*)xd + XQS;
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i s[2][ROWS_AT_ONCE];
  if (format == Q8_0) {
    // Values + 128 are bytes; flipping their top bit gives the signed
    // values w. vpmaddubsw multiplies |w| (unsigned) by x with w's sign
    // (vpsignb), so each pair is w * x exactly: |w| <= 128 and |x| <= 127
    // keep a pair's sum within int16 (2 x 128 x 127 = 32,512), though not
    // two pairs', so each product widens to int32 at once. Word pw (part
    // pw / 4 of the block) holds values 4pw .. 4pw + 3 of each row.
    const __m256i flip = _mm256_set1_epi8((char)0x80);
#pragma GCC unroll 8
    for (int pw = 0; pw < 8; ++pw) {
      __m256i w[2], a[2];
      for (int e = 0; e < 2; ++e) {
        w[e] = _mm256_xor_si256(
            _mm256_loadu_si256((const __m256i*)(qb + 256 * (pw / 4) + 32 * e + 64 * (pw % 4))),
            flip);
        a[e] = _mm256_abs_epi8(w[e]);
      }
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) {
        const __m256i xw = _mm256_set1_epi32(x4[8 * (r0 + r) + pw]);
        for (int e = 0; e < 2; ++e) {
          const __m256i p =
              _mm256_madd_epi16(_mm256_maddubs_epi16(a[e], _mm256_sign_epi8(xw, w[e])), ones);
          s[e][r] = pw ? _mm256_add_epi32(s[e][r], p) : p;
          PIN(s[e][r]);
        }
      }
    }
  } else {
    // Word w's low nibbles are values 4w .. 4w + 3 of each row, its high
    // nibbles values 16 + 4w .. 16 + 4w + 3.
    __m256i s16[2][ROWS_AT_ONCE];
#pragma GCC unroll 4
    for (int w = 0; w < 4; ++w) {
      __m256i l[2], u[2];
      for (int e = 0; e < 2; ++e) nibbles(qb + 32 * e + 64 * w, &l[e], &u[e]);
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) {
        const int32_t* xw = x4 + 8 * (r0 + r);
        const __m256i xl = _mm256_set1_epi32(xw[w]), xu = _mm256_set1_epi32(xw[4 + w]);
        for (int e = 0; e < 2; ++e) {
          const __m256i a = _mm256_maddubs_epi16(l[e], xl);
          s16[e][r] = _mm256_add_epi16(w ? _mm256_add_epi16(s16[e][r], a) : a,
                                       _mm256_maddubs_epi16(u[e], xu));
          PIN(s16[e][r]);
        }
      }
    }
    for (int e = 0; e < 2; ++e)
#pragma GCC unroll 4
      for (int r = 0; r < R; ++r) s[e][r] = _mm256_madd_epi16(s16[e][r], ones);
  }
  for (int e = 0; e < 2; ++e)
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      __m256i sr = s[e][r];
      if (format == Q4_0) sr = _mm256_add_epi32(sr, _mm256_set1_epi32(-8 * xqs[r0 + r]));
      const __m256 dx = _mm256_mul_ps(d[e], _mm256_set1_ps(xd[r0 + r]));
      acc[e][r] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sr), dx, acc[e][r]);
      if (format == Q4_1) acc[e][r] = _mm256_fmadd_ps(m[e], _mm256_set1_ps(xs[r0 + r]), acc[e][r]);
    }
}

// What a pass prefetches: during its first `blocks` blocks, one block of a
// group (all its lines) each, from `at` on.
typedef struct {
  const uint8_t* at;
  size_t blocks;
} Prefetch;

// block() with the halves' scales and offsets read.
INLINE void step(const int R, const int format, const uint8_t* qb, const uint16_t* db,
                 const uint16_t* mb, int r0, const int8_t* xb,
                 __m256 acc[2][ROWS_AT_ONCE]) {
  __m256 ds[2], ms[2];
  for (int e = 0; e < 2; ++e) {
    ds[e] = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(db + 8 * e)));
    ms[e] = format == Q4_1 ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(mb + 8 * e))) : ds[e];
  }
  block(R, format, qb, r0, xb, ds, ms, acc);
}

// Weight group g times rows r0 .. r0 + R of one group of x (`xg`) over all
// blocks: y[r][16g .. 16g + 16] set, rows n apart.
INLINE void pass(const int R, const int format, const uint8_t* q, const uint16_t* d,
                 const uint16_t* m, size_t blocks, size_t g, int r0, const int8_t* xg, float* y,
                 size_t n, Prefetch pf) {
  const size_t group_bytes = format == Q8_0 ? 512 : 256;
  const uint8_t* qb = q + g * blocks * group_bytes;
  const uint16_t* db = d + g * blocks * 16;
  const uint16_t* mb = m + g * blocks * 16;
  __m256 acc[2][ROWS_AT_ONCE];
  for (int e = 0; e < 2; ++e)
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) acc[e][r] = _mm256_setzero_ps();
  // Two loops, so that the blocks past the prefetches test nothing.
  const size_t ahead = pf.blocks < blocks ? pf.blocks : blocks;
  size_t j = 0;
  for (; j < ahead; ++j) {
    for (size_t b = 0; b < group_bytes; b += 64)
      _mm_prefetch((const char*)(pf.at + j * group_bytes + b), _MM_HINT_T0);
    step(R, format, qb + j * group_bytes, db + 16 * j, mb + 16 * j, r0,
         xg + j * GROUP_BLOCK_BYTES, acc);
  }
  for (; j < blocks; ++j)
    step(R, format, qb + j * group_bytes, db + 16 * j, mb + 16 * j, r0,
         xg + j * GROUP_BLOCK_BYTES, acc);
  for (int e = 0; e < 2; ++e)
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r)
      _mm256_storeu_ps(y + (r0 + r) * n + 16 * g + 8 * e, acc[e][r]);
}

// One pass as a function of its own for each shape and format, so that
// each copy's registers are allocated for it alone.
#define PASS_FN(FORMAT, R)                                                                 \
  static __attribute__((noinline)) void pass_##FORMAT##_##R(                                \
      const uint8_t* q, const uint16_t* d, const uint16_t* m, size_t blocks, size_t g, int r0, \
      const int8_t* xg, float* y, size_t n, Prefetch pf) {                                 \
    pass(R, FORMAT, q, d, m, blocks, g, r0, xg, y, n, pf);                                 \
  }
#define PASS_FNS(FORMAT) PASS_FN(FORMAT, 1) PASS_FN(FORMAT, 2) PASS_FN(FORMAT, 3) PASS_FN(FORMAT, 4)
PASS_FNS(Q8_0) PASS_FNS(Q4_0) PASS_FNS(Q4_1)

#define PASS_ARGS q, d, m, blocks, g, r0, xg, yb, n, pf
#define PASSES(FORMAT)                                \
  switch (R) {                                        \
    case 1: pass_##FORMAT##_1(PASS_ARGS); break;      \
    case 2: pass_##FORMAT##_2(PASS_ARGS); break;      \
    case 3: pass_##FORMAT##_3(PASS_ARGS); break;      \
    default: pass_##FORMAT##_4(PASS_ARGS); break;     \
  }

// x: `rows` rows quantized by iree_llm_quantize_rows_workgroup; q, d, m: W
// [n, k] in Q8_0, Q4_0 or Q4_1 blocks in the VNNI kernel's layout (only
// Q4_1 has offsets; for the others m is d again and not read); y [rows, n]
// f32. Weight rows [first, first + per); n is a multiple of 16 (the emitter
// checks).
static void packed_product(const int8_t* restrict x, const uint8_t* restrict q,
                           const uint16_t* restrict d, const uint16_t* restrict m,
                           float* restrict y, size_t rows, size_t n, size_t k, size_t format,
                           size_t first, size_t per) {
  if (format > Q4_1 || n % 16 != 0 || first % 16 != 0) __builtin_trap();
  const size_t blocks = k / 32;
  const size_t last = first + per < n ? first + per : n;
  const size_t group_bytes = format == Q8_0 ? 512 : 256, groups = n / 16;
  // A group of 16 weight rows takes `passes` passes, ROWS_AT_ONCE rows of x
  // at a time, and only the first reads it from memory. With up to two
  // passes (up to 8 rows), the first streams the weights 8 blocks ahead, on
  // into the next group. With more, that left memory idle in the later
  // passes: they now fetch the next group instead, a share of its blocks
  // each, and only a workgroup's first group streams itself.
  // Harness, SmolLM2's products at 8 rows, medians of 12: 12.7 ms, 13.3
  // with the first pass alone prefetching, 15.4 before either change
  // (docs/performance.md, twenty-first session).
  // Prefetches go past the workgroup's rows (IREE hands a worker several
  // workgroups in a row) but not past the matrix.
  const size_t passes = (rows + ROWS_AT_ONCE - 1) / ROWS_AT_ONCE;
  const size_t share = passes > 2 ? (blocks + passes - 2) / (passes - 1) : 0;
  for (size_t g = first / 16; g < last / 16; ++g) {
    const uint8_t* here = q + g * blocks * group_bytes;
    const size_t left = (groups - g) * blocks;  // blocks from `here` to the matrix's end
    size_t pass = 0;
    for (size_t base = 0; base < rows; base += GROUP_ROWS) {
      const int8_t* xg = x + (base / GROUP_ROWS) * blocks * GROUP_BLOCK_BYTES;
      float* yb = y + base * n;
      const int in_group = rows - base < GROUP_ROWS ? (int)(rows - base) : GROUP_ROWS;
      for (int r0 = 0; r0 < in_group; r0 += ROWS_AT_ONCE, ++pass) {
        const int R = in_group - r0 < ROWS_AT_ONCE ? in_group - r0 : ROWS_AT_ONCE;
        // Blocks [from, from + count) counted from `here`.
        size_t from = 0, count = 0;
        if (pass == 0 && (passes <= 2 || g == first / 16)) {
          from = 8;
          count = passes <= 2 ? blocks : blocks > 8 ? blocks - 8 : 0;
        } else if (pass > 0 && passes > 2) {
          from = blocks + (pass - 1) * share;
          count = share;
        }
        if (from + count > left) count = left > from ? left - from : 0;
        const Prefetch pf = {here + from * group_bytes, count};
        switch (format) {
          case Q8_0: PASSES(Q8_0) break;
          case Q4_0: PASSES(Q4_0) break;
          default: PASSES(Q4_1) break;
        }
      }
    }
  }
}

#include "x86_64_q8_entries.h"
