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
    norm += norm_offset;
    const float eps = float_from_bits(eps_bits);
    for (size_t r = 0; r < rows; ++r) {
      const float* xr = x + r * k;
      const float inv = rms_inverse(xr, k, eps);
      for (size_t i = 0; i < k; ++i) normed[r * k + i] = (xr[i] * inv) * norm[i];
    }
    iree_llm_blocks_matmul_workgroup(normed, 0, q_base, q_offset, d, d_offset, m, m_offset, y,
                                     y_offset, rows, n, k, format, 0, first, count);
  } else {
    iree_llm_blocks_matmul_workgroup(x, 0, q_base, q_offset, d, d_offset, m, m_offset, y,
                                     y_offset, rows, n, k, format, 0, first, count);
  }
  if (has_res) add_residual(y + y_offset, res + res_offset, rows, n, first, count);
}

// ---- Dense bf16 weights, one row ------------------------------------------
//
// The same contraction for one row of x and a weight W [n, k] stored as
// bf16 (the checkpoint's own bytes), for B=1 decode steps and a prompt's
// last token; more rows take the product at the end of this file where the
// graphs call it, else IREE's code. With AVX2, x comes in the pair order
// of that product (below; the graph reorders it) and the weights are
// widened the same way, a shift or a mask per 8 of them where widening in
// order takes two instructions: C harness over the 1B preset's products,
// Zen 1, 2 threads, three rounds, 144.6-148.9 -> 136.5-141.8 ms. The AVX-512
// build keeps widening in order, a zmm at a time (not measured in pairs),
// and takes x as it is.

// One workgroup: y[i] = w[i, :] . x for weight rows [first, first + count).
// x [k] f32 (AVX2: in pair order), w [n, k] bf16 (k a multiple of 16), y
// [n] f32.
void iree_llm_bf16_matvec_workgroup(const float* restrict x, size_t x_offset,
                                    const uint16_t* restrict w, size_t w_offset,
                                    float* restrict y, size_t y_offset, size_t n,
                                    size_t k, size_t first, size_t count) {
  x += x_offset;
  w += w_offset;
  y += y_offset;
  size_t last = first + count;
  if (last > n) last = n;
#if VLEN == 16
  for (size_t i = first; i < last; ++i) {
    const uint16_t* wi = w + i * k;
    // Four accumulators hide the FMA latency.
    vec a0 = v_zero(), a1 = a0, a2 = a0, a3 = a0;
    size_t j = 0;
    for (; j + 4 * VLEN <= k; j += 4 * VLEN) {
      a0 = v_fmadd(widen_bf16(wi + j), v_load(x + j), a0);
      a1 = v_fmadd(widen_bf16(wi + j + VLEN), v_load(x + j + VLEN), a1);
      a2 = v_fmadd(widen_bf16(wi + j + 2 * VLEN), v_load(x + j + 2 * VLEN), a2);
      a3 = v_fmadd(widen_bf16(wi + j + 3 * VLEN), v_load(x + j + 3 * VLEN), a3);
    }
    // The rest of the row in vectors of 8.
    __m256 t = _mm256_setzero_ps();
    for (; j < k; j += 8) {
      const __m128i h = _mm_loadu_si128((const __m128i*)(wi + j));
      const __m256 wv = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
      t = _mm256_fmadd_ps(wv, _mm256_loadu_ps(x + j), t);
    }
    y[i] = v_hsum(v_add(v_add(a0, a1), v_add(a2, a3))) + hsum8(t);
  }
#else
  const __m256i high = _mm256_set1_epi32((int)0xFFFF0000u);
  for (size_t i = first; i < last; ++i) {
    const uint16_t* wi = w + i * k;
    // Four accumulators hide the FMA latency: 32 values a step, then 16.
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    size_t j = 0;
    for (; j + 32 <= k; j += 32) {
      const __m256i p0 = _mm256_loadu_si256((const __m256i*)(wi + j));
      const __m256i p1 = _mm256_loadu_si256((const __m256i*)(wi + j + 16));
      a0 = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_slli_epi32(p0, 16)),
                           _mm256_loadu_ps(x + j), a0);
      a1 = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_and_si256(p0, high)),
                           _mm256_loadu_ps(x + j + 8), a1);
      a2 = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_slli_epi32(p1, 16)),
                           _mm256_loadu_ps(x + j + 16), a2);
      a3 = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_and_si256(p1, high)),
                           _mm256_loadu_ps(x + j + 24), a3);
    }
    if (j < k) {
      const __m256i p = _mm256_loadu_si256((const __m256i*)(wi + j));
      a0 = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_slli_epi32(p, 16)), _mm256_loadu_ps(x + j),
                           a0);
      a1 = _mm256_fmadd_ps(_mm256_castsi256_ps(_mm256_and_si256(p, high)),
                           _mm256_loadu_ps(x + j + 8), a1);
    }
    y[i] = hsum8(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
  }
