// The live rows of a panel product: the rows of x a call computes when the
// graph says how many of its rows are real (`live`, an i32 it computed: a
// chunk's decode rows plus its real tokens), since a chunk padded to its
// graph's size would otherwise multiply its padding. The rest of the result
// is written as zeros, so whatever reads those rows stays finite. Included
// by both panel kernels (exact and bf16 activations), whose panels are 16
// weight rows wide.

INLINE size_t live_rows(const int32_t* live, size_t rows) {
  const int32_t n = *live;
  return n <= 0 ? 0 : (size_t)n < rows ? (size_t)n : rows;
}

// y[r, first..first + count) = 0 for rows [from, rows) of y [rows, n] f32,
// first and n multiples of 16.
INLINE void zero_rows_f32(float* y, size_t from, size_t rows, size_t n, size_t first,
                          size_t count) {
  size_t last = first + count;
  if (last > n) last = n;
  for (size_t r = from; r < rows; ++r)
    for (size_t i = first; i < last; i += 16) _mm512_storeu_ps(y + r * n + i, _mm512_setzero_ps());
}
