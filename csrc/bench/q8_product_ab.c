// Two builds of the 8-bit product kernels (csrc/kernels/x86_64_avx512_vnni.c
// or its AVX2 twin x86_64_avx2_q8.c) timed side by side in one process: a
// SmolLM2-135M step's 120 layer products (Q4_1 weights and scales, 66 MB,
// streamed from memory as in a step) and, with HEAD 1, its output head
// (Q8_0, 49,152 x 576, 30 MB more), each rounding its rows of x and
// multiplying them, cut into workgroups as the emitter cuts them and
// claimed as IREE's local-task driver claims them.
// Rounds alternate between build A and build B, so both see the same
// phases of a noisy host; scripts/q8-product-ab.sh builds and runs it.
//
// Why: on the shared 2-core machines of this project the same graph's step
// time moves by a fifth within minutes, more than most kernel changes
// gain. Alternating builds round by round in one process, the ratio B/A of
// neighbouring rounds is steady where the times are not: two equal builds
// (A/A, 30 rounds) gave B/A medians of 0.995 at 24 rows and 1.004 at 8,
// B faster in 16 and 14 rounds (docs/performance.md, fifty-fourth
// session).
//
//   q8_product_ab THREADS ROWS ROUNDS [HEAD]
//
// prints each round's milliseconds a step, then the medians, the median of
// B/A over neighbouring rounds, how many rounds B was faster, and whether
// both builds gave the same bits.

#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The two entries of each build used here, prefixed with the build's
// letter once it is compiled (scripts/q8-product-ab.sh).
#define ENTRIES(p)                                                                          \
  void p##_iree_llm_quantize_rows_workgroup(const float* x, size_t x_offset, const float* norm,  \
                                            size_t norm_offset, int8_t* out, size_t out_offset,  \
                                            size_t rows, size_t k, size_t eps_bits,              \
                                            size_t has_norm, size_t first, size_t per);          \
  void p##_iree_llm_blocks_vnni_packed_workgroup(                                                \
      const int8_t* x, size_t x_offset, const uint8_t* q, size_t q_offset, const uint16_t* d,    \
      size_t d_offset, const uint16_t* m, size_t m_offset, const float* res, size_t res_offset,  \
      float* y, size_t y_offset, size_t rows, size_t n, size_t k, size_t format, size_t has_res, \
      size_t first, size_t per);
ENTRIES(a)
ENTRIES(b)

typedef struct {
  void (*quantize)(const float*, size_t, const float*, size_t, int8_t*, size_t, size_t, size_t,
                   size_t, size_t, size_t, size_t);
  void (*packed)(const int8_t*, size_t, const uint8_t*, size_t, const uint16_t*, size_t,
                 const uint16_t*, size_t, const float*, size_t, float*, size_t, size_t, size_t,
                 size_t, size_t, size_t, size_t, size_t);
} build_t;

static const build_t BUILDS[2] = {
    {a_iree_llm_quantize_rows_workgroup, a_iree_llm_blocks_vnni_packed_workgroup},
    {b_iree_llm_quantize_rows_workgroup, b_iree_llm_blocks_vnni_packed_workgroup}};

// A Llama layer's products in SmolLM2-135M: q/k/v and gate/up fused, each
// after the RMSNorm; o and down add the residual.
static const struct {
  size_t n, k;
  int norm, res;
} SHAPES[4] = {{960, 576, 1, 0}, {576, 576, 0, 1}, {3072, 576, 1, 0}, {576, 1536, 0, 1}};
enum { LAYERS = 30, PRODUCTS = 4 * LAYERS, Q8_0 = 0, Q4_1 = 2, CLAIM = 8, STEPS = 10 };
enum { HEAD_N = 49152, HEAD_K = 576 };
#define EPS_BITS 0x3727c5acu  // 1e-5f

// One product: its weights (the VNNI layout's sizes, filled with a fixed
// pattern) and its workgroups.
typedef struct {
  size_t n, k, format;
  int norm, res;
  uint8_t* q;
  uint16_t *d, *m;
  size_t per, workgroups, claim;     // the product's
  size_t qper, qworkgroups, qclaim;  // the rounding's
} product_t;

static product_t products[PRODUCTS + 1];
static int threads, rows, count;  // count: PRODUCTS, or one more with the head
static float *x, *y, *norm_weight;
static int8_t* xq;