#endif
}

// ---- Dense bf16 weights, several rows ----------------------------------------
//
// The same contraction for rows of x [rows, k] and a dense bf16 weight W
// [n, k] (k a multiple of 32), exactly, for a batched decode step or a
// prompt. x comes reordered (src/emit/kernels/bf16.rs, `bf16_rows`): in every 16
// values of a row, the 8 at even positions, then the 8 at odd ones (the
// AVX-512 build: in every 32, the 16 at even positions, then the 16 at
// odd ones; its tile is described below). Why:
// 16 bf16 weights loaded as eight 32-bit lanes hold the pairs (w[2j] low,
// w[2j+1] high), so a shift left by 16 gives the even weights as f32 and a
// mask of the high halves the odd ones, one instruction per 8 weights that
// meets x's matching 8 values. Widening in order takes two (zero-extend,
// then shift); written to a panel first (the block formats' way) it also
// took a store per 8 weights, a phase in which the FMAs waited.
//
// Tiles of 3 weight rows by 4 rows of x: 12 accumulators. With 8 (2 weight
// rows, the earlier tile) every accumulator took two dependent FMAs per 16
// values, 8 cycles of FMA latency against 8 cycles of issue, so any stall
// went straight into the time; 12 leave slack. The 12, 3 widened weights
// and one x vector fill all 16 ymm registers, and GCC spilled the C form
// (41 stack references in the loop; 39 GFLOP/s against 66 for the 2-row
// tile), hence `rows_tile_3x4` below is assembly; smaller tiles stay in C.
// Each accumulator sums the same products in the same order as before,
// so results are bit for bit the 2-row tile's.
//
// The first x tile over a group's chunk fetches the next group's weight
// rows into L2 (prefetcht1) on the way. Without it, on a Zen 4 guest, a
// streamed tile took its in-cache time plus the time to read its weights,
// as if the two never overlapped (one thread, the 1B step's products: 4, 8
// and 16 rows of x cost 291, 456 and 755 ms, about 150 ms of FMAs for
// every 4 rows plus ~140 ms, the time to read the weights). Into L1
// (prefetcht0) it gained at most 7% there, and on Zen 1 it was slower;
// into L2 the reads overlap. One group ahead: two or three did no better.
// docs/performance.md has the figures of each step.
// Values of k a pass over a group of x rows takes (with the group sized
// as many_rows sizes its own, so the rows of x stay in L2).
#define ROWS_CHUNK 2048
// The AVX-512 build instead takes k a span at a time, and within a span a
// tile of x rows at a time, passing every weight tile of the workgroup
// over it: that span of 8 rows (32 KB of f32) stays in L1 while the tiles
// pass, where a tile over the full k read x from L2 again for every 3
// weight rows (64 KB for 8 rows at k = 2048, above Zen 5's 48 KB L1). The
// workgroup's weights for a span (64 KB for 32 rows) stay in L2 for the
// later tiles of x rows. Zen 5, 1B preset, graph-bench, the two orders
// alternating: B=8 64.9-69.5 ms against 88.5-96.0 (three rounds); a
// 256-token prompt 1,339-1,380 ms against 1,708-1,722, 16 tokens 100-106
// against 133-135 (two rounds); B=4 (16 KB of x at k = 1024) unchanged.
// Spans of 512 made B=8 73.3-80.0 ms: a tile's sums are reduced and added
// to y once per span.
#define ROWS_SPAN 1024

#if VLEN == 16
// The AVX-512 build: 32 values of a weight row loaded as sixteen 32-bit
// lanes widen the same way, so x comes reordered in groups of 32 (the 16
// at even positions, then the 16 at odd ones), and the 32 zmm registers
// hold a tile of 3 weight rows by 8 rows of x: 24 accumulators, 3 widened
// weight vectors and one x vector. A B=8 step is one tile of x rows, so
// each weight row is read from memory once and widened once for all 8
// (a span of k at a time: ROWS_SPAN).
// Before it these hosts took IREE 3.13's own code for the product (f32
// after widening): on Zen 5, 1B steps of 4 and 8 rows took 119-124 and
// 98-104 ms against 67-69 and 92-95 ms with this tile (graph-bench, the
// two binaries alternating). The prefetch of the next tile is worth as
// much: without it B=4 took 86-88 and B=8 109-122 ms against 70-72 and
// 71-72; two tiles ahead, B=8 took 95-100 ms.
#define ROWS_TILE_W 3
#define ROWS_TILE_X 8
#else
#define ROWS_TILE_W 3
#define ROWS_TILE_X 4
#endif

