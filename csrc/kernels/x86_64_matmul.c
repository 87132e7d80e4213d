// Hand-written x86-64 (AVX2, FMA, F16C) kernel linked into compiled modules
// as a custom dispatch: `y = x . W^T` for a weight W kept in 32-element
// blocks on the device (src/emit/kernels/blocks.rs and bf16.rs emit the calls).
//
// Why it exists: for a few rows of x (decode steps, a prompt's last token)
// IREE 3.13's generated code for the same contraction reduces every block of
// 32 horizontally into a scalar chain, and for more rows it needs an f32
// copy of the weights on the device (4.5 bytes per weight beside the
// blocks' 0.6). Here one row sums q * x per block and scales once per block,
// reading 4-bit values packed; a few rows dequantize each block once and
// share it; more (from PANEL_FROM rows: a B=8 step, a prompt's chunk, and
// with AVX2 a B=4 step) multiply a dequantized panel of a few weight rows
// in register tiles (docs/performance.md has the side-by-side figures).
//
// Layout (the GGUF loader's, src/gguf/blocks.rs): W [n, k] is q (Q8_0: int8
// [n, k/32, 32]; Q4_0 and Q4_1: the file's 16 nibble bytes per block), d
// (f16 scale [n, k/32]) and, for Q4_1, m (f16 offset [n, k/32]); w = q * d
// (+ m), Q4_0's nibbles less 8: the same f32 values as the dequantized copy.
// Built freestanding: no libc, nothing but registers and the four buffers.

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define INLINE static inline __attribute__((always_inline))

#include "x86_64_avx2_reduce.h"
// The block formats' codes, and the 8-bit form's rounding of x.
#include "x86_64_q8_rows.h"

// Bytes of one block's values (32 of them) in a weight row.
INLINE size_t block_bytes(const int format) { return format == Q8_0 ? 32 : 16; }

// ---- Vectors of f32 -----------------------------------------------------------
//
// The exact products are written once over `vec`, VLEN f32 lanes: 8 (AVX2)
// or, when build.rs compiles this file a second time with AVX-512 flags, 16.
// A zmm instruction does twice the work of a ymm one, and the one-row
// product is bound by instructions, not bytes (unpacking a block's nibbles
// and converting them takes more instructions than its loads), so on CPUs
// with full-width AVX-512 (Zen 5) the wider object reads blocks faster.
// Only the order of the f32 sums differs between the two.
#if defined(__AVX512F__)
#include "x86_64_avx512_sums.h"
#define VLEN 16
typedef __m512 vec;
#define v_zero _mm512_setzero_ps
#define v_load _mm512_loadu_ps
#define v_load_aligned _mm512_load_ps
#define v_store_aligned _mm512_store_ps
#define v_mul _mm512_mul_ps
#define v_add _mm512_add_ps
#define v_fmadd _mm512_fmadd_ps
#define v_set1 _mm512_set1_ps
#define v_hsum _mm512_reduce_add_ps
#define VEC_ALIGN 64
#else
#define VLEN 8
typedef __m256 vec;
#define v_zero _mm256_setzero_ps
#define v_load _mm256_loadu_ps
#define v_load_aligned _mm256_load_ps
#define v_store_aligned _mm256_store_ps
#define v_mul _mm256_mul_ps
#define v_add _mm256_add_ps
#define v_fmadd _mm256_fmadd_ps
#define v_set1 _mm256_set1_ps
#define v_hsum hsum8
#define VEC_ALIGN 32
#endif

// Vectors per block of 32 values.
#define VPB (32 / VLEN)

// VLEN bf16 values widened to f32 lanes.
INLINE vec widen_bf16(const uint16_t* p) {
#if VLEN == 16
  const __m256i h = _mm256_loadu_si256((const __m256i*)p);
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
#else
  const __m128i h = _mm_loadu_si128((const __m128i*)p);
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
#endif
}

// Eight int8 values widened to f32 lanes.
INLINE __m256 widen8(const int8_t* p) {
  return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i*)p)));
}

// Block j's 32 values q (before scale and offset; Q4_0's nibbles less 8
// are left to the caller) as VPB vectors of f32, in order. Nibble bytes
// hold values 0..16 in their low and 16..32 in their high halves.
INLINE void block_values(const int format, const void* q, size_t j, vec v[VPB]) {
#if VLEN == 16
  if (format == Q8_0) {
    const int8_t* b = (const int8_t*)q + 32 * j;
    v[0] = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i*)b)));
    v[1] = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i*)(b + 16))));
    return;
  }
  // Each lane's nibble as f32 by a permute of 0..15, which reads only the
  // low 4 bits of its index: one instruction for the low half, two for the
  // high, where masking and converting took two each (the same values).
  const __m512 iota = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  const __m512i bytes =
      _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)((const uint8_t*)q + 16 * j)));
  v[0] = _mm512_permutexvar_ps(bytes, iota);
  v[1] = _mm512_permutexvar_ps(_mm512_srli_epi32(bytes, 4), iota);
#else
  if (format == Q8_0) {
    const int8_t* b = (const int8_t*)q + 32 * j;
    for (int i = 0; i < 4; ++i) v[i] = widen8(b + 8 * i);
    return;
  }
  // One 128-bit load broadcast to both halves; a byte shuffle puts byte i
  // in lane i's low byte, then masking or shifting picks the nibble.
  const __m256i both =
      _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)((const uint8_t*)q + 16 * j)));
  const __m256i pick0 = _mm256_setr_epi8(0, -1, -1, -1, 1, -1, -1, -1, 2, -1, -1, -1, 3, -1, -1, -1,
                                         4, -1, -1, -1, 5, -1, -1, -1, 6, -1, -1, -1, 7, -1, -1, -1);
  const __m256i pick1 = _mm256_setr_epi8(8, -1, -1, -1, 9, -1, -1, -1, 10, -1, -1, -1, 11, -1, -1,
                                         -1, 12, -1, -1, -1, 13, -1, -1, -1, 14, -1, -1, -1, 15, -1,
                                         -1, -1);
  const __m256i low = _mm256_set1_epi32(0x0F);
  const __m256i e0 = _mm256_shuffle_epi8(both, pick0);
  const __m256i e1 = _mm256_shuffle_epi8(both, pick1);
  v[0] = _mm256_cvtepi32_ps(_mm256_and_si256(e0, low));
  v[1] = _mm256_cvtepi32_ps(_mm256_and_si256(e1, low));
  v[2] = _mm256_cvtepi32_ps(_mm256_srli_epi32(e0, 4));
  v[3] = _mm256_cvtepi32_ps(_mm256_srli_epi32(e1, 4));