// ---- Workgroups as src/emit/kernels/workgroups.rs cuts and IREE claims them
//
// A copy of that file's `finish` and `balanced_units` (the graphs' rule
// lives there; a change to it belongs here too).

static size_t claim_for(size_t workgroups) {
  return workgroups < (size_t)CLAIM * threads ? 1 : CLAIM;
}

// When equally fast workers finish `units` in workgroups of `size`.
static size_t finish(size_t units, size_t size) {
  const size_t workgroups = (units + size - 1) / size, claim = claim_for(workgroups);
  size_t busy[64] = {0}, next = 0;
  while (next < workgroups) {
    const size_t end = next + claim < workgroups ? next + claim : workgroups;
    const size_t work = (end * size < units ? end * size : units) - next * size;
    int free = 0;
    for (int i = 1; i < threads; ++i)
      if (busy[i] < busy[free]) free = i;
    busy[free] += work;
    next = end;
  }
  size_t most = 0;
  for (int i = 0; i < threads; ++i)
    if (busy[i] > most) most = busy[i];
  return most;
}

// balanced_units: the smallest size finishing within 2% of the soonest.
static size_t balanced_units(size_t units, size_t least) {
  if (units <= least) return least;
  size_t most = (units + threads - 1) / threads, soonest = SIZE_MAX;
  if (most < least) most = least;
  for (size_t s = least; s <= most; ++s)
    if (finish(units, s) < soonest) soonest = finish(units, s);
  for (size_t s = least; s <= most; ++s)
    if (finish(units, s) <= soonest * 1.02) return s;
  return most;
}

// ---- Running a step on every thread ------------------------------------------

static atomic_int arrived, phase;
static atomic_size_t* counters;  // two a product a step: rounding, product
static const build_t* build;

static void barrier(void) {
  const int seen = atomic_load(&phase);
  if (atomic_fetch_add(&arrived, 1) == threads - 1) {
    atomic_store(&arrived, 0);
    atomic_fetch_add(&phase, 1);
  } else {
    while (atomic_load(&phase) == seen) _mm_pause();
  }
}

static void* worker(void* unused) {
  (void)unused;
  for (int s = 0; s < STEPS; ++s)
    for (int p = 0; p < count; ++p) {
      const product_t* w = &products[p];
      atomic_size_t* counter = &counters[2 * (s * count + p)];
      for (size_t i; (i = atomic_fetch_add(counter, w->qclaim)) < w->qworkgroups;)
        for (size_t j = i; j < i + w->qclaim && j < w->qworkgroups; ++j)
          build->quantize(x, 0, norm_weight, 0, xq, 0, rows, w->k, EPS_BITS, w->norm,
                          j * w->qper, w->qper);
      barrier();
      for (size_t i; (i = atomic_fetch_add(counter + 1, w->claim)) < w->workgroups;)
        for (size_t j = i; j < i + w->claim && j < w->workgroups; ++j)
          build->packed(xq, 0, w->q, 0, w->d, 0, w->m, 0, x, 0, y, 0, rows, w->n, w->k, w->format,
                        w->res, j * w->per, w->per);
      barrier();
    }
  return 0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

// Milliseconds a step of `b`, and a hash of the last product's rows.
static double run(const build_t* b, uint64_t* hash) {
  build = b;
  memset(counters, 0, sizeof(atomic_size_t) * 2 * STEPS * count);
  pthread_t ids[64];
  const double start = now();
  for (int i = 0; i < threads; ++i) pthread_create(&ids[i], 0, worker, 0);
  for (int i = 0; i < threads; ++i) pthread_join(ids[i], 0);
  const double ms = (now() - start) * 1e3 / STEPS;
  const product_t* last = &products[count - 1];
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < (size_t)rows * last->n; ++i) {
    uint32_t bits;
    memcpy(&bits, &y[i], 4);
    h = (h ^ bits) * 1099511628211u;
  }
  *hash = h;
  return ms;
}

static int by_value(const void* a, const void* b) {
  const double l = *(const double*)a, r = *(const double*)b;
  return (l > r) - (l < r);
}