// Vectors of 32-bit lanes holding pairs of bf16 weights, and their two
// halves widened to f32: the even weights by a shift, the odd by a mask.
#if VLEN == 16
typedef __m512i bf16_pairs;
#define pairs_load(p) _mm512_loadu_si512((const void*)(p))
#define pairs_even(v) _mm512_castsi512_ps(_mm512_slli_epi32(v, 16))
#define pairs_odd(v, high) _mm512_castsi512_ps(_mm512_and_si512(v, high))
#define pairs_high() _mm512_set1_epi32((int)0xFFFF0000u)
#else
typedef __m256i bf16_pairs;
#define pairs_load(p) _mm256_loadu_si256((const __m256i*)(p))
#define pairs_even(v) _mm256_castsi256_ps(_mm256_slli_epi32(v, 16))
#define pairs_odd(v, high) _mm256_castsi256_ps(_mm256_and_si256(v, high))
#define pairs_high() _mm256_set1_epi32((int)0xFFFF0000u)
#endif

// WR weight rows (<= ROWS_TILE_W; row stride k) times XR rows of x (<=
// ROWS_TILE_X, reordered as above) over `len` values (a multiple of 32);
// y[r * n + a] set, or added to when `accumulate`. A step takes 2 * VLEN
// values: the even weights against x's first VLEN, the odd its next VLEN.
// With `prefetch` one line (32 values) of each of the next tile's rows is
// fetched into L2 per 32 values; past the weight's end a prefetch does not
// fault.
INLINE void rows_tile(const int WR, const int XR, const uint16_t* w, const float* x, size_t k,
                      size_t len, float* y, size_t n, int accumulate, int prefetch) {
  vec acc[ROWS_TILE_W][ROWS_TILE_X];
  for (int a = 0; a < WR; ++a)
    for (int r = 0; r < XR; ++r) acc[a][r] = v_zero();
  const bf16_pairs high = pairs_high();
  for (size_t e = 0; e < len; e += 2 * VLEN) {
    if (prefetch && (e & 31) == 0)
      for (int a = 0; a < WR; ++a)
        _mm_prefetch((const char*)(w + (ROWS_TILE_W + a) * k + e), _MM_HINT_T1);
    vec wv[ROWS_TILE_W];
    for (int a = 0; a < WR; ++a) wv[a] = pairs_even(pairs_load(w + a * k + e));
    for (int r = 0; r < XR; ++r) {
      vec xv = v_load(x + r * k + e);
      __asm__("" : "+v"(xv));  // one load for WR products (see panel_tile)
      for (int a = 0; a < WR; ++a) acc[a][r] = v_fmadd(wv[a], xv, acc[a][r]);
    }
    for (int a = 0; a < WR; ++a) wv[a] = pairs_odd(pairs_load(w + a * k + e), high);
    for (int r = 0; r < XR; ++r) {
      vec xv = v_load(x + r * k + e + VLEN);
      __asm__("" : "+v"(xv));
      for (int a = 0; a < WR; ++a) acc[a][r] = v_fmadd(wv[a], xv, acc[a][r]);
    }
  }
  store_tile_sums(WR, XR, &acc[0][0], ROWS_TILE_X, y, n, accumulate);
}

#define ROWS_TILE_FN(WR, XR)                                                                \
  static __attribute__((noinline)) void rows_tile_##WR##x##XR(                             \
      const uint16_t* w, const float* x, size_t k, size_t len, float* y, size_t n, int acc, \
      int prefetch) {                                                                       \
    rows_tile(WR, XR, w, x, k, len, y, n, acc, prefetch);                                   \
  }
#define ROWS_TILE(WR, XR) \
  case WR * 16 + XR: rows_tile_##WR##x##XR(wc, xr, k, len, yr, n, c > 0, fetch); break;