#endif
}

// sum(q * x) over block j, as a vector of partial sums (Q4_0's values
// taken as plain nibbles: the -8 is the offsets' share below). Two chains
// keep the FMA latency off the critical path where there are four vectors.
INLINE vec block_dot(const int format, const void* q, size_t j, const float* xb) {
  vec v[VPB];
  block_values(format, q, j, v);
#if VLEN == 16
  return v_fmadd(v[1], v_load(xb + 16), v_mul(v[0], v_load(xb)));
#else
  __m256 s = _mm256_mul_ps(v[0], _mm256_loadu_ps(xb));
  __m256 t = _mm256_mul_ps(v[1], _mm256_loadu_ps(xb + 8));
  s = _mm256_fmadd_ps(v[2], _mm256_loadu_ps(xb + 16), s);
  t = _mm256_fmadd_ps(v[3], _mm256_loadu_ps(xb + 24), t);
  return _mm256_add_ps(s, t);
#endif
}

// One-row products work through k in chunks of CHUNK_BLOCKS blocks so that
// what they prepare per chunk (block sums, scales, quantized x) fits in a
// few kilobytes of stack; a chunk's share is added to y.
#define CHUNK_BLOCKS 128

// Blocks of x summed once per chunk (`xs`): with them the 4-bit formats'
// offsets cost one product per block, not one per value.
INLINE void block_sums(const float* x, size_t blocks, float* xs) {
  for (size_t j = 0; j < blocks; ++j) {
    const float* xb = x + 32 * j;
    vec s = v_load(xb);
    for (int i = 1; i < VPB; ++i) s = v_add(s, v_load(xb + VLEN * i));
    xs[j] = v_hsum(s);
  }
}

// f32 copies of `blocks` f16 scales (times xd[j] when xd is given). The
// block loops then broadcast a scale straight from memory, which costs a
// load instead of three vector instructions.
INLINE void widen_scales(const uint16_t* d, const float* xd, size_t blocks, float* ds) {
  size_t j = 0;
  for (; j + 8 <= blocks; j += 8) {
    __m256 v = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(d + j)));
    if (xd) v = _mm256_mul_ps(v, _mm256_loadu_ps(xd + j));
    _mm256_storeu_ps(ds + j, v);
  }
  for (; j < blocks; ++j) ds[j] = _cvtsh_ss(d[j]) * (xd ? xd[j] : 1.0f);
}

// sum_j c[j] * xs[j] for f16 c (offsets, or Q4_0's scales).
INLINE float dot_f16(const uint16_t* c, const float* xs, size_t blocks) {
  __m256 a = _mm256_setzero_ps();
  size_t j = 0;
  for (; j + 8 <= blocks; j += 8)
    a = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(c + j))),
                        _mm256_loadu_ps(xs + j), a);
  float s = hsum8(a);
  for (; j < blocks; ++j) s += _cvtsh_ss(c[j]) * xs[j];
  return s;
}

// The 4-bit formats' offsets' share of a row's product: Q4_1's
// sum_j m_j * xs_j, or for Q4_0 (values nibble - 8) -8 * sum_j d_j * xs_j.
INLINE float offsets_share(const int format, const uint16_t* d, const uint16_t* m,
                           const float* xs, size_t blocks) {
  if (format == Q4_1) return dot_f16(m, xs, blocks);
  if (format == Q4_0) return -8.0f * dot_f16(d, xs, blocks);
  return 0.0f;
}

// One weight row against one row of x over `blocks` blocks, exactly:
// sum_j d_j * sum(q_j * x_j) plus the offsets' share. Two accumulators take
// alternate blocks.
INLINE float row_dot(const int format, const float* x, const float* xs, size_t blocks,
                     const void* q, const uint16_t* d, const uint16_t* m) {
  float ds[CHUNK_BLOCKS];
  widen_scales(d, 0, blocks, ds);
  vec a0 = v_zero(), a1 = a0;
  size_t j = 0;
  for (; j + 2 <= blocks; j += 2) {
    a0 = v_fmadd(block_dot(format, q, j, x + 32 * j), v_set1(ds[j]), a0);
    a1 = v_fmadd(block_dot(format, q, j + 1, x + 32 * j + 32), v_set1(ds[j + 1]), a1);
  }
  if (j < blocks) a0 = v_fmadd(block_dot(format, q, j, x + 32 * j), v_set1(ds[j]), a0);
  return v_hsum(v_add(a0, a1)) + offsets_share(format, d, m, xs, blocks);
}

// ---- 8-bit activations (the opt-in fast form) ------------------------------
//
// With `q8_activations` set, up to Q8_ROWS rows of x (a one-sequence
// decode step, a prompt's last token, a B=4 step) have each block of 32
// values first rounded to int8 times one f32 scale (xd = max|x| / 127), and
// a block's product is an integer dot product: sum(q * xq) * d * xd. This
// is the form llama.cpp computes in; it is not exact (docs/performance.md
// gives the measured error), so it is an option and the exact form is the
// default. A B=4 step measured 1.2x faster this way than exact on Zen 1;
// from 8 rows the exact panel product (a dequantized block shared by all
// rows) is kept. Most 8-bit graphs no longer call this path: where the CPU
// has VNNI, or AVX2 and no AVX-512, block matrices in whole groups of 16
// rows go to the packed kernels (x86_64_avx512_vnni.c, x86_64_avx2_q8.c);
// it stays for the others and for CPUs with AVX-512 but no VNNI.

// x's blocks as int8 (xq), their scales (xd) and exact sums (xs), rounded
// as the packed kernels round them.
INLINE void quantize_x(const float* x, size_t blocks, int8_t* xq, float* xd, float* xs) {
  for (size_t j = 0; j < blocks; ++j) round_block_avx2(x + 32 * j, xq + 32 * j, xd + j, xs + j, 0);
}

