// Hand-written x86-64 kernels for CPUs with AVX512-VNNI, linked into
// compiled modules as custom dispatches (src/emit/kernels/blocks.rs emits the
// calls): the 8-bit activation form (`IREE_LLM_KERNELS=x86-64-q8`) of
// `y = x . W^T` for several rows of x and a weight W in Q8_0, Q4_0 or Q4_1
// blocks.
//
// Why: at several rows the exact kernel (x86_64_matmul.c) is bound by f32
// multiply-adds, two 16-lane FMAs per row for each block of 32 weights, plus
// dequantizing the block. Here each row of x is rounded to int8 once per
// block of 32 with one f32 scale (llama.cpp's form, as the one-row q8 path
// in x86_64_matmul.c), and `vpdpbusd` multiplies 64 unsigned 4-bit weights
// by signed 8-bit activations and adds them in fours into 16 int32 sums in
// one instruction: for one block, 16 weight rows and one row of x, 8 of
// them, then one conversion and the block's scales. Q8_0's signed values
// enter as unsigned values + 128, Q4_0's as their unsigned nibbles, and the
// integer sum starts at -128 (or -8) times the block's sum of xq to take the
// excess off again, exactly, before the conversion.
//
// For a prompt's rows, two kernels, two dispatches:
// `iree_llm_quantize_rows_workgroup` rounds the rows of x once (every
// workgroup of the product reads them), and
// `iree_llm_blocks_vnni_packed_workgroup` multiplies. A decode step's 8 rows
// or fewer go to `iree_llm_blocks_vnni_rows_workgroup`, whose workgroups
// (one a thread) round them each for themselves: one dispatch a product.
// Both paths also take the layer's RMSNorm before a product and its
// residual after it (x86_64_q8_entries.h, which defines the three entries
// for both builds; docs/performance.md). The product has 16
// weight rows side by side, one per 32-bit lane: 4-byte groups of the 16
// rows' blocks, so that 4 consecutive values of one row meet the same 4
// values of x, which are broadcast to every lane. W comes laid out that way
// by the loader (below).
//
// What it computes, for weight row i, row r of x and block j (32 values
// from 32j): with xq = round(x / xd), xd = max|x| / 127 over the block, and
// xs the block's exact sum of x,
//   Q4_1 (w = d q + m):  d xd sum(q xq) + m xs
//   Q4_0 (w = d (q - 8)): d xd (sum(q xq) - 8 sum(xq))
//   Q8_0 (w = d q):       d xd (sum((q + 128) xq) - 128 sum(xq))
// summed over the blocks in f32. Q4_0 and Q8_0 thus cost one multiply-add
// less per block than Q4_1, whose offset needs the second f32 term (C
// harness, 32 rows, weights in L2: 12% faster than with that term). Not exact: docs/performance.md gives the
// measured error; the exact kernels stay the default.
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
  const __m512 a = _mm512_loadu_ps(xb), b = _mm512_loadu_ps(xb + 16);
  const float top = _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(a), _mm512_abs_ps(b)));
  // The same scale, rounding (to nearest even) and sums as
  // x86_64_q8_rows.h's round_block_avx2, so every 8-bit path rounds x alike.
  const float scale = top / 127.0f;
  xf[XD] = scale;
  xf[XS] = _mm512_reduce_add_ps(_mm512_add_ps(a, b));
  const __m512 inv = _mm512_set1_ps(scale > 0.0f ? 1.0f / scale : 0.0f);
  // |x| * inv rounds to at most 127: the int8 narrowing keeps every value.
  const __m512i ia = _mm512_cvtps_epi32(_mm512_mul_ps(a, inv));
  const __m512i ib = _mm512_cvtps_epi32(_mm512_mul_ps(b, inv));
  ((int32_t*)xf)[XQS] = _mm512_reduce_add_epi32(_mm512_add_epi32(ia, ib));
  _mm_storeu_si128((__m128i*)xq, _mm512_cvtsepi32_epi8(ia));
  _mm_storeu_si128((__m128i*)(xq + 16), _mm512_cvtsepi32_epi8(ib));
}


// ---- The product ------------------------------------------------------------
//
// W as the loader lays it out for this kernel when the 8-bit form runs on a
// CPU with VNNI (src/emit/vnni_layout.rs): for each group of 16 weight rows
// and each block, value bytes 4w .. 4w + 4 of the 16 rows side by side (64
// bytes for each w: 4 of them for Q4_0/Q4_1, 8 for Q8_0, whose values are
// already made unsigned), and the 16 rows' scales d (and offsets m) as 16
// f16 in tensors [n/16, blocks, 16]. A block is then 4 or 8 loads and the
// nibble split; laying it out here, from the loader's row-major blocks,
// took half the kernel's time (16 gathered loads, permutes and a scale
// transpose per block; C harness, weights in L2: 1.5 of 2.8 ms a SmolLM2
// step).
//
// Every row of x goes through the same instructions whatever rows share
// the call, so a row's result does not depend on its neighbours.

