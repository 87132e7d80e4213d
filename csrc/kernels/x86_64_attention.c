// Hand-written x86-64 (AVX2 and FMA, or AVX-512) kernel linked into compiled
// modules as a custom dispatch: one decode step's attention of one layer,
// for every row of the step and every key/value head (src/emit/kernels/attention.rs
// emits the call).
//
// Why it exists: the StableHLO form of a ragged step reads every row's whole
// window of the cache and masks what lies at or past the row's position, in
// four dispatches per layer (scores, softmax, values, the row's own key and
// value). This kernel reads only the positions below each row's position
// and does all of it in one dispatch: at B=8 a SmolLM2 step's attention read
// 94 MB of cache (window 256, rows at position 128) and took a quarter of
// the step (docs/performance.md).
//
// A whole prompt's attention is the same computation, row i of the prompt
// at position i of its cache slot, once the graph has written the prompt's
// keys and values there (`iree_llm_prompt_attention_workgroup`): IREE's form
// of it computed all t x t scores and masked half. graph-bench on the 1B
// preset, bf16 activations, two rounds alternating: prompts of 256 tokens
// 591-601 ms against 634-635, of 512 1,222-1,249 against 1,463-1,468.
//
// A workgroup takes one or more (row, key/value head) slots, as many as
// the emitter chose (src/emit/kernels/workgroups.rs): IREE's CPU driver
// hands a dispatch's workgroups to its workers 8 at a time once there are
// at least 8 a worker, so SmolLM2's 24 slots a B=8 step as 24 workgroups
// went 16 to one worker and 8 to the other. Within a workgroup the slots'
// blocks are one run for the prefetch, so the next slot's first blocks
// arrive while this slot's last ones are multiplied (C harness, SmolLM2
// B=8 at position 128, 30 layers, 2 threads, IREE's claims simulated:
// 3.96-4.82 ms as 24 workgroups of the kernel before, 3.17-3.20 ms as 12
// of 2 slots; docs/performance.md).
//
// What it computes is the graph's: for query head j of key/value head h of
// row i, scores s_t = (q_j . K_t) * (1/sqrt(d)) over the cached positions
// t < pos[i] and the row's own new key, softmax over them, and the weighted
// sum of the values. The softmax is taken a block of positions at a time
// with a running maximum (each block's exponentials scaled to the largest
// score so far), so the result differs from the graph's max-first form by
// rounding only; tests hold both to the f64 reference.
//
// The cache holds f32, or f16 where the graphs were emitted with a 16-bit
// cache (`IREE_LLM_KV_CACHE=f16`): x86_64_attention_body.h is the kernel
// for one element type, included below once for each. The f16 entry point
// rounds the step's own key and value to f16 first, as the graph does when
// it writes them into the cache, so that a position reads the same values
// in the step that writes it as in later ones.
//
// Built freestanding: no libc, nothing but registers, the stack and the
// buffers.

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define INLINE static inline __attribute__((always_inline))

// Positions per tile: one vector of scores.
#define TILE 8
// Positions per block: the softmax's running maximum moves, and the
// weighted sums are loaded and stored, once a block. 64 positions of keys
// or values are 16 KB at head_dim 64 in f32, so a block's stay in L1
// while the query heads of its group take their turns.
#define BLOCK 64
// Blocks ahead whose keys and values a block prefetches into L2, counting
// the workgroup's slots as one run of their cached blocks, and how many
// blocks of the run it prefetches before it starts. A block reads its keys
// and then its values, 16 KB each at head_dim 64 in f32, so the hardware
// prefetcher sees a new stream every 16 KB; into L1 the prefetches of the
// next blocks would evict the block being multiplied.
//
// Each stream is fetched while its own kind is read: the next block's keys
// tile by tile as this block's scores are taken, its values position by
// position as this block's values are weighed. Fetching both during the
// scores (two blocks ahead, as before) left the weighing with nothing in
// flight and crowded the scores with twice the misses. On Zen 4 (C harness,
// SmolLM2 B=8, 30 layers, 2 processes at once, output hashes equal;
// docs/performance.md) this took position 128 from 5.5-5.9 to 4.4-5.0 ms
// and position 1536 from 64-83 to 43-47 ms; the 1B preset's 16 layers at
// position 128 from 7.9-15 to 7.1-7.3 ms. Two blocks ahead in this form
// did worse than one (4.9-5.6 ms at 128).
#define PREFETCH_BLOCKS 1
// Query heads of one key/value head that share a pass over its keys and
// values; more heads (g > 4) take more passes.
#define HEAD_GROUP 4
// The most query heads of one key/value head times head_dim the kernel
// holds on its stack (the emitter calls it only within this).
#define MAX_GD 2048
#define MAX_G 64