// A block's 16 nibble bytes as 32 unsigned bytes in value order.
INLINE __m256i nibble_bytes(const uint8_t* p) {
  const __m128i b = _mm_loadu_si128((const __m128i*)p);
  const __m128i low = _mm_set1_epi8(0x0F);
  return _mm256_set_m128i(_mm_and_si128(_mm_srli_epi16(b, 4), low), _mm_and_si128(b, low));
}

// sum(q * xq) over one block as 8 int32 partial sums. vpmaddubsw multiplies
// unsigned by signed bytes: nibbles are unsigned already; Q8_0's signed
// values lend their sign to xq instead. Pair sums stay far below the int16
// limit (2 * 128 * 127).
INLINE __m256i block_dot_i8(const int format, const void* q, size_t j, const int8_t* xq) {
  const __m256i xv = _mm256_loadu_si256((const __m256i*)(xq + 32 * j));
  __m256i pairs;
  if (format == Q8_0) {
    const __m256i w = _mm256_loadu_si256((const __m256i*)((const int8_t*)q + 32 * j));
    pairs = _mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(xv, w));
  } else {
    pairs = _mm256_maddubs_epi16(nibble_bytes((const uint8_t*)q + 16 * j), xv);
  }
  return _mm256_madd_epi16(pairs, _mm256_set1_epi16(1));
}

// One weight row against one quantized row of x: sum_j d_j * xd_j *
// sum(q_j * xq_j) plus the offsets' share (from x's exact block sums).
INLINE float row_dot_q8(const int format, const int8_t* xq, const float* xd, const float* xs,
                        size_t blocks, const void* q, const uint16_t* d, const uint16_t* m) {
  float ds[CHUNK_BLOCKS];
  widen_scales(d, xd, blocks, ds);
  __m256 a0 = _mm256_setzero_ps(), a1 = a0;
  size_t j = 0;
  for (; j + 2 <= blocks; j += 2) {
    a0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(block_dot_i8(format, q, j, xq)),
                         _mm256_broadcast_ss(ds + j), a0);
    a1 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(block_dot_i8(format, q, j + 1, xq)),
                         _mm256_broadcast_ss(ds + j + 1), a1);
  }
  if (j < blocks)
    a0 = _mm256_fmadd_ps(_mm256_cvtepi32_ps(block_dot_i8(format, q, j, xq)),
                         _mm256_broadcast_ss(ds + j), a0);
  return hsum8(_mm256_add_ps(a0, a1)) + offsets_share(format, d, m, xs, blocks);
}

// A block's 32 weights as f32: q * d (+ m), Q4_0's nibbles less 8 first;
// dj and mj are the block's scale and offset already widened.
INLINE void dequantize_block_with(const int format, const void* q, size_t j, float dj, float mj,
                                  vec w[VPB]) {
  const vec dv = v_set1(dj);
  block_values(format, q, j, w);
  if (format == Q4_1) {
    const vec mv = v_set1(mj);
    for (int i = 0; i < VPB; ++i) w[i] = v_fmadd(w[i], dv, mv);
    return;
  }
  // Q4_0's nibbles less 8 (small integers: exact in f32).
  if (format == Q4_0)
    for (int i = 0; i < VPB; ++i) w[i] = v_add(w[i], v_set1(-8.0f));
  for (int i = 0; i < VPB; ++i) w[i] = v_mul(w[i], dv);
}

// The same, reading block j's f16 scale (and offset) itself.
INLINE void dequantize_block(const int format, const void* q, size_t j, const uint16_t* d,
                             const uint16_t* m, vec w[VPB]) {
  dequantize_block_with(format, q, j, _cvtsh_ss(d[j]), format == Q4_1 ? _cvtsh_ss(m[j]) : 0.0f,
                        w);
}

// One weight row against `rows` (2..7, a compile-time constant after
// inlining) rows of x [rows, k]: each block is dequantized once, then used
// by every row; writes y[r * ystride].
INLINE void weight_row(const int format, const int rows, const float* x, size_t k, const void* q,
                       const uint16_t* d, const uint16_t* m, float* y, size_t ystride) {
  const size_t blocks = k / 32;
  vec acc[7];
  for (int r = 0; r < rows; ++r) acc[r] = v_zero();
  for (size_t j = 0; j < blocks; ++j) {
    vec w[VPB];
    dequantize_block(format, q, j, d, m, w);
    for (int r = 0; r < rows; ++r) {
      const float* xb = x + r * k + 32 * j;
      vec s = v_mul(w[0], v_load(xb));
      for (int i = 1; i < VPB; ++i) s = v_fmadd(w[i], v_load(xb + VLEN * i), s);
      acc[r] = v_add(acc[r], s);
    }
  }
  for (int r = 0; r < rows; ++r) y[r * ystride] = v_hsum(acc[r]);
}

// Weight rows a one-row product fetches ahead of the row it multiplies.
// The hardware prefetcher alone left a B=1 step's products at 34 GB/s (C
// harness over SmolLM2's products, 2 threads: 2.50 ms; 8 rows ahead: 2.13
// ms; 4: 2.34; 16: no better than 8). Prefetches past the weight's end do
// not fault.
#define ROW_PREFETCH 8

// Row i's blocks [c, c + nb) (values, scales, offsets) into L1.
INLINE void prefetch_row(const int format, const void* q, const uint16_t* d, const uint16_t* m,
                         size_t blocks, size_t i, size_t c, size_t nb) {
  const size_t per_block = block_bytes(format);
  const char* row = (const char*)q + (i * blocks + c) * per_block;
  for (size_t b = 0; b < nb * per_block; b += 64) _mm_prefetch(row + b, _MM_HINT_T0);
  _mm_prefetch((const char*)(d + i * blocks + c), _MM_HINT_T0);
  if (format == Q4_1) _mm_prefetch((const char*)(m + i * blocks + c), _MM_HINT_T0);
}

