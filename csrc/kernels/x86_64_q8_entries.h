// The 8-bit form's exported kernels, shared by both builds of the packed
// product (x86_64_avx512_vnni.c and x86_64_avx2_q8.c include this at their
// end, after their own `quantize_block` and `packed_product`).
//
// Besides the products they take the work of the dispatches around a
// product in a Llama layer, each of which cost a step a dispatch (IREE's
// local-task hands every dispatch's workgroups out and waits for all of
// them): the RMSNorm before the q/k/v, gate/up and head products (`norm`:
// each row is normalized as it is rounded, x86_64_q8_rows.h's
// quantize_rows) and the residual added after the o and down products
// (`res`: y = res + x . W^T, added to each workgroup's share of y once its
// sums are done, the same f32 additions as a dispatch of their own).
// Flags say which of `norm` and `res` are given; an operand that is not
// stands for one that is (any f32 tensor) and is not read.

// The most values of k: 64 blocks of a group of 8 rows, 22.5 KB of a
// worker's stack (IREE's default stack is 128 KB).
#define FUSED_ROWS_K 2048

// float_from_bits and add_residual are in x86_64_q8_rows.h, which the exact
// kernels' fused product shares.

// Rows [first, first + per) of x (fewer at the end; `per` is a multiple of
// GROUP_ROWS), normalized by `norm` when `has_norm`, rounded into `out`.
void iree_llm_quantize_rows_workgroup(const float* restrict x, size_t x_offset,
                                      const float* restrict norm, size_t norm_offset,
                                      int8_t* restrict out, size_t out_offset, size_t rows,
                                      size_t k, size_t eps_bits, size_t has_norm, size_t first,
                                      size_t per) {
  quantize_rows(x + x_offset, has_norm ? norm + norm_offset : 0, float_from_bits(eps_bits),
                out + out_offset, rows, k, first, per, quantize_block);
}

// x: `rows` rows rounded by iree_llm_quantize_rows_workgroup; q, d, m: W
// [n, k] in Q8_0, Q4_0 or Q4_1 blocks in the VNNI kernel's layout (only
// Q4_1 has offsets; for the others m is d again and not read); res [rows, n]
// f32 when `has_res`; y [rows, n] f32. Weight rows [first, first + per); n
// is a multiple of 16 (the emitter checks).
void iree_llm_blocks_vnni_packed_workgroup(const int8_t* restrict x, size_t x_offset,
                                           const uint8_t* restrict q, size_t q_offset,
                                           const uint16_t* restrict d, size_t d_offset,
                                           const uint16_t* restrict m, size_t m_offset,
                                           const float* restrict res, size_t res_offset,
                                           float* restrict y, size_t y_offset, size_t rows,
                                           size_t n, size_t k, size_t format, size_t has_res,
                                           size_t first, size_t per) {
  packed_product(x + x_offset, q + q_offset, d + d_offset, m + m_offset, y + y_offset, rows, n,
                 k, format, first, per);
  if (has_res) add_residual(y + y_offset, res + res_offset, rows, n, first, per);
}

// ---- Live rows: a chunk padded to its graph's size -------------------------
//
// A prompt's chunk graph has a fixed number of rows, and its real tokens
// (with a carrying step's decode rows first) are the leading `live` of them
// (an i32 the graph computed, as the bf16 panel kernels take it). These two
// entries round and multiply only those rows, so a 33-token prompt run as a
// 48-row chunk multiplies 33 rows, not 48. The rest of the product is zeros
// (finite, like the panel kernels' padding), and the real rows' sums are
// the same bits as without `live`: each row of x goes through the same
// instructions whatever rows share the call. The count is read as the panel
// kernels read it (x86_64_live_rows.h).

#include "x86_64_live_rows.h"