// One or two groups of 16 weight rows are multiplied at once. A block of
// one group at 8 rows is 64 `vpdpbusd`, each taking a 4-byte broadcast of x
// from memory; on an Ice Lake server core that cost about 90 cycles (C
// harness, weights in L1) against the 32 the products need, as broadcasts
// and 64-byte loads went through at about 1.35 a cycle there (against 2
// for the products and 2.5 for 32-byte loads): the loads set the pace. Two
// groups side by side share each broadcast (and the rows' scales) between
// two products: 67-72 cycles a group and block at 8 rows, 38 against 53
// at 4. A workgroup takes its groups in pairs, one from each half of its
// rows, so a thread also reads two streams of weights (a core keeps more
// reads in flight that way; the forty-ninth session's probe); an odd group
// goes alone. SmolLM2's 121 products of a step, 84 MB, 2 threads (C
// harness, four rounds each): B=8 4.1-4.8 ms against 4.9-5.3 one group at
// a time, B=4 3.2-3.8 against 3.8-5.0, B=1 2.9-3.3 against 3.2-3.5; two
// neighbouring groups instead gained less (B=8 5.0-5.3).
//
// A row's result is the same bits however many groups go together: its
// integer sums are exact in any order, and each group's f32 operations are
// the same ones in the same order.

// For G (1 or 2) groups and R rows (R <= GROUP_ROWS; both constants after
// inlining), acc[16 (GROUP_ROWS i + r) ..] += block of group i times row r
// of x's group at block `xb`: q[i] the group's values of the block, d[i]
// its scales, m[i] its offsets (read for Q4_1 only). `format` is a constant
// after inlining too. The running f32 totals live in `acc` (the caller's
// stack): beside two groups' integer sums they would not fit in registers.
INLINE void block_groups(const int G, const int R, const int format, const uint8_t* const q[2],
                         const __m512 d[2], const __m512 m[2], const int8_t* xb, float* acc) {
  const int32_t* x4 = (const int32_t*)xb;
  const float* xd = (const float*)(xb + 32 * GROUP_ROWS);
  const float* xs = xd + XS;
  const int32_t* xqs = (const int32_t*)xd + XQS;
  const int32_t bias = format == Q8_0 ? -128 : -8;
  // Each row's sum for a group is one chain, and the R (or 2R) chains
  // interleave: no chain waits on the instruction's latency, and no partial
  // sums are added at the end (two chains a row paid one addition a row
  // and block; docs/performance.md, thirty-eighth session).
  __m512i s[2][GROUP_ROWS];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
    for (int i = 0; i < G; ++i)
      s[i][r] = format == Q4_1 ? _mm512_setzero_si512() : _mm512_set1_epi32(bias * xqs[r]);
  const __m512i low = _mm512_set1_epi8(0x0F);
  // Values 4w .. 4w + 3 (lo) and 16 + 4w .. 16 + 4w + 3 (hi) of each weight
  // row: for Q4 the low and high nibbles of one load, split as they are used.
#pragma GCC unroll 4
  for (int w = 0; w < 4; ++w) {
    __m512i lo[2], hi[2];
    for (int i = 0; i < G; ++i) {
      if (format == Q8_0) {
        lo[i] = _mm512_loadu_si512(q[i] + 64 * w);
        hi[i] = _mm512_loadu_si512(q[i] + 64 * (4 + w));
      } else {
        const __m512i both = _mm512_loadu_si512(q[i] + 64 * w);
        lo[i] = _mm512_and_si512(both, low);
        hi[i] = _mm512_and_si512(_mm512_srli_epi16(both, 4), low);
      }
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512i x = _mm512_set1_epi32(x4[8 * r + w]);
      for (int i = 0; i < G; ++i) s[i][r] = _mm512_dpbusd_epi32(s[i][r], lo[i], x);
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512i x = _mm512_set1_epi32(x4[8 * r + 4 + w]);
      for (int i = 0; i < G; ++i) s[i][r] = _mm512_dpbusd_epi32(s[i][r], hi[i], x);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    const __m512 xdr = _mm512_set1_ps(xd[r]);
    for (int i = 0; i < G; ++i) {
      float* a = acc + 16 * (GROUP_ROWS * i + r);
      __m512 t = _mm512_load_ps(a);
      t = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s[i][r]), _mm512_mul_ps(d[i], xdr), t);
      if (format == Q4_1) t = _mm512_fmadd_ps(m[i], _mm512_set1_ps(xs[r]), t);
      _mm512_store_ps(a, t);
    }
  }
}