// Weight rows [first, last) of one format against one row of x [k]; y [n].
INLINE void one_row(const int format, const float* x, size_t k, const void* q, const uint16_t* d,
                    const uint16_t* m, float* y, size_t first, size_t last) {
  const size_t blocks = k / 32, per_block = format == Q8_0 ? 32 : 16;
  float xs[CHUNK_BLOCKS];
  for (size_t c = 0; c < blocks; c += CHUNK_BLOCKS) {
    const size_t nb = blocks - c < CHUNK_BLOCKS ? blocks - c : CHUNK_BLOCKS;
    if (format != Q8_0) block_sums(x + 32 * c, nb, xs);
    for (size_t i = first; i < last; ++i) {
      prefetch_row(format, q, d, m, blocks, i + ROW_PREFETCH, c, nb);
      const float part = row_dot(format, x + 32 * c, xs, nb,
                                 (const uint8_t*)q + (i * blocks + c) * per_block,
                                 d + i * blocks + c, m ? m + i * blocks + c : 0);
      y[i] = c == 0 ? part : y[i] + part;
    }
  }
}

// The same with 8-bit activations for up to Q8_ROWS rows of x [rows, k];
// y [rows, n]. Every row of x is rounded once per chunk of Q8_CHUNK blocks
// (the same chunks for any number of rows, so a row's result does not
// depend on the rows beside it), then each weight row's blocks, read once,
// meet every row of x while they are in L1.
#define Q8_ROWS 7
#define Q8_CHUNK 64
INLINE void rows_q8(const int format, const float* x, size_t rows, size_t k, const void* q,
                    const uint16_t* d, const uint16_t* m, float* y, size_t n, size_t first,
                    size_t last) {
  const size_t blocks = k / 32, per_block = format == Q8_0 ? 32 : 16;
  int8_t xq[Q8_ROWS][Q8_CHUNK * 32] __attribute__((aligned(64)));
  float xd[Q8_ROWS][Q8_CHUNK], xs[Q8_ROWS][Q8_CHUNK];
  for (size_t c = 0; c < blocks; c += Q8_CHUNK) {
    const size_t nb = blocks - c < Q8_CHUNK ? blocks - c : Q8_CHUNK;
    for (size_t r = 0; r < rows; ++r) quantize_x(x + r * k + 32 * c, nb, xq[r], xd[r], xs[r]);
    for (size_t i = first; i < last; ++i) {
      const uint8_t* qi = (const uint8_t*)q + (i * blocks + c) * per_block;
      const uint16_t* di = d + i * blocks + c;
      const uint16_t* mi = m ? m + i * blocks + c : 0;
      for (size_t r = 0; r < rows; ++r) {
        const float part = row_dot_q8(format, xq[r], xd[r], xs[r], nb, qi, di, mi);
        y[r * n + i] = c == 0 ? part : y[r * n + i] + part;
      }
    }
  }
}

// ---- Many rows (a prompt's chunk) -----------------------------------------
//
// From 8 rows on a panel of PANEL_ROWS weight rows is dequantized once (over
// up to PANEL_BLOCKS blocks of k, a few kilobytes that stay in L1) and every
// row of x is then multiplied by it in tiles of PANEL_ROWS weight rows by
// TILE_X rows of x: with AVX2 3 by 4 (12 accumulators, 3 weight and 1 x
// register: 12 FMAs per 7 loads), with AVX-512's 32 registers 6 by 4 (24
// accumulators: 24 FMAs per 10 loads). For 128 rows the AVX2 form ran at 84
// GFLOP/s on one Zen 3 core, and for 8 rows of a step's streamed Q4_0/Q4_1
// weights 7% faster than the register form above (which stays 11% faster
// for 2 rows); docs/performance.md. The sums are the same products as the
// dequantized copy's matmul, in another order.
//
// AVX-512 took 3 by 8 before: each x vector fed 3 products, and with the
// panel in L1 the tiles' x came from L2 at about 40 bytes a cycle. 6 by 4
// feeds each x vector to 6 products, half the reads of x (C harness, Q4_1,
// 128 rows, one thread, fastest of 5 runs: 11.3 -> 10.5 cycles per 16 FMAs
// at k = 576, 11.4 -> 9.6 at k = 1536).
#define PANEL_ROWS (VLEN == 16 ? 6 : 3)
// With AVX-512 a span of 24 blocks: 8 rows of x over it (24 KB) and a
// panel (9 KB) stay in an L1 of 48 KB, where spans of 64 blocks (k = 1536
// in one) left the tiles reading x from L2: on an Ice Lake guest (C
// harness, Q4_1, 128 rows, one thread, the fastest of 5 runs) 11.0 against
// 13.5 cycles per 16 FMAs at k = 1536, 11.2 against 15.2 at 2048.
#define PANEL_BLOCKS (VLEN == 16 ? 24 : 64)
#define TILE_X 4
// Rows of x from which the panel form is taken. With AVX2 it beat the
// register form (weight_row) from 3 rows on Zen 1 (C harness, SmolLM2's
// Q4_1 layers, 2 threads, three rounds: 2 rows 22.5 against 24.3-24.6 ms,
// 3 rows 26.8-27.1 against 25.3-25.4, 4 rows 32.7-33.0 against 28.3-28.4,
// 7 rows 43.2-47.8 against 36.9-42.6); with AVX-512 the panel paid from 8
// (docs/performance.md, fourth session).
#define PANEL_FROM (VLEN == 16 ? 8 : 3)

// Weight rows [i0, i0 + wr) over blocks [c0, c0 + nb) as f32, row a at
// panel + a * PANEL_BLOCKS * 32. A row's scales (and offsets) are widened
// eight at a time first. The next panel's rows are prefetched on the way:
// without that a B=8 step's panels waited on memory for about a sixth of
// their time (C harness over SmolLM2's products, 8 rows, 2 threads: 9.9 ->
// 8.4 ms), as the hardware prefetcher follows the short rows late.
INLINE void dequantize_panel(const int format, const void* q, size_t row_bytes, const uint16_t* d,
                             const uint16_t* m, size_t blocks, size_t i0, int wr, size_t c0,
                             size_t nb, float* panel) {
  for (int a = 0; a < wr; ++a) {
    const uint8_t* qa = (const uint8_t*)q + (i0 + a) * row_bytes;
    const uint16_t* da = d + (i0 + a) * blocks + c0;
    const uint16_t* ma = m ? m + (i0 + a) * blocks + c0 : 0;
    float ds[PANEL_BLOCKS], ms[PANEL_BLOCKS];
    widen_scales(da, 0, nb, ds);
    if (format == Q4_1) widen_scales(ma, 0, nb, ms);
    prefetch_row(format, q, d, m, blocks, i0 + a + PANEL_ROWS, c0, nb);  // the next panel's row a
    float* p = panel + a * PANEL_BLOCKS * 32;
    for (size_t j = 0; j < nb; ++j) {
      vec w[VPB];
      dequantize_block_with(format, qa, c0 + j, ds[j], format == Q4_1 ? ms[j] : 0.0f, w);
      for (int i = 0; i < VPB; ++i) v_store_aligned(p + 32 * j + VLEN * i, w[i]);
    }
  }
}

