// Dense bf16 weights in rows, the checkpoint's layout: one row, several
// rows, and a decode step's rows with the norm before them and the
// residual after. Included by x86_64_matmul.c in both builds; the AVX-512
// build keeps matrices of whole panels in panels (x86_64_avx512_panels.h)
// and these take the others.

// ---- Dense bf16 weights, one row ------------------------------------------
//
// The same contraction for one row of x and a weight W [n, k] stored as bf16
// (the checkpoint's own bytes), for B=1 decode steps and a prompt's last
// token; more rows take the product below where the graphs call it, else
// IREE's code. With AVX2, x comes in the pair order of that product (below;
// the graph reorders it) and the weights are widened the same way, a shift or
// a mask per 8 of them where widening in order takes two instructions: C
// harness over the 1B preset's products, Zen 1, 2 threads, three rounds,
// 144.6-148.9 -> 136.5-141.8 ms. The AVX-512 build keeps widening in order, a
// zmm at a time (not measured in pairs), and takes x as it is.

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
