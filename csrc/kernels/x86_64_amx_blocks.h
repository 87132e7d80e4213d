// AMX tiles for the bf16 form's products of block weights (Q8_0, Q4_0,
// Q4_1) with several rows of x: each group of 16 weight rows is rounded to
// bf16 a span of k at a time into a tile's panel layout (x86_64_amx_bf16.h),
// and every block of rows of x multiplies it there. Included by
// x86_64_avx512_bf16_panels.h in the AMX build only.
//
// Why: through `vdpbf16ps` these products are bound by the vector pipes
// twice over, once rounding each block to bf16 and once multiplying; on a
// Xeon with AMX a SmolLM2 Q4_1 prompt of 128 tokens took 3x as long as in
// the 8-bit form. The tiles take the multiplying off the vector pipes, which
// are left to round the weights, once per group and span whatever the rows
// of x, gathered a row a lane so that they land in the panel layout as
// they are rounded.
//
// A row of x goes through the same instructions whatever rows share the
// call, so its sums do not depend on its neighbours (a decode step carrying
// a prompt's chunk keeps its decode rows' results).

// Blocks of k per span: 8 KB of panel per group of 16 weight rows, two
// groups' panels on the worker's stack.
#define AMX_BLOCK_SPAN 8

// The 16 f16 scales of a group's rows at block j of theirs (entries at
// `lane_entries` from p, in entries), as f32. Each lane reads the aligned 4
// bytes holding its entry, which never reach past the entry's own 4-byte
// word (nor the buffer's end).
INLINE __m512 gather_f16(const uint16_t* p, __m512i lane_entries) {
  const size_t skew = (uintptr_t)p & 3;
  const __m512i bytes =
      _mm512_add_epi32(_mm512_slli_epi32(lane_entries, 1), _mm512_set1_epi32((int)skew));
  const __m512i words = _mm512_i32gather_epi32(_mm512_srli_epi32(bytes, 2),
                                               (const void*)((const char*)p - skew), 4);
  const __m512i halves =
      _mm512_srlv_epi32(words, _mm512_slli_epi32(_mm512_and_si512(bytes, _mm512_set1_epi32(2)), 3));
  return _mm512_cvtph_ps(_mm512_cvtepi32_epi16(halves));
}

// Pairs (even, odd) of one weight row a lane: bf16 of each, the even value
// in the low half, rounded as block_bf16 rounds (to nearest even).
INLINE __m512i pair_bf16(__m512 even, __m512 odd) {
  const __m512i both = (__m512i)_mm512_cvtne2ps_pbh(odd, even);  // evens, then odds
  const __m512i order = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9,
                                         24, 8, 23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1,
                                         16, 0);
  return _mm512_permutexvar_epi16(order, both);
}

