// The live rows of a product: the rows of x a call computes when the graph
// says how many of its rows are real (`live`, an i32 it computed: a chunk's
// decode rows plus its real tokens), since a chunk padded to its graph's
// size would otherwise multiply its padding. Shared by the panel kernels
// (x86_64_avx512_live_rows.h) and the 8-bit form's entries
// (x86_64_q8_entries.h), which the AVX2 build includes too: nothing here
// needs more than C.
#ifndef IREE_LLM_X86_64_LIVE_ROWS_H
#define IREE_LLM_X86_64_LIVE_ROWS_H

#include <stddef.h>
#include <stdint.h>

// The live count, at most `rows` (a negative count is none).
static inline size_t live_rows(const int32_t* live, size_t rows) {
  const int32_t n = *live;
  return n <= 0 ? 0 : (size_t)n < rows ? (size_t)n : rows;
}

#endif