#if VLEN == 16
// The full tile in registers, in assembly as the AVX2 one is: GCC kept the
// 28 vectors in registers but not the 8 rows' and 6 weight rows' pointers,
// reloading them from the stack every step, and spilled one weight vector.
// zmm0-23 are the accumulators (x row r, weight row a in zmm(3r + a)),
// zmm24-26 the three widened weight vectors, zmm27 the x vector they meet,
// zmm28 the mask of high halves. Every address is a base that advances a
// step at a time plus a multiple of a row's stride: weight rows at
// w0 + {0, 1, 2} * kb (kb = 2k bytes), the next tile's at pf + {0, 1, 2} * kb,
// x rows at x0 + {0, 1, 2, 4} * xs, x2 + 4 * xs and x3 + {0, 2, 4} * xs
// (xs = 4k bytes, x2 and x3 rows 2 and 3).
#define W3(op) op("(%[w0])", 24) op("(%[w0],%[kb],1)", 25) op("(%[w0],%[kb],2)", 26)
#define EVEN(src, r) "vpslld $16, " src ", %%zmm" #r "\n\t"
#define ODD(src, r) "vpandd " src ", %%zmm28, %%zmm" #r "\n\t"
#define XROW3(addr, a0, a1, a2)                  \
  "vmovups " addr ", %%zmm27\n\t"               \
  "vfmadd231ps %%zmm24, %%zmm27, %%zmm" #a0 "\n\t" \
  "vfmadd231ps %%zmm25, %%zmm27, %%zmm" #a1 "\n\t" \
  "vfmadd231ps %%zmm26, %%zmm27, %%zmm" #a2 "\n\t"
#define XROWS(off)                                                                    \
  XROW3(off "(%[x0])", 0, 1, 2) XROW3(off "(%[x0],%[xs],1)", 3, 4, 5)                \
      XROW3(off "(%[x2])", 6, 7, 8) XROW3(off "(%[x3])", 9, 10, 11)                  \
          XROW3(off "(%[x0],%[xs],4)", 12, 13, 14) XROW3(off "(%[x3],%[xs],2)", 15, 16, 17) \
              XROW3(off "(%[x2],%[xs],4)", 18, 19, 20) XROW3(off "(%[x3],%[xs],4)", 21, 22, 23)
#define STEP_32                                                                       \
  W3(EVEN) XROWS("0") W3(ODD) XROWS("64")                                             \
  "add $64, %[w0]\n\t" "add $64, %[pf]\n\t" "add $128, %[x0]\n\t"                   \
  "add $128, %[x2]\n\t" "add $128, %[x3]\n\t" "sub $32, %[left]\n\t"
#define NEXT_ROWS                                                                     \
  "prefetcht1 (%[pf])\n\t" "prefetcht1 (%[pf],%[kb],1)\n\t" "prefetcht1 (%[pf],%[kb],2)\n\t"
#define ZERO_ACC(r) "vpxord %%xmm" #r ", %%xmm" #r ", %%xmm" #r "\n\t"
#define ZERO_ACCUMULATORS                                                                  \
  ZERO_ACC(0) ZERO_ACC(1) ZERO_ACC(2) ZERO_ACC(3) ZERO_ACC(4) ZERO_ACC(5) ZERO_ACC(6)      \
  ZERO_ACC(7) ZERO_ACC(8) ZERO_ACC(9) ZERO_ACC(10) ZERO_ACC(11) ZERO_ACC(12) ZERO_ACC(13)  \
  ZERO_ACC(14) ZERO_ACC(15) ZERO_ACC(16) ZERO_ACC(17) ZERO_ACC(18) ZERO_ACC(19)            \
  ZERO_ACC(20) ZERO_ACC(21) ZERO_ACC(22) ZERO_ACC(23)
#define STORE_ACC(r) "vmovups %%zmm" #r ", " #r "*64(%[out])\n\t"
#define STORE_ACCUMULATORS                                                                     \
  STORE_ACC(0) STORE_ACC(1) STORE_ACC(2) STORE_ACC(3) STORE_ACC(4) STORE_ACC(5) STORE_ACC(6)   \
  STORE_ACC(7) STORE_ACC(8) STORE_ACC(9) STORE_ACC(10) STORE_ACC(11) STORE_ACC(12)             \
  STORE_ACC(13) STORE_ACC(14) STORE_ACC(15) STORE_ACC(16) STORE_ACC(17) STORE_ACC(18)          \
  STORE_ACC(19) STORE_ACC(20) STORE_ACC(21) STORE_ACC(22) STORE_ACC(23)
#define TILE_OPERANDS                                                                          \
  : [w0] "+r"(w0), [pf] "+r"(pf), [x0] "+r"(x0), [x2] "+r"(x2), [x3] "+r"(x3), [left] "+r"(left) \
  : [kb] "r"(kb), [xs] "r"(xs), [mask] "m"(high_halves), [out] "r"(out)                       \
  : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",    \
    "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18",   \
    "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28"

static const uint32_t high_halves[16] __attribute__((aligned(64))) = {
    0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u,
    0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u,
    0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u};

