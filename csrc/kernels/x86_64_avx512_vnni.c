// Hand-written x86-64 kernels for CPUs with AVX512-VNNI, linked into
// compiled modules as custom dispatches (src/emit/kernels.rs emits the
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
// enter as unsigned values + 128, and 128 times the block's sum of xq comes
// off again.
//
// Two kernels, two dispatches: `iree_llm_quantize_rows_workgroup` rounds
// the rows of x once (every workgroup of the product reads them), and
// `iree_llm_blocks_vnni_workgroup` multiplies. The product lays 16 weight
// rows side by side, one per 32-bit lane: a panel of 4-byte groups of the
// 16 rows' blocks, so that 4 consecutive values of one row meet the same 4
// values of x, which are broadcast to every lane.
//
// What it computes, for weight row i, row r of x and block j (32 values
// from 32j): with xq = round(x / xd), xd = max|x| / 127 over the block, and
// xs the block's exact sum of x,
//   Q4_1 (w = d q + m):  d xd sum(q xq) + m xs
//   Q4_0 (w = d (q - 8)): d xd sum(q xq) - 8 d xs
//   Q8_0 (w = d q):       d xd sum((q + 128) xq) - 128 d (xd sum(xq))
// summed over the blocks in f32. Not exact: docs/performance.md gives the
// measured error; the exact kernels stay the default.
//
// Built freestanding: no libc, nothing but registers, the stack and the
// buffers.

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define INLINE static inline __attribute__((always_inline))

// Block formats, as src/types.rs's BlockFormat::kernel_code numbers them.
enum { Q8_0 = 0, Q4_0 = 1, Q4_1 = 2 };

// ---- Rounding rows of x to int8 -------------------------------------------
//
// The rows of x [rows, k] go out in groups of 8 (the product's register
// tile), block by block: for group g and block j, GROUP_BLOCK_BYTES bytes
// at (g * blocks + j) * GROUP_BLOCK_BYTES hold the 8 rows' 32 int8 values,
// then three f32 per row: their scales xd, their exact sums xs, and xd
// times the sums of their int8 values. A group's missing rows (past `rows`)
// are zeros. So a tile reads one block of all its rows at fixed offsets
// from one pointer.

#define GROUP_ROWS 8
#define GROUP_BLOCK_BYTES (GROUP_ROWS * 32 + GROUP_ROWS * 12)
// Where a block's f32 of each kind start, in floats after its values.
enum { XD = 0, XS = GROUP_ROWS, XQS = 2 * GROUP_ROWS };

// Rows [first, first + per) of x (fewer at the end); `per` is a multiple of
// GROUP_ROWS.
void iree_llm_quantize_rows_workgroup(const float* restrict x, size_t x_offset,
                                      int8_t* restrict out, size_t out_offset, size_t rows,
                                      size_t k, size_t first, size_t per) {
  x += x_offset;
  out += out_offset;
  const size_t blocks = k / 32;
  const size_t groups = (rows + GROUP_ROWS - 1) / GROUP_ROWS;
  size_t last = first + per;
  if (last > groups * GROUP_ROWS) last = groups * GROUP_ROWS;
  for (size_t r = first; r < last; ++r) {
    int8_t* group = out + (r / GROUP_ROWS) * blocks * GROUP_BLOCK_BYTES;
    const size_t slot = r % GROUP_ROWS;
    for (size_t j = 0; j < blocks; ++j) {
      int8_t* xq = group + j * GROUP_BLOCK_BYTES + 32 * slot;
      float* xf = (float*)(group + j * GROUP_BLOCK_BYTES + 32 * GROUP_ROWS) + slot;
      if (r >= rows) {
        _mm256_storeu_si256((__m256i*)xq, _mm256_setzero_si256());
        xf[XD] = xf[XS] = xf[XQS] = 0.0f;
        continue;
      }
      const float* xb = x + r * k + 32 * j;
      const __m512 a = _mm512_loadu_ps(xb), b = _mm512_loadu_ps(xb + 16);
      const float top =
          _mm512_reduce_max_ps(_mm512_max_ps(_mm512_abs_ps(a), _mm512_abs_ps(b)));
      // The same scale and rounding (to nearest even) as x86_64_matmul.c's
      // quantize_x, so one row and several round x alike.
      const float scale = top / 127.0f;
      xf[XD] = scale;
      xf[XS] = _mm512_reduce_add_ps(_mm512_add_ps(a, b));
      const __m512 inv = _mm512_set1_ps(scale > 0.0f ? 1.0f / scale : 0.0f);
      // |x| * inv rounds to at most 127: the int8 narrowing keeps every value.
      const __m512i ia = _mm512_cvtps_epi32(_mm512_mul_ps(a, inv));
      const __m512i ib = _mm512_cvtps_epi32(_mm512_mul_ps(b, inv));
      xf[XQS] = scale * (float)_mm512_reduce_add_epi32(_mm512_add_epi32(ia, ib));
      _mm_storeu_si128((__m128i*)xq, _mm512_cvtsepi32_epi8(ia));
      _mm_storeu_si128((__m128i*)(xq + 16), _mm512_cvtsepi32_epi8(ib));
    }
  }
}