// R rows of one group of x (`xg`) against the 16 weight rows of group g
// and, when G is 2, of group h: y[r][16g .. 16g + 16] (and y[r][16h ..]) is
// set, rows n apart.
INLINE void packed_groups(const int G, const int R, const int format, const uint8_t* q,
                          const uint16_t* d, const uint16_t* m, size_t blocks, size_t g,
                          size_t h, const int8_t* xg, float* y, size_t n) {
  const size_t group_bytes = format == Q8_0 ? 512 : 256;
  const size_t at[2] = {g, h};
  const uint8_t* qb[2];
  for (int i = 0; i < G; ++i) qb[i] = q + at[i] * blocks * group_bytes;
  float acc[2 * GROUP_ROWS * 16] __attribute__((aligned(64)));
  for (int i = 0; i < G * GROUP_ROWS; ++i) _mm512_store_ps(acc + 16 * i, _mm512_setzero_ps());
  const int8_t* xb = xg;
  for (size_t j = 0; j < blocks; ++j, xb += GROUP_BLOCK_BYTES) {
    __m512 ds[2], ms[2];
    for (int i = 0; i < G; ++i) {
      // 8 blocks ahead in each stream: a group's blocks are one stream,
      // and the next group's follow it.
      for (size_t b = 0; b < group_bytes; b += 64)
        _mm_prefetch((const char*)(qb[i] + 8 * group_bytes + b), _MM_HINT_T0);
      const size_t sj = (at[i] * blocks + j) * 16;
      ds[i] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(d + sj)));
      ms[i] = format == Q4_1 ? _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(m + sj)))
                             : ds[i];
    }
    block_groups(G, R, format, qb, ds, ms, xb, acc);
    for (int i = 0; i < G; ++i) qb[i] += group_bytes;
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
    for (int i = 0; i < G; ++i)
      _mm512_storeu_ps(y + r * n + 16 * at[i], _mm512_load_ps(acc + 16 * (GROUP_ROWS * i + r)));
}

// packed_groups for `rows` (1 .. GROUP_ROWS) rows, with the row count, the
// group count and the format (constants after inlining) as constants in
// each copy.
INLINE void groups_rows(const int G, const int format, size_t rows, const uint8_t* q,
                        const uint16_t* d, const uint16_t* m, size_t blocks, size_t g, size_t h,
                        const int8_t* xg, float* y, size_t n) {
  switch (rows) {
    case 1: packed_groups(G, 1, format, q, d, m, blocks, g, h, xg, y, n); break;
    case 2: packed_groups(G, 2, format, q, d, m, blocks, g, h, xg, y, n); break;
    case 3: packed_groups(G, 3, format, q, d, m, blocks, g, h, xg, y, n); break;
    case 4: packed_groups(G, 4, format, q, d, m, blocks, g, h, xg, y, n); break;
    case 5: packed_groups(G, 5, format, q, d, m, blocks, g, h, xg, y, n); break;
    case 6: packed_groups(G, 6, format, q, d, m, blocks, g, h, xg, y, n); break;
    case 7: packed_groups(G, 7, format, q, d, m, blocks, g, h, xg, y, n); break;
    default: packed_groups(G, 8, format, q, d, m, blocks, g, h, xg, y, n); break;
  }
}

// groups_rows with the format as a constant.
INLINE void product_groups(const int G, size_t format, size_t rows, const uint8_t* q,
                           const uint16_t* d, const uint16_t* m, size_t blocks, size_t g,
                           size_t h, const int8_t* xg, float* y, size_t n) {
  switch (format) {
    case Q8_0: groups_rows(G, Q8_0, rows, q, d, m, blocks, g, h, xg, y, n); break;
    case Q4_0: groups_rows(G, Q4_0, rows, q, d, m, blocks, g, h, xg, y, n); break;
    default: groups_rows(G, Q4_1, rows, q, d, m, blocks, g, h, xg, y, n); break;
  }
}

// x: `rows` rows quantized by iree_llm_quantize_rows_workgroup; q, d, m: W
// [n, k] in Q8_0, Q4_0 or Q4_1 blocks in the layout above (only Q4_1 has
// offsets; for the others m is d again and not read); y [rows, n] f32.
// Weight rows [first, first + per); n is a multiple of 16 (the emitter
// checks). The workgroup's groups of 16 weight rows go in pairs, group i
// of its first half with group i of its second (packed_groups), and an odd
// one last on its own.
static void packed_product(const int8_t* restrict x, const uint8_t* restrict q,
                           const uint16_t* restrict d, const uint16_t* restrict m,
                           float* restrict y, size_t rows, size_t n, size_t k, size_t format,
                           size_t first, size_t per) {
  if (format > Q4_1 || n % 16 != 0 || first % 16 != 0) __builtin_trap();
  const size_t blocks = k / 32;
  const size_t last = first + per < n ? first + per : n;
  if (last <= first) return;
  const size_t g0 = first / 16, groups = (last - first) / 16, half = groups / 2;
  // Weights outer, rows of x inner: a pair's weights stay in L1 while every
  // group of 8 rows of a prompt takes them.
  for (size_t i = 0; i < (groups + 1) / 2; ++i)
    for (size_t r0 = 0; r0 < rows; r0 += GROUP_ROWS) {
      const int8_t* xg = x + (r0 / GROUP_ROWS) * blocks * GROUP_BLOCK_BYTES;
      const size_t r = rows - r0 < GROUP_ROWS ? rows - r0 : GROUP_ROWS;
      if (i < half)
        product_groups(2, format, r, q, d, m, blocks, g0 + i, g0 + half + i, xg, y + r0 * n, n);
      else  // the odd group, last
        product_groups(1, format, r, q, d, m, blocks, g0 + groups - 1, 0, xg, y + r0 * n, n);
    }
}

#include "x86_64_q8_entries.h"