static double median(double* v, int n) {
  qsort(v, n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: %s THREADS ROWS ROUNDS [HEAD]\n", argv[0]);
    return 2;
  }
  threads = atoi(argv[1]);
  rows = atoi(argv[2]);
  const int rounds = atoi(argv[3]);
  count = PRODUCTS + (argc == 5 && atoi(argv[4]) != 0);
  if (threads < 1 || threads > 64 || rows < 1 || rows > 256 || rounds < 1) {
    fprintf(stderr, "THREADS 1..64, ROWS 1..256, ROUNDS 1 or more\n");
    return 2;
  }
  for (int p = 0; p < count; ++p) {
    product_t* w = &products[p];
    if (p < PRODUCTS) {
      w->n = SHAPES[p % 4].n, w->k = SHAPES[p % 4].k, w->format = Q4_1;
      w->norm = SHAPES[p % 4].norm, w->res = SHAPES[p % 4].res;
    } else {
      // The head after the final norm; Q8_0 has no offsets (m is not read).
      w->n = HEAD_N, w->k = HEAD_K, w->format = Q8_0, w->norm = 1, w->res = 0;
    }
    const size_t groups = w->n / 16, blocks = w->k / 32;
    const size_t group_bytes = w->format == Q8_0 ? 512 : 256;
    w->q = aligned_alloc(64, groups * blocks * group_bytes);
    w->d = aligned_alloc(64, groups * blocks * 32);
    w->m = aligned_alloc(64, groups * blocks * 32);
    for (size_t i = 0; i < groups * blocks * group_bytes; ++i)
      w->q[i] = (uint8_t)((i * 2654435761u) >> 13);
    for (size_t i = 0; i < groups * blocks * 16; ++i) {
      w->d[i] = 0x2000 + i % 97;  // small positive f16 scales
      w->m[i] = 0xA000 + i % 89;  // small negative f16 offsets
    }
    // src/emit/kernels/blocks.rs: blocks_vnni_packed and quantize_rows.
    w->per = w->n % 32 == 0 ? 32 * balanced_units(w->n / 32, 1) : 16 * balanced_units(groups, 2);
    w->workgroups = (w->n + w->per - 1) / w->per;
    w->claim = claim_for(w->workgroups);
    const size_t row_groups = (rows + 7) / 8;
    w->qper = 8 * balanced_units(row_groups, 1);
    w->qworkgroups = (row_groups * 8 + w->qper - 1) / w->qper;
    w->qclaim = claim_for(w->qworkgroups);
  }
  x = aligned_alloc(64, (size_t)256 * 3072 * 4);
  y = aligned_alloc(64, (size_t)rows * (count > PRODUCTS ? HEAD_N : 3072) * 4);
  norm_weight = aligned_alloc(64, 1536 * 4);
  xq = aligned_alloc(64, (size_t)32 * 48 * 352 + 4096);
  for (int i = 0; i < 256 * 1536; ++i) x[i] = (float)((i * 37) % 101) / 101.0f - 0.5f;
  for (int i = 0; i < 1536; ++i) norm_weight[i] = 1.0f + (float)(i % 7) * 0.01f;
  counters = calloc(2 * STEPS * count, sizeof(atomic_size_t));

  double* ms[2] = {calloc(rounds, sizeof(double)), calloc(rounds, sizeof(double))};
  double* ratio = calloc(rounds, sizeof(double));
  uint64_t hash[2];
  int faster = 0;
  for (int r = 0; r < rounds; ++r) {
    // A first in even rounds, B first in odd ones: neither always follows
    // the other.
    for (int i = 0; i < 2; ++i) {
      const int which = (r + i) % 2;
      ms[which][r] = run(&BUILDS[which], &hash[which]);
    }
    ratio[r] = ms[1][r] / ms[0][r];
    faster += ratio[r] < 1.0;
    printf("round %d: A %.3f ms, B %.3f ms\n", r + 1, ms[0][r], ms[1][r]);
  }
  printf("%d threads, %d rows, %d rounds: A median %.3f ms, B median %.3f ms, B/A median %.3f, "
         "B faster in %d of %d; results %s\n",
         threads, rows, rounds, median(ms[0], rounds), median(ms[1], rounds),
         median(ratio, rounds), faster, rounds,
         hash[0] == hash[1] ? "the same bits" : "DIFFER");
  return 0;
}
