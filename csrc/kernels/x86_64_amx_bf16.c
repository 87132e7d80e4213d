// The AVX512-BF16 kernels (x86_64_avx512_bf16.c) built for CPUs with AMX
// tiles as well: the same exports and the same products, the panel products
// (every one whose k is a whole number of 32-value chunks) and the block
// weights' products of several rows through the tiles (x86_64_amx_bf16.h,
// x86_64_amx_blocks.h). Graphs
// link this object in place of the AVX512-BF16 one only where the CPU has
// AMX-BF16 and Linux granted the process its tile state.

#define IREE_LLM_AMX 1
#include "x86_64_avx512_bf16.c"