// The sums of a register tile's accumulators (weight row a, x row r in
// acc[a * stride + r]): y[r * n + a] set, or added to when `accumulate`.
// Every tile form below ends here.
INLINE void store_tile_sums(const int WR, const int XR, const vec* acc, const int stride,
                            float* y, size_t n, int accumulate) {
#if VLEN == 16
  // Eight vectors are reduced together: a weight row's 8 rows of x, or
  // two weight rows' 4 (each lane's sum is taken the same way either way).
  if (XR == 8) {
    for (int a = 0; a < WR; ++a) store_sums8(acc + a * stride, y + a, n, accumulate);
    return;
  }
  if (XR == 4) {
    for (int a = 0; a < WR; a += 2) {
      __m512 v[8];
      for (int r = 0; r < 4; ++r) {
        v[r] = acc[a * stride + r];
        v[4 + r] = a + 1 < WR ? acc[(a + 1) * stride + r] : _mm512_setzero_ps();
      }
      float sums[8];
      _mm256_storeu_ps(sums, sums8(v));
      for (int b = 0; b < 2 && a + b < WR; ++b)
        for (int r = 0; r < 4; ++r) {
          float* out = y + r * n + a + b;
          *out = accumulate ? *out + sums[4 * b + r] : sums[4 * b + r];
        }
    }
    return;
  }
#endif
  for (int r = 0; r < XR; ++r)
    for (int a = 0; a < WR; ++a) {
      const float v = v_hsum(acc[a * stride + r]);
      y[r * n + a] = accumulate ? y[r * n + a] + v : v;
    }
}

// WR panel rows (<= PANEL_ROWS) times XR rows of x (<= TILE_X) over `len`
// values; y[r * n + a] is set, or added to when `accumulate`.
INLINE void panel_tile(const int WR, const int XR, const float* panel, const float* x, size_t k,
                       size_t len, float* y, size_t n, int accumulate) {
  vec acc[PANEL_ROWS][TILE_X];
  for (int a = 0; a < WR; ++a)
    for (int r = 0; r < XR; ++r) acc[a][r] = v_zero();
  for (size_t e = 0; e < len; e += VLEN) {
    vec w[PANEL_ROWS];
    for (int a = 0; a < WR; ++a) w[a] = v_load_aligned(panel + a * PANEL_BLOCKS * 32 + e);
    for (int r = 0; r < XR; ++r) {
      vec xv = v_load(x + r * k + e);
      // Kept in a register for its WR products: GCC otherwise folds the
      // load into each FMA, three loads where one does, and the tile
      // becomes bound by loads (harness, 8 rows: 9.4 -> 7.8 ms a step).
      __asm__("" : "+v"(xv));
      for (int a = 0; a < WR; ++a) acc[a][r] = v_fmadd(w[a], xv, acc[a][r]);
    }
  }
  store_tile_sums(WR, XR, &acc[0][0], TILE_X, y, n, accumulate);
}

// Each tile shape is a function of its own: inlined into the kernel's three
// format branches, the register allocator spilled accumulators in one of
// them (24 loads per 12 FMAs instead of 7).
#define PANEL_TILE_FN(WR, XR)                                                               \
  static __attribute__((noinline)) void panel_tile_##WR##x##XR(                            \
      const float* panel, const float* x, size_t k, size_t len, float* y, size_t n, int acc) { \
    panel_tile(WR, XR, panel, x, k, len, y, n, acc);                                        \
  }
#define PANEL_TILE_FNS(WR) \
  PANEL_TILE_FN(WR, 1) PANEL_TILE_FN(WR, 2) PANEL_TILE_FN(WR, 3) PANEL_TILE_FN(WR, 4)
PANEL_TILE_FNS(1) PANEL_TILE_FNS(2) PANEL_TILE_FNS(3)
#if VLEN == 16
PANEL_TILE_FNS(4) PANEL_TILE_FNS(5) PANEL_TILE_FNS(6)
#endif

#define PANEL_TILE(WR, XR) \
  case WR * 16 + XR: panel_tile_##WR##x##XR(panel, xr, k, nb * 32, yr, n, c > 0); break;
#define PANEL_TILES(WR) PANEL_TILE(WR, 1) PANEL_TILE(WR, 2) PANEL_TILE(WR, 3) PANEL_TILE(WR, 4)
#if VLEN == 16
#define PANEL_TILES_WIDE PANEL_TILES(4) PANEL_TILES(5) PANEL_TILES(6)
#else
#define PANEL_TILES_WIDE
#endif

// Bytes of x one pass over a workgroup's panels reads: rows of x are taken
// in groups that fit in L2 with room to spare, so that every panel finds
// them there (128 rows of a 1536-wide x, 786 KB, came from L3 and ran at
// three quarters of the speed of a group that fits).
#define X_GROUP_BYTES (192 * 1024)
// A group's whole rows, which every panel of a workgroup passes over: at
// most this many bytes of them. With AVX-512's spans of 24 blocks the
// first bound alone took 64 rows of a k = 8192 x (2 MB) and ran at half
// the speed of 24 rows (C harness, 128 rows, Q4_1, one thread).
#define X_GROUP_ROWS_BYTES (768 * 1024)