static __attribute__((noinline)) void rows_tile_3x8(const uint16_t* w, const float* x, size_t k,
                                                    size_t len, float* y, size_t n,
                                                    int accumulate, int prefetch) {
  __m512 out[ROWS_TILE_W * ROWS_TILE_X];
  const char* w0 = (const char*)w;
  const char* pf = (const char*)(w + ROWS_TILE_W * k);
  const char* x0 = (const char*)x;
  const char* x2 = (const char*)(x + 2 * k);
  const char* x3 = (const char*)(x + 3 * k);
  const size_t kb = 2 * k, xs = 4 * k;
  size_t left = len;  // a multiple of 32, at least 32
  if (prefetch)
    __asm__ volatile("vmovdqa32 %[mask], %%zmm28\n\t" ZERO_ACCUMULATORS
                     "1:\n\t" NEXT_ROWS STEP_32 "jnz 1b\n\t" STORE_ACCUMULATORS TILE_OPERANDS);
  else
    __asm__ volatile("vmovdqa32 %[mask], %%zmm28\n\t" ZERO_ACCUMULATORS
                     "1:\n\t" STEP_32 "jnz 1b\n\t" STORE_ACCUMULATORS TILE_OPERANDS);
  for (int a = 0; a < ROWS_TILE_W; ++a) {
    __m512 v[ROWS_TILE_X];
    for (int r = 0; r < ROWS_TILE_X; ++r) v[r] = out[r * ROWS_TILE_W + a];
    store_sums8(v, y + a, n, accumulate);
  }
}

#define ROWS_TILE_FNS(WR)                                                                   \
  ROWS_TILE_FN(WR, 1) ROWS_TILE_FN(WR, 2) ROWS_TILE_FN(WR, 3) ROWS_TILE_FN(WR, 4)           \
      ROWS_TILE_FN(WR, 5) ROWS_TILE_FN(WR, 6) ROWS_TILE_FN(WR, 7) ROWS_TILE_FN(WR, 8)
ROWS_TILE_FNS(1) ROWS_TILE_FNS(2) ROWS_TILE_FN(3, 1) ROWS_TILE_FN(3, 2) ROWS_TILE_FN(3, 3)
    ROWS_TILE_FN(3, 4) ROWS_TILE_FN(3, 5) ROWS_TILE_FN(3, 6) ROWS_TILE_FN(3, 7)
#define ROWS_TILES(WR)                                                                 \
  ROWS_TILE(WR, 1) ROWS_TILE(WR, 2) ROWS_TILE(WR, 3) ROWS_TILE(WR, 4) ROWS_TILE(WR, 5) \
      ROWS_TILE(WR, 6) ROWS_TILE(WR, 7) ROWS_TILE(WR, 8)
#else
// How a tile of x rows fetches the next weight tile into L2. A B=8 step is
// two tiles of x rows over the same weights: when the first fetched all of
// the next tile, the memory was busy during the first pass and idle during
// the second, the core's compute during the first mostly waiting on it. Two
// passes each fetching half keep the reads going through both. Zen 3 (the
// tile alone in a C harness over 537 MB of weights, 8 rows of x, 2
// threads, each pass's time over a plain read of the same bytes in the same
// run, medians of 16 and 20): 2.03 and 2.05 before, 1.85 and 1.84 split;
// one thread 2.44 against 2.28. Fetching two tiles ahead instead: 1.98.
// graph-bench, 1B preset, B=8, the two binaries alternating over 8 rounds:
// 175-218 ms a step before (median 201), 179-208 after (median 186).
enum { FETCH_NONE, FETCH_ALL, FETCH_FIRST_PASS, FETCH_SECOND_PASS };
INLINE int rows_fetch(size_t r, size_t rows) {
  if (rows <= ROWS_TILE_X) return r == 0 ? FETCH_ALL : FETCH_NONE;
  return r == 0 ? FETCH_FIRST_PASS : r == ROWS_TILE_X ? FETCH_SECOND_PASS : FETCH_NONE;
}
// The full tile in registers: ymm0-11 the accumulators (x row r, weight row
// a in ymm(3r + a)), ymm12-14 the three widened weight vectors, ymm15 the
// x vector they meet. The mask comes from memory, as no register is left.
static const uint32_t high_halves[8] __attribute__((aligned(32))) = {
    0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u,
    0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u, 0xFFFF0000u};
#define WIDEN3(op)                                                           \
  "vmovdqu (%[w0],%[e],2), %%ymm12\n\t"                                      \
  "vmovdqu (%[w1],%[e],2), %%ymm13\n\t"                                      \
  "vmovdqu (%[w2],%[e],2), %%ymm14\n\t" op(12) op(13) op(14)