#include "x86_64_avx2_reduce.h"

// e^x for x <= 0, to about an ulp: x = n ln 2 + r with |r| <= ln 2 / 2
// (ln 2 split in two so that n ln 2 is exact in the first part), e^r by
// its Taylor series through r^7 (the first term left out is below 1e-8 of
// the result), times 2^n built in the exponent bits. Below -87 e^x is
// under the smallest normal float and is taken as e^-87 (about 1.6e-38):
// against the largest term of a softmax, which is 1, that is nothing.
INLINE __m256 exp8(__m256 x) {
  x = _mm256_max_ps(x, _mm256_set1_ps(-87.0f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.0f / 5040.0f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 720.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 120.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 24.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f / 6.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(0.5f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.0f));
  const __m256i bits = _mm256_slli_epi32(
      _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(bits));
}

// Rows of keys and values are read in vectors of VLEN floats: 8 with
// AVX2, 16 when build.rs compiles this file a second time with AVX-512
// flags (half the instructions for the dot products and the weighted
// sums, which is where a workgroup spends its time once the cache is in
// L1). head_dim is a multiple of 16 (the emitter checks).
#if defined(__AVX512F__)
#include "x86_64_avx512_sums.h"
#include "x86_64_avx512_silu.h"
#define VLEN 16
typedef __m512 vec;
#define v_zero _mm512_setzero_ps
#define v_load _mm512_loadu_ps
#define v_store _mm512_storeu_ps
#define v_set1 _mm512_set1_ps
#define v_mul _mm512_mul_ps
#define v_add _mm512_add_ps
#define v_fmadd _mm512_fmadd_ps
#else
#define VLEN 8
typedef __m256 vec;
#define v_zero _mm256_setzero_ps
#define v_load _mm256_loadu_ps
#define v_store _mm256_storeu_ps
#define v_set1 _mm256_set1_ps
#define v_mul _mm256_mul_ps
#define v_add _mm256_add_ps
#define v_fmadd _mm256_fmadd_ps
#endif

// The graph's score scale: 1/sqrt(d) in f64, rounded to f32.
INLINE float score_scale(size_t d) {
  return (float)(1.0 / _mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd((double)d))));
}

// An f32 cache (the default): keys and values as the graph computed them.
#define KV_T float
#define KV_LOAD(p) v_load(p)
#define KV_OWN(name, x, d) const float* name = (x)
#define KV_NAME(name) name##_f32
#define KV_ENTRY iree_llm_decode_attention_workgroup
#define KV_WRITES_ENTRY iree_llm_decode_attention_writes_workgroup
#define KV_PROMPT_ENTRY iree_llm_prompt_attention_workgroup
#define KV_PROMPT_WRITE_ENTRY iree_llm_prompt_kv_write_workgroup
#include "x86_64_attention_body.h"
#undef KV_T
#undef KV_LOAD
#undef KV_OWN
#undef KV_NAME
#undef KV_ENTRY
#undef KV_WRITES_ENTRY
#undef KV_PROMPT_ENTRY
#undef KV_PROMPT_WRITE_ENTRY

// An f16 cache: half the bytes a step reads. Each product widens what it
// loads (F16C); C harness, B=8, 30 layers, one thread: at window 2048 14.0
// ms against 15.7-16.2 for f32, at position 128 1.9-2.1 against 2.3-2.6.
// Widening a tile's keys and values once on the stack for all query heads
// ran slower (14.9 and 2.2-2.3 ms).
#if VLEN == 16
#define KV_LOAD(p) _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i*)(p)))
#define KV_STORE_F16(p, x) \
  _mm256_storeu_si256((__m256i*)(p), _mm512_cvtps_ph((x), _MM_FROUND_TO_NEAREST_INT))
#else
#define KV_LOAD(p) _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(p)))
#define KV_STORE_F16(p, x) \
  _mm_storeu_si128((__m128i*)(p), _mm256_cvtps_ph((x), _MM_FROUND_TO_NEAREST_INT))
#endif
#define KV_T uint16_t
#define KV_OWN(name, x, d)                                                          \
  uint16_t name[MAX_GD];                                                            \
  for (size_t c = 0; c < (d); c += VLEN) KV_STORE_F16(name + c, v_load((x) + c))
#define KV_NAME(name) name##_f16
#define KV_ENTRY iree_llm_decode_attention_f16_workgroup
#define KV_WRITES_ENTRY iree_llm_decode_attention_writes_f16_workgroup
#define KV_PROMPT_ENTRY iree_llm_prompt_attention_f16_workgroup
#define KV_PROMPT_WRITE_ENTRY iree_llm_prompt_kv_write_f16_workgroup
#include "x86_64_attention_body.h"