// Weight rows [i0, i0 + 16), blocks [c, c + nb), rounded to bf16 into
// `panel` in the panel layout: pair p of the span (values 2p, 2p + 1) at
// panel + 16 p, one weight row a lane. Each lane gathers its row's block 4
// bytes at a time, so the values arrive a row a lane and need no
// transposing; the values and their rounding are block_bf16's.
INLINE void round_group(const int format, const uint8_t* q, size_t row_bytes, const uint16_t* d,
                        const uint16_t* m, size_t blocks, size_t i0, size_t c, size_t nb,
                        uint32_t* panel) {
  const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i q_at = _mm512_mullo_epi32(lane, _mm512_set1_epi32((int)row_bytes));
  const __m512i s_at = _mm512_mullo_epi32(lane, _mm512_set1_epi32((int)blocks));
  const uint8_t* qg = q + i0 * row_bytes;
  for (size_t j = 0; j < nb; ++j) {
    const size_t b = c + j;
    const __m512 dj = gather_f16(d + i0 * blocks + b, s_at);
    uint32_t* out = panel + 16 * 16 * j;
    if (format == Q8_0) {
      // 4 signed values a gather: pairs 2t and 2t + 1.
#pragma GCC unroll 8
      for (int t = 0; t < 8; ++t) {
        const __m512i g = _mm512_i32gather_epi32(q_at, (const void*)(qg + 32 * b + 4 * t), 1);
        __m512 v[4];
#pragma GCC unroll 4
        for (int k = 0; k < 4; ++k)
          v[k] = _mm512_mul_ps(
              _mm512_cvtepi32_ps(_mm512_srai_epi32(_mm512_slli_epi32(g, 24 - 8 * k), 24)), dj);
        _mm512_store_si512((void*)(out + 16 * (2 * t)), pair_bf16(v[0], v[1]));
        _mm512_store_si512((void*)(out + 16 * (2 * t + 1)), pair_bf16(v[2], v[3]));
      }
      continue;
    }
    const __m512 mj = format == Q4_1 ? gather_f16(m + i0 * blocks + b, s_at) : dj;
    // A nibble's value as f32, looked up by `vpermps`, which reads only an
    // index's low 4 bits: no mask, and no conversion (Q4_0's values are
    // offset by 8 in the table).
    const __m512 values =
        format == Q4_0 ? _mm512_set_ps(7, 6, 5, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5, -6, -7, -8)
                       : _mm512_set_ps(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    // Bytes 4t .. 4t + 4 a gather: their low nibbles are values 4t .. 4t + 4
    // (pairs 2t, 2t + 1), their high nibbles values 16 + 4t .. (pairs 8 + 2t,
    // 9 + 2t).
#pragma GCC unroll 4
    for (int t = 0; t < 4; ++t) {
      const __m512i g = _mm512_i32gather_epi32(q_at, (const void*)(qg + 16 * b + 4 * t), 1);
      __m512 v[8];
#pragma GCC unroll 8
      for (int k = 0; k < 8; ++k) {
        const int shift = 8 * (k % 4) + 4 * (k / 4);
        const __m512 e =
            _mm512_permutexvar_ps(shift ? _mm512_srli_epi32(g, shift) : g, values);
        v[k] = format == Q4_0 ? _mm512_mul_ps(e, dj) : _mm512_fmadd_ps(e, dj, mj);
      }
      _mm512_store_si512((void*)(out + 16 * (2 * t)), pair_bf16(v[0], v[1]));
      _mm512_store_si512((void*)(out + 16 * (2 * t + 1)), pair_bf16(v[2], v[3]));
      _mm512_store_si512((void*)(out + 16 * (8 + 2 * t)), pair_bf16(v[4], v[5]));
      _mm512_store_si512((void*)(out + 16 * (9 + 2 * t)), pair_bf16(v[6], v[7]));
    }
  }
}

// y = x . W^T for weight rows [first, last) of W in blocks (first and last
// whole groups of 16), as blocks_rows: for each pair of groups and span of
// k, the groups rounded once, then every block of 32 rows of x through the
// tiles, the sums added to y after the first span (f32 both ways, so the
// same sums as one pass).
static void amx_blocks(const int format, const uint16_t* x, size_t rows, size_t k,
                       const uint8_t* q, const uint16_t* d, const uint16_t* m, float* y,
                       size_t n, size_t first, size_t last) {
  const size_t blocks = k / 32, row_bytes = blocks * (format == Q8_0 ? 32 : 16);
  uint32_t panel[2][AMX_BLOCK_SPAN * 16 * 16] __attribute__((aligned(64)));
  int set[2] = {-1, -1};
  for (size_t i = first; i < last; i += 32) {
    const int two = last - i >= 32;
    for (size_t c = 0; c < blocks; c += AMX_BLOCK_SPAN) {
      const size_t nb = blocks - c < AMX_BLOCK_SPAN ? blocks - c : AMX_BLOCK_SPAN;
      round_group(format, q, row_bytes, d, m, blocks, i, c, nb, panel[0]);
      if (two) round_group(format, q, row_bytes, d, m, blocks, i + 16, c, nb, panel[1]);
      for (size_t r = 0; r < rows; r += 32) {
        const int m1 = amx_block_rows(rows, r, set);
        float* y0 = y + r * n + i;
        AMX_BLOCK_CALL(m1 > 0, two, x + r * k + 32 * c, k, panel[0], panel[1], 0, 16 * nb, y0,
                       y0 + 16, n, c > 0, 0, 0);
      }
    }
  }
  _tile_release();
}