#define EVEN(r) "vpslld $16, %%ymm" #r ", %%ymm" #r "\n\t"
#define ODD(r) "vpand %[mask], %%ymm" #r ", %%ymm" #r "\n\t"
#define X_TIMES_3(off, x, a0, a1, a2)               \
  "vmovups " #off "(%[" #x "],%[e],4), %%ymm15\n\t" \
  "vfmadd231ps %%ymm12, %%ymm15, %%ymm" #a0 "\n\t"  \
  "vfmadd231ps %%ymm13, %%ymm15, %%ymm" #a1 "\n\t"  \
  "vfmadd231ps %%ymm14, %%ymm15, %%ymm" #a2 "\n\t"
#define HALF_STEP(op, off)                                                      \
  WIDEN3(op) X_TIMES_3(off, x0, 0, 1, 2) X_TIMES_3(off, x1, 3, 4, 5)            \
      X_TIMES_3(off, x2, 6, 7, 8) X_TIMES_3(off, x3, 9, 10, 11)
// 16 values of k: the even halves against x's first 8, the odd its next 8.
#define STEP_16 HALF_STEP(EVEN, 0) HALF_STEP(ODD, 32) "add $16, %[e]\n\t"
#define NEXT_ROWS                    \
  "prefetcht1 (%[p0],%[e],2)\n\t"    \
  "prefetcht1 (%[p1],%[e],2)\n\t"    \
  "prefetcht1 (%[p2],%[e],2)\n\t"
// A row and a half: p0's row whole, and half of p1's (byte offset e covers
// the first len / 2 values; every other prefetch finds its line in flight).
#define NEXT_HALF_ROWS               \
  "prefetcht1 (%[p0],%[e],2)\n\t"    \
  "prefetcht1 (%[p1],%[e],1)\n\t"
#define ZERO_ACCUMULATORS                                                       \
  "vxorps %%xmm0, %%xmm0, %%xmm0\n\t" "vxorps %%xmm1, %%xmm1, %%xmm1\n\t"      \
  "vxorps %%xmm2, %%xmm2, %%xmm2\n\t" "vxorps %%xmm3, %%xmm3, %%xmm3\n\t"      \
  "vxorps %%xmm4, %%xmm4, %%xmm4\n\t" "vxorps %%xmm5, %%xmm5, %%xmm5\n\t"      \
  "vxorps %%xmm6, %%xmm6, %%xmm6\n\t" "vxorps %%xmm7, %%xmm7, %%xmm7\n\t"      \
  "vxorps %%xmm8, %%xmm8, %%xmm8\n\t" "vxorps %%xmm9, %%xmm9, %%xmm9\n\t"      \
  "vxorps %%xmm10, %%xmm10, %%xmm10\n\t" "vxorps %%xmm11, %%xmm11, %%xmm11\n\t"
#define STORE_ACCUMULATORS                                                      \
  "vmovups %%ymm0, 0(%[out])\n\t" "vmovups %%ymm1, 32(%[out])\n\t"              \
  "vmovups %%ymm2, 64(%[out])\n\t" "vmovups %%ymm3, 96(%[out])\n\t"             \
  "vmovups %%ymm4, 128(%[out])\n\t" "vmovups %%ymm5, 160(%[out])\n\t"           \
  "vmovups %%ymm6, 192(%[out])\n\t" "vmovups %%ymm7, 224(%[out])\n\t"           \
  "vmovups %%ymm8, 256(%[out])\n\t" "vmovups %%ymm9, 288(%[out])\n\t"           \
  "vmovups %%ymm10, 320(%[out])\n\t" "vmovups %%ymm11, 352(%[out])\n\t"
#define TILE_OPERANDS                                                                \
  : [e] "+r"(e)                                                                      \
  : [w0] "r"(w), [w1] "r"(w + k), [w2] "r"(w + 2 * k), [x0] "r"(x), [x1] "r"(x + k), \
    [x2] "r"(x + 2 * k), [x3] "r"(x + 3 * k), [p0] "r"(p0),                           \
    [p1] "r"(p1), [p2] "r"(p2), [len] "r"(len),                                       \
    [mask] "m"(*(const __m256i*)high_halves), [out] "r"(out)                          \
  : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",   \
    "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