// ---- The product ------------------------------------------------------------

// Blocks of k a panel holds (its bytes: 640 per block).
#define PANEL_BLOCKS 32

// One block of 16 weight rows, laid out for vpdpbusd: v[w] (w < 4) holds
// each row's values 4w .. 4w + 3 in its 32-bit lane, v[4 + w] its values
// 16 + 4w .. 16 + 4w + 3 (the high nibbles of the same bytes); the rows'
// scales d, and per row what multiplies the block's second sum of x: m
// (Q4_1) or -8 d (Q4_0) times its exact sum xs, -128 d (Q8_0) times xd
// sum(xq).
typedef struct {
  __m512i v[8];
  __m512 d, m;
} panel_block;

// Bytes 16h .. 16h + 16 of the 16 rows at `q` (rows `row_bytes` apart)
// as four 4-byte groups per row, g[w] lane l = group w of row l. Rows 4c ..
// 4c + 3 go to one register (a row per 128-bit lane, its four groups in
// order); two permutes and a 256-bit shuffle per pair of outputs gather
// group w of all 16 rows.
INLINE void row_groups(const uint8_t* q, size_t row_bytes, __m512i g[4]) {
  __m512i a[4];
  for (int c = 0; c < 4; ++c) {
    const uint8_t* p = q + 4 * c * row_bytes;
    __m512i t = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i*)p));
    t = _mm512_inserti32x4(t, _mm_loadu_si128((const __m128i*)(p + row_bytes)), 1);
    t = _mm512_inserti32x4(t, _mm_loadu_si128((const __m128i*)(p + 2 * row_bytes)), 2);
    a[c] = _mm512_inserti32x4(t, _mm_loadu_si128((const __m128i*)(p + 3 * row_bytes)), 3);
  }
  // Lanes 0..7: group w of rows 0..7 of the pair (a[0], a[1]) or (a[2],
  // a[3]); lanes 8..15: group w + 1 of the same rows.
  const __m512i pick0 = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29);
  const __m512i pick2 = _mm512_setr_epi32(2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31);
  for (int w = 0; w < 4; w += 2) {
    const __m512i pick = w == 0 ? pick0 : pick2;
    const __m512i top = _mm512_permutex2var_epi32(a[0], pick, a[1]);
    const __m512i bottom = _mm512_permutex2var_epi32(a[2], pick, a[3]);
    g[w] = _mm512_shuffle_i64x2(top, bottom, 0x44);
    g[w + 1] = _mm512_shuffle_i64x2(top, bottom, 0xEE);
  }
}

// One block of the 16 rows at `q` as panel values (see panel_block).
INLINE void panel_values(const int format, const uint8_t* q, size_t row_bytes, __m512i v[8]) {
  __m512i g[4];
  row_groups(q, row_bytes, g);
  if (format == Q8_0) {
    // Values 0..15 from the first 16 bytes, 16..31 from the next; signed,
    // made unsigned by flipping the sign bit (+128).
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    for (int w = 0; w < 4; ++w) v[w] = _mm512_xor_si512(g[w], flip);
    row_groups(q + 16, row_bytes, g);
    for (int w = 0; w < 4; ++w) v[4 + w] = _mm512_xor_si512(g[w], flip);
    return;
  }
  const __m512i low = _mm512_set1_epi8(0x0F);
  for (int w = 0; w < 4; ++w) {
    v[w] = _mm512_and_si512(g[w], low);
    v[4 + w] = _mm512_and_si512(_mm512_srli_epi16(g[w], 4), low);
  }
}