// Weight rows [first, last) against all `rows` rows of x [rows, k]; y [rows, n].
INLINE void many_rows(const int format, const float* x, size_t rows, size_t k, const void* q,
                      const uint16_t* d, const uint16_t* m, float* y, size_t n, size_t first,
                      size_t last) {
  const size_t blocks = k / 32, row_bytes = blocks * block_bytes(format);
  const size_t chunk = (blocks < PANEL_BLOCKS ? blocks : PANEL_BLOCKS) * 32 * sizeof(float);
  size_t group = X_GROUP_BYTES / chunk / TILE_X * TILE_X;
  const size_t whole_rows = X_GROUP_ROWS_BYTES / (k * sizeof(float)) / TILE_X * TILE_X;
  if (group > whole_rows) group = whole_rows;
  if (group < 16) group = 16;
  float panel[PANEL_ROWS * PANEL_BLOCKS * 32] __attribute__((aligned(VEC_ALIGN)));
  for (size_t g = 0; g < rows; g += group) {
    const size_t g_end = rows - g < group ? rows : g + group;
    for (size_t i = first; i < last; i += PANEL_ROWS) {
      const int wr = last - i < PANEL_ROWS ? (int)(last - i) : PANEL_ROWS;
      for (size_t c = 0; c < blocks; c += PANEL_BLOCKS) {
        const size_t nb = blocks - c < PANEL_BLOCKS ? blocks - c : PANEL_BLOCKS;
        dequantize_panel(format, q, row_bytes, d, m, blocks, i, wr, c, nb, panel);
        for (size_t r = g; r < g_end; r += TILE_X) {
          const int xn = g_end - r < TILE_X ? (int)(g_end - r) : TILE_X;
          const float* xr = x + r * k + 32 * c;
          float* yr = y + r * n + i;
          switch (wr * 16 + xn) {
            PANEL_TILES(1) PANEL_TILES(2) PANEL_TILES(3) PANEL_TILES_WIDE
          }
        }
      }
    }
  }
}

#if VLEN == 16
// ---- Eight or four rows (a B=8 or B=4 decode step), AVX-512 -----------------
//
// With exactly one tile of x rows a panel is read once, so writing it to L1
// and reading it back only costs: perf on a C harness of a SmolLM2 B=8
// step's products put 41% of the kernel's time in dequantize_panel, a
// phase of its own in which the FMA pipes wait. Here each step of a tile
// dequantizes 16 values of each of its weight rows in registers (the values
// dequantize_block_with gives) and feeds them straight to the FMAs, so the
// two overlap. The products and their order are the panel tile's, so the
// results are the same bit for bit. Harness, 8 rows, 2 threads, medians of
// five alternating runs: 7.94 -> 7.07 ms; tiles of 3 weight rows spilled
// accumulators (7.34 ms).
//
// Four rows took the register form (weight_row): each block dequantized
// once, then two products and an add a row. As a tile of 4 weight rows by
// 4 rows of x it runs at about twice the speed (C harness, Q4_1, k = 576,
// one thread, weights in L1, fastest of 4 runs: 32.9 -> 15.5 cycles per 16
// FMAs), where before a B=4 step's products cost more than a B=8 step's.

// Weight rows a tile prefetches ahead of its own: four (two tiles at 8
// rows; harness as above, five rounds: one tile 7.30, two 7.22, four 7.23
// ms).
#define FUSED_AHEAD 4

// Rows [0, XR) of x over blocks [c, c + nb) as xi[((2j + h) * XR + r) * 16]:
// half h of block j of every row, one vector after the other.
INLINE void interleave_rows(const int XR, const float* x, size_t k, size_t c, size_t nb,
                            float* xi) {
  for (size_t j = 0; j < nb; ++j)
    for (int h = 0; h < 2; ++h)
      for (int r = 0; r < XR; ++r)
        _mm512_store_ps(xi + ((2 * j + h) * XR + r) * 16,
                        _mm512_loadu_ps(x + r * k + 32 * (c + j) + 16 * h));
}

// Values [16h, 16h + 16) of block j of a Q8_0 weight row, as
// dequantize_block_with computes them.
INLINE __m512 q8_half(const int8_t* q, size_t j, int h, float dj) {
  const __m128i b = _mm_loadu_si128((const __m128i*)(q + 32 * j + 16 * h));
  return _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(b)), _mm512_set1_ps(dj));
}

// A 4-bit block's sixteen possible values, what dequantize_block_with
// makes of nibble v (Q4_1: v * d + m; Q4_0: (v - 8) * d): the same
// operations on the same operands, so a value looked up in it is the same
// bits. A block's 32 values are then two permutes of it, which take the
// low nibble of each lane's index (so the low half needs no mask), where
// each half took a conversion and an FMA of its own.
INLINE __m512 nibble_table(const int format, float dj, float mj) {
  const __m512 v = _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  if (format == Q4_1) return _mm512_fmadd_ps(v, _mm512_set1_ps(dj), _mm512_set1_ps(mj));
  return _mm512_mul_ps(_mm512_add_ps(v, _mm512_set1_ps(-8.0f)), _mm512_set1_ps(dj));
}

// Weight rows a tile takes: with 8 rows of x 2 (16 accumulators), with 4
// rows of x 4.
#define TILE_WEIGHT_ROWS(XR) ((XR) == 8 ? 2 : 4)
#define MAX_TILE_WEIGHT_ROWS 4