static __attribute__((noinline)) void rows_tile_3x4(const uint16_t* w, const float* x, size_t k,
                                                    size_t len, float* y, size_t n,
                                                    int accumulate, int prefetch) {
  __m256 out[ROWS_TILE_W * ROWS_TILE_X];
  size_t e = 0;
  // The next tile's rows (past the weight's end a prefetch does not fault).
  const uint16_t *p0 = w + 3 * k, *p1 = w + 4 * k, *p2 = w + 5 * k;
  if (prefetch == FETCH_SECOND_PASS) {
    p0 = p2;        // the third row whole
    p1 += len / 2;  // and the second half of the second
  }
  if (prefetch == FETCH_ALL)  // 32 values a turn (len is a multiple of 32): a line of each next row
    __asm__ volatile(ZERO_ACCUMULATORS "1:\n\t" NEXT_ROWS STEP_16 STEP_16
                     "cmp %[len], %[e]\n\t"
                     "jb 1b\n\t" STORE_ACCUMULATORS TILE_OPERANDS);
  else if (prefetch != FETCH_NONE)  // half of that: FETCH_FIRST_PASS or FETCH_SECOND_PASS
    __asm__ volatile(ZERO_ACCUMULATORS "1:\n\t" NEXT_HALF_ROWS STEP_16 STEP_16
                     "cmp %[len], %[e]\n\t"
                     "jb 1b\n\t" STORE_ACCUMULATORS TILE_OPERANDS);
  else
    __asm__ volatile(ZERO_ACCUMULATORS "1:\n\t" STEP_16
                     "cmp %[len], %[e]\n\t"
                     "jb 1b\n\t" STORE_ACCUMULATORS TILE_OPERANDS);
  for (int r = 0; r < ROWS_TILE_X; ++r)
    for (int a = 0; a < ROWS_TILE_W; ++a) {
      const float v = hsum8(out[r * ROWS_TILE_W + a]);
      y[r * n + a] = accumulate ? y[r * n + a] + v : v;
    }
}

#define ROWS_TILE_FNS(WR) \
  ROWS_TILE_FN(WR, 1) ROWS_TILE_FN(WR, 2) ROWS_TILE_FN(WR, 3) ROWS_TILE_FN(WR, 4)
ROWS_TILE_FNS(1) ROWS_TILE_FNS(2) ROWS_TILE_FN(3, 1) ROWS_TILE_FN(3, 2) ROWS_TILE_FN(3, 3)
#define ROWS_TILES(WR) ROWS_TILE(WR, 1) ROWS_TILE(WR, 2) ROWS_TILE(WR, 3) ROWS_TILE(WR, 4)
#endif

// One workgroup: y = x . W^T for weight rows [first, first + count).
// x [rows, k] f32 in the order above, w [n, k] bf16, y [rows, n] f32.
void iree_llm_bf16_rows_workgroup(const float* restrict x, size_t x_offset,
                                  const uint16_t* restrict w, size_t w_offset,
                                  float* restrict y, size_t y_offset, size_t rows, size_t n,
                                  size_t k, size_t first, size_t count) {
  x += x_offset;
  w += w_offset;
  y += y_offset;
  size_t last = first + count;
  if (last > n) last = n;
#if VLEN == 16
  // Span by span of k (ROWS_SPAN); within a span, tile of x rows by tile
  // of x rows, every weight tile over each.
  const size_t span = k < ROWS_SPAN ? k : ROWS_SPAN;
  for (size_t c = 0; c < k; c += span) {
    const size_t len = k - c < span ? k - c : span;
    for (size_t r = 0; r < rows; r += ROWS_TILE_X) {
      const int xn = rows - r < ROWS_TILE_X ? (int)(rows - r) : ROWS_TILE_X;
      // The first tile of x rows reads the span's weights from memory.
      const int fetch = r == 0;
      for (size_t i = first; i < last; i += ROWS_TILE_W) {
        const int wr = last - i < ROWS_TILE_W ? (int)(last - i) : ROWS_TILE_W;
        const uint16_t* wc = w + i * k + c;
        const float* xr = x + r * k + c;
        float* yr = y + r * n + i;
        switch (wr * 16 + xn) { ROWS_TILES(1) ROWS_TILES(2) ROWS_TILES(3) }
      }
    }
  }
#else
  // Groups of x rows over chunks of k (ROWS_CHUNK): the spans above were
  // not measured on an AVX2-only host.
  const size_t chunk = k < ROWS_CHUNK ? k : ROWS_CHUNK;
  size_t group = X_GROUP_BYTES / (chunk * sizeof(float)) / ROWS_TILE_X * ROWS_TILE_X;
  if (group < 16) group = 16;
  for (size_t g = 0; g < rows; g += group) {
    const size_t g_end = rows - g < group ? rows : g + group;
    for (size_t i = first; i < last; i += ROWS_TILE_W) {
      const int wr = last - i < ROWS_TILE_W ? (int)(last - i) : ROWS_TILE_W;
      const uint16_t* wi = w + i * k;
      for (size_t c = 0; c < k; c += chunk) {
        const size_t len = k - c < chunk ? k - c : chunk;
        for (size_t r = g; r < g_end; r += ROWS_TILE_X) {
          const int xn = g_end - r < ROWS_TILE_X ? (int)(g_end - r) : ROWS_TILE_X;
          // Later tiles find the rows in L2, and later groups of a prompt
          // the workgroup's rows. With two tiles of x rows or more the
          // first two share the fetch (rows_fetch).
          const int fetch = g != 0 ? FETCH_NONE : rows_fetch(r - g, g_end - g);
          const uint16_t* wc = wi + c;
          const float* xr = x + r * k + c;
          float* yr = y + r * n + i;
          switch (wr * 16 + xn) { ROWS_TILES(1) ROWS_TILES(2) ROWS_TILES(3) }
        }
      }
    }
  }
#endif
}