// t[l] = column l of the 16x16 matrix whose rows are t[0..16] (in place):
// four rounds of shuffles, each pairing registers 1, 2, 4, then 8 apart.
INLINE void transpose16(__m512 t[16]) {
  __m512 u[16];
  for (int i = 0; i < 16; i += 2) {
    u[i] = _mm512_unpacklo_ps(t[i], t[i + 1]);
    u[i + 1] = _mm512_unpackhi_ps(t[i], t[i + 1]);
  }
  for (int i = 0; i < 16; i += 4)
    for (int h = 0; h < 2; ++h) {
      const __m512d a = _mm512_castps_pd(u[i + h]), b = _mm512_castps_pd(u[i + 2 + h]);
      t[i + 2 * h] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
      t[i + 2 * h + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
    }
  for (int i = 0; i < 16; i += 8)
    for (int h = 0; h < 4; ++h) {
      u[i + h] = _mm512_shuffle_f32x4(t[i + h], t[i + 4 + h], 0x88);
      u[i + 4 + h] = _mm512_shuffle_f32x4(t[i + h], t[i + 4 + h], 0xDD);
    }
  for (int h = 0; h < 8; ++h) {
    t[h] = _mm512_shuffle_f32x4(u[h], u[8 + h], 0x88);
    t[8 + h] = _mm512_shuffle_f32x4(u[h], u[8 + h], 0xDD);
  }
}

// Scales s [n, blocks] of rows i0 .. i0 + 16 at blocks c0 .. c0 + nb (nb
// <= 16) as f32 columns: out[j] lane l = s[i0 + l][c0 + j].
INLINE void scale_columns(const uint16_t* s, size_t blocks, size_t i0, size_t c0, size_t nb,
                          __m512 out[16]) {
  const __mmask16 live = nb >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << nb) - 1);
  for (int l = 0; l < 16; ++l)
    out[l] = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(live, s + (i0 + l) * blocks + c0));
  transpose16(out);
}

// The next 16 rows' blocks c .. c + nb (values, scales, offsets) into L1,
// while these are multiplied: 16 rows far apart are more streams than the
// hardware prefetchers follow.
INLINE void prefetch_next_rows(const int format, const uint8_t* q, const uint16_t* d,
                               const uint16_t* m, size_t n, size_t blocks, size_t i0, size_t c,
                               size_t nb) {
  if (i0 + 16 >= n) return;
  const size_t block_bytes = format == Q8_0 ? 32 : 16, row_bytes = blocks * block_bytes;
  for (size_t l = 0; l < 16; ++l) {
    const size_t row = i0 + 16 + l;
    const char* next = (const char*)(q + row * row_bytes + c * block_bytes);
    for (size_t b = 0; b < nb * block_bytes; b += 64) _mm_prefetch(next + b, _MM_HINT_T0);
    _mm_prefetch((const char*)(d + row * blocks + c), _MM_HINT_T0);
    if (format == Q4_1) _mm_prefetch((const char*)(m + row * blocks + c), _MM_HINT_T0);
  }
}

// What multiplies block j's second sum of x (see panel_block), from the
// scale columns ds and, for Q4_1 only (the others leave ms unset), the
// offset columns ms.
INLINE __m512 second_scale(const int format, const __m512* ds, const __m512* ms, size_t j) {
  return format == Q4_1 ? ms[j]
                        : _mm512_mul_ps(ds[j], _mm512_set1_ps(format == Q4_0 ? -8.0f : -128.0f));
}

// acc[r] += one block of 16 weight rows (values v, scales d, second scales
// m) times row r of x's group at block `xb`, for R rows (R <= GROUP_ROWS, a
// constant after inlining); `sums` says which sum of x m multiplies (XS or
// XQS).
INLINE void block_rows(const int R, const __m512i v[8], __m512 d, __m512 m, const int8_t* xb,
                       size_t sums, __m512 acc[GROUP_ROWS]) {
  const int32_t* x4 = (const int32_t*)xb;
  const float* xd = (const float*)(xb + 32 * GROUP_ROWS);
  const float* xs = xd + sums;
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    __m512i s = _mm512_dpbusd_epi32(_mm512_setzero_si512(), v[0], _mm512_set1_epi32(x4[8 * r]));
#pragma GCC unroll 8
    for (int w = 1; w < 8; ++w) s = _mm512_dpbusd_epi32(s, v[w], _mm512_set1_epi32(x4[8 * r + w]));
    const __m512 dx = _mm512_mul_ps(d, _mm512_set1_ps(xd[r]));
    acc[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(s), dx, acc[r]);
    acc[r] = _mm512_fmadd_ps(m, _mm512_set1_ps(xs[r]), acc[r]);
  }
}