// y[r, first..first + per) = 0 for rows [from, rows) of y [rows, n].
static inline void q8_zero_rows(float* y, size_t from, size_t rows, size_t n, size_t first,
                                size_t per) {
  const size_t last = first + per < n ? first + per : n;
  for (size_t r = from; r < rows; ++r)
    for (size_t i = first; i < last; ++i) y[r * n + i] = 0.0f;
}

// iree_llm_quantize_rows_workgroup over the first `live` rows: their groups
// are written (a group's rows past `live` as zeros), later groups are not,
// as the live product below never reads them.
void iree_llm_quantize_rows_live_workgroup(const float* restrict x, size_t x_offset,
                                           const float* restrict norm, size_t norm_offset,
                                           const int32_t* restrict live, size_t live_offset,
                                           int8_t* restrict out, size_t out_offset, size_t rows,
                                           size_t k, size_t eps_bits, size_t has_norm,
                                           size_t first, size_t per) {
  const size_t used = live_rows(live + live_offset, rows);
  quantize_rows(x + x_offset, has_norm ? norm + norm_offset : 0, float_from_bits(eps_bits),
                out + out_offset, used, k, first, per, quantize_block);
}

// iree_llm_blocks_vnni_packed_workgroup over the first `live` rows of x
// (rounded by the live entry above); y's other rows are zeros.
void iree_llm_blocks_vnni_packed_live_workgroup(
    const int8_t* restrict x, size_t x_offset, const uint8_t* restrict q, size_t q_offset,
    const uint16_t* restrict d, size_t d_offset, const uint16_t* restrict m, size_t m_offset,
    const int32_t* restrict live, size_t live_offset, const float* restrict res,
    size_t res_offset, float* restrict y, size_t y_offset, size_t rows, size_t n, size_t k,
    size_t format, size_t has_res, size_t first, size_t per) {
  const size_t used = live_rows(live + live_offset, rows);
  packed_product(x + x_offset, q + q_offset, d + d_offset, m + m_offset, y + y_offset, used, n,
                 k, format, first, per);
  if (has_res) add_residual(y + y_offset, res + res_offset, used, n, first, per);
  q8_zero_rows(y + y_offset, used, rows, n, first, per);
}

// At most GROUP_ROWS rows of f32 x, k at most FUSED_ROWS_K: each workgroup
// normalizes (when `has_norm`) and rounds the rows into its stack and
// multiplies, so a decode step's product is one dispatch instead of two to
// four (the emitter gives it one workgroup a thread), and its sums are
// those of the quantize_rows and packed path bit for bit.
void iree_llm_blocks_vnni_rows_workgroup(const float* restrict x, size_t x_offset,
                                         const float* restrict norm, size_t norm_offset,
                                         const uint8_t* restrict q, size_t q_offset,
                                         const uint16_t* restrict d, size_t d_offset,
                                         const uint16_t* restrict m, size_t m_offset,
                                         const float* restrict res, size_t res_offset,
                                         float* restrict y, size_t y_offset, size_t rows,
                                         size_t n, size_t k, size_t format, size_t eps_bits,
                                         size_t has_norm, size_t has_res, size_t first,
                                         size_t per) {
  if (rows > GROUP_ROWS || k > FUSED_ROWS_K || k % 32 != 0) __builtin_trap();
  // quantize_rows writes the rows the product reads (the group's rows past
  // `rows` as zeros), which GCC cannot see through its loops.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  int8_t xq[FUSED_ROWS_K / 32 * GROUP_BLOCK_BYTES] __attribute__((aligned(64)));
  quantize_rows(x + x_offset, has_norm ? norm + norm_offset : 0, float_from_bits(eps_bits), xq,
                rows, k, 0, GROUP_ROWS, quantize_block);
  packed_product(xq, q + q_offset, d + d_offset, m + m_offset, y + y_offset, rows, n, k, format,
                 first, per);
#pragma GCC diagnostic pop
  if (has_res) add_residual(y + y_offset, res + res_offset, rows, n, first, per);
}