// ---- The same with the norm before it and the residual after -------------
//
// A decode step's products each took three dispatches around the one
// above: the RMSNorm's sum of squares, the normalizing (fused with the pair
// reorder), and the residual's add (the attention's output a transpose of
// its own). Every dispatch costs a step its hand-out to the workers and a
// wait for all of them. Here each workgroup normalizes (when `has_norm`)
// and reorders the few rows of x into its stack itself, as the 8-bit
// form's rows kernel does, multiplies, and adds the residual to its share
// of y (when `has_res`). The norm is summed as rms_inverse sums it (within
// f32 rounding of the graph's RMSNorm, as the one-row fused block product);
// the products and the residual's add are the unfused path's.

// The most values of x (rows times k) a workgroup holds on its worker's
// stack (src/emit/kernels/bf16.rs, FUSED_ROWS_VALUES): 48 KB of the 128 KB.
#define FUSED_ROWS_VALUES 12288

// Values a, b (2 * VLEN in a row) stored as bf16.rs's pairs_split orders
// them: the VLEN at even positions, then the odd ones.
INLINE void pairs_split_store(vec a, vec b, float* out) {
#if VLEN == 16
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  _mm512_storeu_ps(out, _mm512_permutex2var_ps(a, even, b));
  _mm512_storeu_ps(out + VLEN, _mm512_permutex2var_ps(a, odd, b));
#else
  // Each half's evens, then its odds; then the two halves' evens, and odds.
  const __m256i order = _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7);
  const __m256 ap = _mm256_permutevar8x32_ps(a, order), bp = _mm256_permutevar8x32_ps(b, order);
  _mm256_storeu_ps(out, _mm256_permute2f128_ps(ap, bp, 0x20));
  _mm256_storeu_ps(out + VLEN, _mm256_permute2f128_ps(ap, bp, 0x31));
#endif
}

// x [rows, k] f32 in its own order; norm [k] f32 (read if has_norm, epsilon
// eps_bits as f32 bits); w [n, k] bf16; res [rows, n] f32 (read if
// has_res); y [rows, n] f32. rows * k <= FUSED_ROWS_VALUES, k a multiple
// of 32.
void iree_llm_bf16_rows_fused_workgroup(const float* restrict x, size_t x_offset,
                                        const float* restrict norm, size_t norm_offset,
                                        const uint16_t* restrict w, size_t w_offset,
                                        const float* restrict res, size_t res_offset,
                                        float* restrict y, size_t y_offset, size_t rows,
                                        size_t n, size_t k, size_t eps_bits, size_t has_norm,
                                        size_t has_res, size_t first, size_t count) {
  if (rows * k > FUSED_ROWS_VALUES || k % 32 != 0) __builtin_trap();
  float xs[FUSED_ROWS_VALUES] __attribute__((aligned(VEC_ALIGN)));
  x += x_offset;
  norm += norm_offset;
  const float eps = float_from_bits(eps_bits);
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * k;
    const float inv = has_norm ? rms_inverse(xr, k, eps) : 1.0f;
    for (size_t g = 0; g < k; g += 2 * VLEN) {
      vec a = v_load(xr + g), b = v_load(xr + g + VLEN);
      if (has_norm) {
        a = v_mul(v_mul(a, v_set1(inv)), v_load(norm + g));
        b = v_mul(v_mul(b, v_set1(inv)), v_load(norm + g + VLEN));
      }
      pairs_split_store(a, b, xs + r * k + g);
    }
  }
  // The loops above write every value the product reads, which GCC cannot
  // see through them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
  iree_llm_bf16_rows_workgroup(xs, 0, w, w_offset, y, y_offset, rows, n, k, first, count);
#pragma GCC diagnostic pop
  if (has_res) add_residual(y + y_offset, res + res_offset, rows, n, first, count);
}

#if VLEN == 16
#include "x86_64_avx512_panels.h"
#endif