// Weight rows i0 .. i0 + 16, blocks c .. c + nb, as a panel.
INLINE void build_panel(const int format, const uint8_t* q, const uint16_t* d,
                        const uint16_t* m, size_t n, size_t blocks, size_t i0, size_t c,
                        size_t nb, panel_block* panel) {
  const size_t block_bytes = format == Q8_0 ? 32 : 16, row_bytes = blocks * block_bytes;
  prefetch_next_rows(format, q, d, m, n, blocks, i0, c, nb);
  for (size_t j0 = 0; j0 < nb; j0 += 16) {
    const size_t nj = nb - j0 < 16 ? nb - j0 : 16;
    __m512 ds[16], ms[16];
    scale_columns(d, blocks, i0, c + j0, nj, ds);
    if (format == Q4_1) scale_columns(m, blocks, i0, c + j0, nj, ms);
    for (size_t j = 0; j < nj; ++j) {
      panel_block* b = panel + j0 + j;
      panel_values(format, q + i0 * row_bytes + (c + j0 + j) * block_bytes, row_bytes, b->v);
      b->d = ds[j];
      b->m = second_scale(format, ds, ms, j);
    }
  }
}

// R rows (R <= GROUP_ROWS, a constant after inlining) of one group of
// quantized x (`xg`, from block 0) against a panel of nb blocks from block
// c; `sums` says which sum of x the panel's m multiplies (XS or XQS):
// y[r][0 .. 16] is set (c == 0) or added to, rows n apart.
INLINE void panel_tile(const int R, const panel_block* panel, size_t nb, const int8_t* xg,
                       size_t c, size_t sums, float* y, size_t n) {
  __m512 acc[GROUP_ROWS];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ps();
  const int8_t* xb = xg + c * GROUP_BLOCK_BYTES;
  for (size_t j = 0; j < nb; ++j, xb += GROUP_BLOCK_BYTES)
    block_rows(R, panel[j].v, panel[j].d, panel[j].m, xb, sums, acc);
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    float* yr = y + r * n;
    _mm512_storeu_ps(yr, c == 0 ? acc[r] : _mm512_add_ps(_mm512_loadu_ps(yr), acc[r]));
  }
}