// WR weight rows (q: the first one's blocks from c0; row stride row_bytes;
// scales ds and offsets ms at stride PANEL_BLOCKS) times XR (8 or 4) rows
// of x (xi, interleaved from block c0) over nb blocks; y[r * n + a] set,
// or added to when `accumulate`.
INLINE void fused_tile(const int format, const int WR, const int XR, const uint8_t* q,
                       size_t row_bytes, const float* ds, const float* ms, size_t nb,
                       const float* xi, float* y, size_t n, int accumulate) {
  __m512 acc[MAX_TILE_WEIGHT_ROWS][8];
  for (int a = 0; a < WR; ++a)
    for (int r = 0; r < XR; ++r) acc[a][r] = _mm512_setzero_ps();
  for (size_t j = 0; j < nb; ++j) {
    __m512i nibbles[MAX_TILE_WEIGHT_ROWS];
    __m512 table[MAX_TILE_WEIGHT_ROWS];
    if (format != Q8_0)
      for (int a = 0; a < WR; ++a) {
        nibbles[a] =
            _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i*)(q + a * row_bytes + 16 * j)));
        table[a] = nibble_table(format, ds[a * PANEL_BLOCKS + j],
                                format == Q4_1 ? ms[a * PANEL_BLOCKS + j] : 0.0f);
      }
    for (int h = 0; h < 2; ++h) {
      __m512 w[MAX_TILE_WEIGHT_ROWS];
      for (int a = 0; a < WR; ++a)
        w[a] = format == Q8_0 ? q8_half((const int8_t*)q + a * row_bytes, j, h,
                                        ds[a * PANEL_BLOCKS + j])
                              : _mm512_permutexvar_ps(
                                    h == 0 ? nibbles[a] : _mm512_srli_epi32(nibbles[a], 4),
                                    table[a]);
      for (int r = 0; r < XR; ++r) {
        __m512 xv = _mm512_load_ps(xi + ((2 * j + h) * XR + r) * 16);
        __asm__("" : "+v"(xv));  // one load for WR products (see panel_tile)
        for (int a = 0; a < WR; ++a) acc[a][r] = _mm512_fmadd_ps(w[a], xv, acc[a][r]);
      }
    }
  }
  store_tile_sums(WR, XR, &acc[0][0], 8, y, n, accumulate);
}

#define FUSED_TILE_FN(FORMAT, WR, XR)                                                          \
  static __attribute__((noinline)) void fused_tile_##FORMAT##_##WR##x##XR(                     \
      const uint8_t* q, size_t row_bytes, const float* ds, const float* ms, size_t nb,         \
      const float* xi, float* y, size_t n, int acc) {                                          \
    fused_tile(FORMAT, WR, XR, q, row_bytes, ds, ms, nb, xi, y, n, acc);                       \
  }
#define FUSED_TILE_FNS(FORMAT)                                                          \
  FUSED_TILE_FN(FORMAT, 1, 8) FUSED_TILE_FN(FORMAT, 2, 8) FUSED_TILE_FN(FORMAT, 1, 4) \
  FUSED_TILE_FN(FORMAT, 2, 4) FUSED_TILE_FN(FORMAT, 3, 4) FUSED_TILE_FN(FORMAT, 4, 4)
FUSED_TILE_FNS(Q8_0) FUSED_TILE_FNS(Q4_0) FUSED_TILE_FNS(Q4_1)

#define FUSED_TILES(FORMAT)                                        \
  switch (wr * 16 + XR) {                                          \
    case 1 * 16 + 8: fused_tile_##FORMAT##_1x8(FUSED_ARGS); break; \
    case 2 * 16 + 8: fused_tile_##FORMAT##_2x8(FUSED_ARGS); break; \
    case 1 * 16 + 4: fused_tile_##FORMAT##_1x4(FUSED_ARGS); break; \
    case 2 * 16 + 4: fused_tile_##FORMAT##_2x4(FUSED_ARGS); break; \
    case 3 * 16 + 4: fused_tile_##FORMAT##_3x4(FUSED_ARGS); break; \
    default: fused_tile_##FORMAT##_4x4(FUSED_ARGS); break;         \
  }

// Weight rows [first, last) against XR (8: a B=8 decode step, or 4: a B=4
// one) rows of x [XR, k]; y [XR, n]. For each span of PANEL_BLOCKS blocks
// of k (the panel form's spans, so at 8 rows the sums are the same), the
// rows of x are interleaved on the stack (24 KB at 8 rows), so that the
// tile reads x through one pointer (with eight row pointers GCC kept some
// on the stack and reloaded them every block), and every tile of weight
// rows passes over them; a row's scales (and offsets) are widened for the
// span and the rows FUSED_AHEAD ahead prefetched, as dequantize_panel does.
INLINE void tile_rows(const int format, const int XR, const float* x, size_t k, const void* q,
                      const uint16_t* d, const uint16_t* m, float* y, size_t n, size_t first,
                      size_t last) {
  const size_t blocks = k / 32, row_bytes = blocks * block_bytes(format);
  const int WR = TILE_WEIGHT_ROWS(XR);
  float xi[8 * PANEL_BLOCKS * 32] __attribute__((aligned(64)));
  float ds[MAX_TILE_WEIGHT_ROWS * PANEL_BLOCKS], ms[MAX_TILE_WEIGHT_ROWS * PANEL_BLOCKS];
  for (size_t c = 0; c < blocks; c += PANEL_BLOCKS) {
    const size_t nb = blocks - c < PANEL_BLOCKS ? blocks - c : PANEL_BLOCKS;
    interleave_rows(XR, x, k, c, nb, xi);
    for (size_t i = first; i < last; i += WR) {
      const int wr = last - i < (size_t)WR ? (int)(last - i) : WR;
      for (int a = 0; a < wr; ++a) {
        widen_scales(d + (i + a) * blocks + c, 0, nb, ds + a * PANEL_BLOCKS);
        if (format == Q4_1) widen_scales(m + (i + a) * blocks + c, 0, nb, ms + a * PANEL_BLOCKS);
        prefetch_row(format, q, d, m, blocks, i + a + FUSED_AHEAD, c, nb);
      }
      const uint8_t* qi = (const uint8_t*)q + i * row_bytes + c * block_bytes(format);
#define FUSED_ARGS qi, row_bytes, ds, ms, nb, xi, y + i, n, c > 0
      if (format == Q8_0) {
        FUSED_TILES(Q8_0)
      } else if (format == Q4_0) {
        FUSED_TILES(Q4_0)
      } else {
        FUSED_TILES(Q4_1)
      }
#undef FUSED_ARGS
    }
  }
}
#define TILED_ROWS(FORMAT)                                      \
  if (rows == 8) {                                              \
    tile_rows(FORMAT, 8, x, k, q, d, m, y, n, first, last);     \
    return;                                                     \
  }                                                             \
  if (rows == 4) {                                              \
    tile_rows(FORMAT, 4, x, k, q, d, m, y, n, first, last);     \
    return;                                                     \
  }
#else
#define TILED_ROWS(FORMAT)
#endif

#define WEIGHT_ROWS(FORMAT, ROWS)                                                       \
  for (size_t i = first; i < last; ++i)                                                 \
    weight_row(FORMAT, ROWS, x, k, (const uint8_t*)q + i * row_bytes, d + i * blocks, \
               m ? m + i * blocks : 0, y + i, n);

