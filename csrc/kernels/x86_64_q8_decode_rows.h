// The 8-bit form's product for a decode step's rows, shared by both builds
// of the packed product (x86_64_avx512_vnni.c and x86_64_avx2_q8.c include
// it at their end, after their own `quantize_block` and
// `iree_llm_blocks_vnni_packed_workgroup`).
//
// At most GROUP_ROWS rows of f32 x, k at most FUSED_ROWS_K: each workgroup
// rounds the rows into its stack and multiplies, so a decode step's product
// is one dispatch instead of two (the emitter gives it one workgroup a
// thread), and its sums are those of the two-dispatch path bit for bit.

// The most values of k: 64 blocks of a group of 8 rows, 22.5 KB of a
// worker's stack (IREE's default stack is 128 KB).
#define FUSED_ROWS_K 2048

void iree_llm_blocks_vnni_rows_workgroup(const float* restrict x, size_t x_offset,
                                         const uint8_t* restrict q, size_t q_offset,
                                         const uint16_t* restrict d, size_t d_offset,
                                         const uint16_t* restrict m, size_t m_offset,
                                         float* restrict y, size_t y_offset, size_t rows,
                                         size_t n, size_t k, size_t format, size_t first,
                                         size_t per) {
  if (rows > GROUP_ROWS || k > FUSED_ROWS_K || k % 32 != 0) __builtin_trap();
  int8_t xq[FUSED_ROWS_K / 32 * GROUP_BLOCK_BYTES] __attribute__((aligned(64)));
  quantize_rows(x + x_offset, xq, rows, k, 0, GROUP_ROWS, quantize_block);
  iree_llm_blocks_vnni_packed_workgroup(xq, 0, q, q_offset, d, d_offset, m, m_offset, y, y_offset,
                                        rows, n, k, format, first, per);
}