// Up to GROUP_ROWS rows: the 16 weight rows from i0 against x's one group
// over all blocks, each block laid out in registers and used at once (no
// panel in memory); y[r][i0 .. i0 + 16] is set.
INLINE void rows_in_registers(const int R, const int format, const uint8_t* q, const uint16_t* d,
                              const uint16_t* m, size_t n, size_t blocks, size_t i0,
                              const int8_t* xg, size_t sums, float* y) {
  const size_t block_bytes = format == Q8_0 ? 32 : 16, row_bytes = blocks * block_bytes;
  __m512 acc[GROUP_ROWS];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ps();
  for (size_t c = 0; c < blocks; c += 16) {
    const size_t nb = blocks - c < 16 ? blocks - c : 16;
    prefetch_next_rows(format, q, d, m, n, blocks, i0, c, nb);
    __m512 ds[16], ms[16];
    scale_columns(d, blocks, i0, c, nb, ds);
    if (format == Q4_1) scale_columns(m, blocks, i0, c, nb, ms);
    const int8_t* xb = xg + c * GROUP_BLOCK_BYTES;
    for (size_t j = 0; j < nb; ++j, xb += GROUP_BLOCK_BYTES) {
      __m512i v[8];
      panel_values(format, q + i0 * row_bytes + (c + j) * block_bytes, row_bytes, v);
      block_rows(R, v, ds[j], second_scale(format, ds, ms, j), xb, sums, acc);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm512_storeu_ps(y + r * n + i0, acc[r]);
}

// Weight rows [first, last) of the product with W in the loader's layout
// (see the entry points at the end).
static void row_major_product(const int8_t* restrict x, const uint8_t* restrict q,
                              const uint16_t* restrict d, const uint16_t* restrict m,
                              float* restrict y, size_t rows, size_t n, size_t blocks,
                              size_t format, size_t sums, size_t first, size_t last) {
  // A batched step's rows (at most a group) use each block once: laid out
  // in registers and multiplied at once, without a panel in memory (C
  // harness, SmolLM2's products at 8 rows, 2 threads: 3.2 against 3.5-4.0
  // ms with the weights in cache, 4.0-4.6 against 5.1-5.9 streamed).
  if (rows <= GROUP_ROWS) {
    for (size_t i0 = first; i0 < last; i0 += 16) {
      switch (rows) {
        case 1: rows_in_registers(1, (int)format, q, d, m, n, blocks, i0, x, sums, y); break;
        case 2: rows_in_registers(2, (int)format, q, d, m, n, blocks, i0, x, sums, y); break;
        case 3: rows_in_registers(3, (int)format, q, d, m, n, blocks, i0, x, sums, y); break;
        case 4: rows_in_registers(4, (int)format, q, d, m, n, blocks, i0, x, sums, y); break;
        case 5: rows_in_registers(5, (int)format, q, d, m, n, blocks, i0, x, sums, y); break;
        case 6: rows_in_registers(6, (int)format, q, d, m, n, blocks, i0, x, sums, y); break;
        case 7: rows_in_registers(7, (int)format, q, d, m, n, blocks, i0, x, sums, y); break;
        default: rows_in_registers(8, (int)format, q, d, m, n, blocks, i0, x, sums, y); break;
      }
    }
    return;
  }
  panel_block panel[PANEL_BLOCKS];
  for (size_t i0 = first; i0 < last; i0 += 16)
    for (size_t c = 0; c < blocks; c += PANEL_BLOCKS) {
      const size_t nb = blocks - c < PANEL_BLOCKS ? blocks - c : PANEL_BLOCKS;
      build_panel((int)format, q, d, m, n, blocks, i0, c, nb, panel);
      for (size_t r0 = 0; r0 < rows; r0 += GROUP_ROWS) {
        const int8_t* xg = x + (r0 / GROUP_ROWS) * blocks * GROUP_BLOCK_BYTES;
        float* yr = y + r0 * n + i0;
        switch (rows - r0 < GROUP_ROWS ? rows - r0 : GROUP_ROWS) {
          case 1: panel_tile(1, panel, nb, xg, c, sums, yr, n); break;
          case 2: panel_tile(2, panel, nb, xg, c, sums, yr, n); break;
          case 3: panel_tile(3, panel, nb, xg, c, sums, yr, n); break;
          case 4: panel_tile(4, panel, nb, xg, c, sums, yr, n); break;
          case 5: panel_tile(5, panel, nb, xg, c, sums, yr, n); break;
          case 6: panel_tile(6, panel, nb, xg, c, sums, yr, n); break;
          case 7: panel_tile(7, panel, nb, xg, c, sums, yr, n); break;
          default: panel_tile(8, panel, nb, xg, c, sums, yr, n); break;
        }
      }
    }
}

// ---- The product with W laid out for it -------------------------------------
//
// The same product, with W as the loader lays it out for this kernel when
// the 8-bit form runs on a CPU with VNNI (src/emit/vnni_layout.rs): for each
// group of 16 weight rows and each block, the 16 rows' values as the
// registers row_groups builds, one after the other (4 x 64 bytes for
// Q4_0/Q4_1; 8 x 64 for Q8_0, already made unsigned), and the 16 rows'
// scales d (and offsets m) as 16 f16 in tensors [n/16, blocks, 16]. A
// block is then 4 or 8 loads and the nibble split instead of 16 gathered
// loads, permutes and a scale transpose, which were half the row-major
// kernel's time (C harness, weights in L2: 1.5 of 2.8 ms a SmolLM2 step).
//
// Every row of x goes through the same instructions whatever rows share
// the call, so a row's result does not depend on its neighbours.

// R rows (R <= GROUP_ROWS, a constant after inlining) of one group of x
// (`xg`) against the 16 weight rows of group `g`: y[r][16g .. 16g + 16] is
// set, rows n apart.
INLINE void packed_rows(const int R, const int format, const uint8_t* q, const uint16_t* d,
                        const uint16_t* m, size_t blocks, size_t g, const int8_t* xg,
                        size_t sums, float* y, size_t n) {
  const size_t group_bytes = format == Q8_0 ? 512 : 256;
  const uint8_t* qb = q + g * blocks * group_bytes;
  const uint16_t* db = d + g * blocks * 16;
  const uint16_t* mb = m + g * blocks * 16;
  __m512 acc[GROUP_ROWS];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) acc[r] = _mm512_setzero_ps();
  const int8_t* xb = xg;
  for (size_t j = 0; j < blocks; ++j, xb += GROUP_BLOCK_BYTES, qb += group_bytes) {
    // 8 blocks ahead: the group's blocks are one stream, and the next
    // group's follow it.
    for (size_t b = 0; b < group_bytes; b += 64)
      _mm_prefetch((const char*)(qb + 8 * group_bytes + b), _MM_HINT_T0);
    __m512i v[8];
    if (format == Q8_0) {
      for (int w = 0; w < 8; ++w) v[w] = _mm512_loadu_si512(qb + 64 * w);
    } else {
      const __m512i low = _mm512_set1_epi8(0x0F);
      for (int w = 0; w < 4; ++w) {
        const __m512i both = _mm512_loadu_si512(qb + 64 * w);
        v[w] = _mm512_and_si512(both, low);
        v[4 + w] = _mm512_and_si512(_mm512_srli_epi16(both, 4), low);
      }
    }
    const __m512 ds = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(db + 16 * j)));
    const __m512 ms =
        format == Q4_1 ? _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(mb + 16 * j)))
                       : _mm512_mul_ps(ds, _mm512_set1_ps(format == Q4_0 ? -8.0f : -128.0f));
    block_rows(R, v, ds, ms, xb, sums, acc);
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) _mm512_storeu_ps(y + r * n + 16 * g, acc[r]);
}