#define ALL_ROWS(FORMAT)                                 \
  if (q8_activations && rows <= Q8_ROWS) {               \
    rows_q8(FORMAT, x, rows, k, q, d, m, y, n, first, last); \
    return;                                              \
  }                                                      \
  TILED_ROWS(FORMAT)                                      \
  if (rows >= PANEL_FROM) {                              \
    many_rows(FORMAT, x, rows, k, q, d, m, y, n, first, last); \
    return;                                              \
  }                                                      \
  switch (rows) {                                         \
    case 1: one_row(FORMAT, x, k, q, d, m, y, first, last); break; \
    case 2: WEIGHT_ROWS(FORMAT, 2) break;                \
    case 3: WEIGHT_ROWS(FORMAT, 3) break;                \
    case 4: WEIGHT_ROWS(FORMAT, 4) break;                \
    case 5: WEIGHT_ROWS(FORMAT, 5) break;                \
    case 6: WEIGHT_ROWS(FORMAT, 6) break;                \
    default: WEIGHT_ROWS(FORMAT, 7) break;               \
  }

// One workgroup: weight rows [first, first + count) for all rows of x.
// x [rows, k] f32, y [rows, n] f32; q is [n, k/32, 32] int8 for Q8_0 and
// [n, k/32, 16] nibble bytes for Q4_0 and Q4_1; m is read for Q4_1 only
// (for the other formats the caller passes d again in its place).
// `q8_activations` selects the 8-bit activation form above.
void iree_llm_blocks_matmul_workgroup(
    const float* restrict x, size_t x_offset, const int8_t* restrict q_base,
    size_t q_offset, const uint16_t* restrict d, size_t d_offset,
    const uint16_t* restrict m, size_t m_offset, float* restrict y,
    size_t y_offset, size_t rows, size_t n, size_t k, size_t format,
    size_t q8_activations, size_t first, size_t count) {
  x += x_offset;
  const void* q = q_base + q_offset;
  d += d_offset;
  y += y_offset;
  m = format == Q4_1 ? m + m_offset : 0;
  const size_t blocks = k / 32;
  size_t last = first + count;
  if (last > n) last = n;
  if (format == Q8_0) {
    const size_t row_bytes = blocks * 32;
    ALL_ROWS(Q8_0)
  } else if (format == Q4_0) {
    const size_t row_bytes = blocks * 16;
    ALL_ROWS(Q4_0)
  } else {
    const size_t row_bytes = blocks * 16;
    ALL_ROWS(Q4_1)
  }
}

// ---- The same with the norm before it and the residual after it -----------
//
// A decode step's products of a layer's normalized rows (q/k/v, gate/up, the
// head) otherwise wait on the norm's two dispatches (its reduction and its
// scaling), and those followed by a residual (o, down) are followed by the
// add's dispatch. Each workgroup here normalizes all rows of x onto its stack
// (the 8-bit form's `rms_inverse`, then (x * inv) * norm as the graph's
// RMSNorm computes it), multiplies them as iree_llm_blocks_matmul_workgroup
// does, and adds the residual to its own outputs (res + y, IREE's add bit
// for bit). The norm repeats in every workgroup: for SmolLM2's products at
// one row, about 3% of a workgroup's arithmetic by instruction count (an
// estimate, not measured). The emitter calls it for
// one row (a single sequence's step, a prompt's head) and for a decode
// step's rows, those in one workgroup a thread: split into the usual
// balanced workgroups, a fused B=4 step measured slower than an unfused
// one (docs/performance.md).

// The most values of x (rows times k) a workgroup normalizes: 32 KB of a
// worker's 128 KB stack (src/emit/kernels/blocks.rs, FUSED_EXACT_VALUES).
#define FUSED_EXACT_VALUES 8192

// x [rows, k] f32 normalized into out [rows, k] (aligned to VEC_ALIGN) as
// the graph's RMSNorm computes it, (x * inv) * norm with inv from
// rms_inverse: the fused products' norm. k a multiple of 32.
INLINE void normalize_rows(const float* x, const float* norm, size_t rows, size_t k, float eps,
                           float* out) {
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * k;
    const vec inv = v_set1(rms_inverse(xr, k, eps));
    for (size_t i = 0; i < k; i += VLEN)
      v_store_aligned(out + r * k + i, v_mul(v_mul(v_load(xr + i), inv), v_load(norm + i)));
  }
}

// x [rows, k] f32; norm [k] f32 (read if has_norm, epsilon eps_bits as f32
// bits); q, d, m as for iree_llm_blocks_matmul_workgroup; res [rows, n] f32
// (read if has_res); y [rows, n] f32.
void iree_llm_blocks_matmul_fused_workgroup(
    const float* restrict x, size_t x_offset, const float* restrict norm, size_t norm_offset,
    const int8_t* restrict q_base, size_t q_offset, const uint16_t* restrict d, size_t d_offset,
    const uint16_t* restrict m, size_t m_offset, const float* restrict res, size_t res_offset,
    float* restrict y, size_t y_offset, size_t rows, size_t n, size_t k, size_t format,
    size_t eps_bits, size_t has_norm, size_t has_res, size_t first, size_t count) {
  float normed[FUSED_EXACT_VALUES] __attribute__((aligned(VEC_ALIGN)));
  x += x_offset;
  if (has_norm && rows * k <= FUSED_EXACT_VALUES) {
    normalize_rows(x, norm + norm_offset, rows, k, float_from_bits(eps_bits), normed);
    iree_llm_blocks_matmul_workgroup(normed, 0, q_base, q_offset, d, d_offset, m, m_offset, y,
                                     y_offset, rows, n, k, format, 0, first, count);
  } else {
    iree_llm_blocks_matmul_workgroup(x, 0, q_base, q_offset, d, d_offset, m, m_offset, y,
                                     y_offset, rows, n, k, format, 0, first, count);
  }
  if (has_res) add_residual(y + y_offset, res + res_offset, rows, n, first, count);
}

#include "x86_64_bf16_rows.h"

#if VLEN == 16
#include "x86_64_avx512_panels.h"
#endif