// Weight rows [first, first + per) of the product with q, d and m in the
// layout above (n still counts weight rows).
static void packed_product(const int8_t* restrict x, const uint8_t* restrict q,
                           const uint16_t* restrict d, const uint16_t* restrict m,
                           float* restrict y, size_t rows, size_t n, size_t blocks,
                           size_t format, size_t sums, size_t first, size_t last) {
  for (size_t i0 = first; i0 < last; i0 += 16)
    for (size_t r0 = 0; r0 < rows; r0 += GROUP_ROWS) {
      const int8_t* xg = x + (r0 / GROUP_ROWS) * blocks * GROUP_BLOCK_BYTES;
      float* yr = y + r0 * n;
      const size_t g = i0 / 16;
      switch (rows - r0 < GROUP_ROWS ? rows - r0 : GROUP_ROWS) {
        case 1: packed_rows(1, (int)format, q, d, m, blocks, g, xg, sums, yr, n); break;
        case 2: packed_rows(2, (int)format, q, d, m, blocks, g, xg, sums, yr, n); break;
        case 3: packed_rows(3, (int)format, q, d, m, blocks, g, xg, sums, yr, n); break;
        case 4: packed_rows(4, (int)format, q, d, m, blocks, g, xg, sums, yr, n); break;
        case 5: packed_rows(5, (int)format, q, d, m, blocks, g, xg, sums, yr, n); break;
        case 6: packed_rows(6, (int)format, q, d, m, blocks, g, xg, sums, yr, n); break;
        case 7: packed_rows(7, (int)format, q, d, m, blocks, g, xg, sums, yr, n); break;
        default: packed_rows(8, (int)format, q, d, m, blocks, g, xg, sums, yr, n); break;
      }
    }
}

// ---- Entry points -------------------------------------------------------------
//
// x: `rows` rows quantized by iree_llm_quantize_rows_workgroup; q, d, m: W
// [n, k] in Q8_0, Q4_0 or Q4_1 blocks, in the GGUF loader's layout (q [n,
// k/32, 32] int8 or [n, k/32, 16] nibble bytes, d and m [n, k/32] f16) or,
// for the _packed entry, in the layout above; only Q4_1 has offsets, for
// the others m is d again and not read; y [rows, n] f32. Weight rows
// [first, first + per); n is a multiple of 16 (the emitter checks).

#define VNNI_ENTRY(name, product)                                                                 \
  void name(const int8_t* restrict x, size_t x_offset, const uint8_t* restrict q,               \
            size_t q_offset, const uint16_t* restrict d, size_t d_offset,                      \
            const uint16_t* restrict m, size_t m_offset, float* restrict y, size_t y_offset,   \
            size_t rows, size_t n, size_t k, size_t format, size_t first, size_t per) {        \
    if (format > Q4_1 || n % 16 != 0 || first % 16 != 0) __builtin_trap();                     \
    const size_t last = first + per < n ? first + per : n;                                     \
    product(x + x_offset, q + q_offset, d + d_offset, m + m_offset, y + y_offset, rows, n,     \
            k / 32, format, format == Q8_0 ? XQS : XS, first, last);                           \
  }

VNNI_ENTRY(iree_llm_blocks_vnni_workgroup, row_major_product)
VNNI_ENTRY(iree_llm_blocks_vnni_packed_workgroup, packed_product)
