//! Hand-written CPU kernels that graphs call in place of IREE's generated
//! code, and how a graph declares and calls them.
//!
//! `csrc/kernels/x86_64_matmul.c` (AVX2, FMA, F16C) has two: `x . W^T` for a
//! weight kept in 32-element blocks and any number of rows of `x`, and
//! one row times a dense bf16 weight. `csrc/kernels/x86_64_avx512_bf16.c`
//! has two more, for CPUs with AVX512-BF16: any number of rows of `x`
//! rounded to bf16 times a dense bf16 weight or a block weight rounded to
//! bf16 a panel at a time (opt-in, not exact). `x86_64_avx512_vnni.c`, for
//! CPUs with AVX512-VNNI, rounds rows of `x` to int8 blocks and multiplies
//! them by block weights laid out for it (`emit::vnni_layout`) with
//! `vpdpbusd` (opt-in, not exact); `x86_64_avx2_q8.c` is its twin for CPUs
//! with AVX2 alone (`vpmaddubsw`: the same exports, the same results bit
//! for bit). On CPUs with AVX-512 every dense bf16 matrix is laid out in
//! panels of 16 rows (`emit::panels`, [`packs_bf16_panels`]) and every
//! product of it, exact or with bf16 activations, takes a panel kernel
//! (`x86_64_avx512_panels.h`, `x86_64_avx512_bf16_panels.h`). build.rs
//! compiles each file freestanding; the objects are embedded in this
//! binary, a graph that calls a kernel declares it as a `stream.executable`
//! naming its object
//! (`hal.executable.objects`), iree-compile links it in, and the graph calls
//! it with `flow.dispatch` on the tensors it already has, so the kernel
//! reads the same device buffers as the rest of the graph.
//!
//! Why: on this project's CPUs IREE 3.13 turns a one-row block contraction
//! into code that reduces each 32-value block to a scalar in a serial chain,
//! and needs an f32 copy of the weights for more rows; the kernel does both
//! faster, from the blocks alone (so no copy is on the device), and reads
//! Q4_0/Q4_1 values packed two to a byte, half the bytes of the portable
//! graphs' widened form (docs/performance.md,
//! "Hand-written kernel for block and bf16 weights" and "Where issue 11
//! stands"). [`Kernels::X86_64Q8`] opts in to llama.cpp's 8-bit activations,
//! [`Kernels::X86_64Bf16`] to bf16 activations (and bf16 panels of block
//! weights).
//!
//! `objects` says which compiled object a graph links on this CPU and
//! writes the objects where iree-compile finds them.

use serde::{Deserialize, Serialize};

use super::builder::{FuncBuilder, TensorType, Value};
use crate::types::{BlockFormat, DType};

mod objects;
mod workgroups;

use objects::{BF16_OBJECT, OBJECT, Object, host_has_avx2_fma_f16c, host_has_avx512_bf16};
pub use objects::{q8_rows_through_vnni, write_objects};
use workgroups::{balanced_units, host_threads, prompt_tile_rows, rows_per_thread};

/// Which hand-written kernels the graphs of a plan call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kernels {
    /// StableHLO only: graphs lower for every target (CPU, CUDA, Metal).
    #[default]
    Portable,
    /// Block-weight contractions call the x86-64 AVX2 kernel, and block
    /// matrices are on the device only as blocks; the modules then run only
    /// on such CPUs.
    X86_64,
    /// The same kernels, except that activations have each 32-value block
    /// rounded to int8 times a scale before the block products (llama.cpp's
    /// form): every product, one row or many, over block weights laid out
    /// 16 rows side by side ([`packs_for_vnni`]), through AVX512-VNNI's
    /// `vpdpbusd` where the CPU has it and AVX2's `vpmaddubsw` where it has
    /// no AVX-512 at all (the same results either way). On CPUs with
    /// AVX-512 but no VNNI, and for matrices not in whole groups of 16
    /// rows, 8 rows or more stay exact and up to 7 take the exact kernel's
    /// file's 8-bit path (on such CPUs single rows stay exact, which
    /// measured faster: [`single_rows_stay_exact`]). Faster, not exact.
    /// Opt-in (`IREE_LLM_KERNELS=x86-64-q8`); docs/performance.md gives its
    /// measured error.
    X86_64Q8,
    /// Every product of a dense bf16 weight, and every product of a block
    /// weight with several rows, rounds the rows of activations to bf16
    /// (block weights' values too, a panel at a time) and multiplies with
    /// AVX512-BF16's `vdpbf16ps` (pairs of bf16 products summed in f32):
    /// twice the multiplies per instruction of f32 FMAs, so batched steps
    /// and prompts run faster; not exact. On CPUs with AMX-BF16 the products
    /// of dense bf16 panels, and of block weights with several rows, take AMX
    /// tiles instead (`tdpbf16ps`, the same bf16 products summed in f32;
    /// `IREE_LLM_AMX=off` keeps `vdpbf16ps`), several times faster for
    /// prompts. A single row of a block weight
    /// keeps the exact kernel. Opt-in (`IREE_LLM_KERNELS=x86-64-bf16`), on
    /// CPUs with AVX512-BF16; docs/performance.md gives its measured error.
    X86_64Bf16,
}

impl Kernels {
    /// What a CPU device of this host should use: the x86-64 kernels when
    /// this build has them and the CPU has AVX2, FMA and F16C, unless
    /// `IREE_LLM_KERNELS=portable` asks for IREE's code only (to compare the
    /// two, or to step around a kernel).
    /// `IREE_LLM_KERNELS=x86-64-q8` opts in to [`Kernels::X86_64Q8`] on such
    /// a host, `IREE_LLM_KERNELS=x86-64-bf16` to [`Kernels::X86_64Bf16`]
    /// where the CPU also has AVX512-BF16 (elsewhere it warns and takes the
    /// exact kernels).
    pub fn for_host_cpu() -> Self {
        let asked = match std::env::var("IREE_LLM_KERNELS") {
            Ok(v) if !v.is_empty() => match v.parse::<Kernels>() {
                Ok(k) => Some(k),
                Err(why) => {
                    tracing::warn!("IREE_LLM_KERNELS: {why}; using this host's default");
                    None
                }
            },
            _ => None,
        };
        if asked == Some(Kernels::Portable) || OBJECT.is_none() || !host_has_avx2_fma_f16c() {
            return Kernels::Portable;
        }
        match asked {
            Some(Kernels::X86_64Bf16) if !host_has_avx512_bf16() => {
                tracing::warn!(
                    "IREE_LLM_KERNELS=x86-64-bf16: this CPU has no AVX512-BF16; \
                     using the exact x86-64 kernels"
                );
                Kernels::X86_64
            }
            asked => asked.unwrap_or(Kernels::X86_64),
        }
    }

    pub fn is_portable(&self) -> bool {
        *self == Kernels::Portable
    }

    /// Whether the block kernel rounds activations to 8 bits.
    pub fn q8_activations(&self) -> bool {
        *self == Kernels::X86_64Q8
    }

    /// The set's `IREE_LLM_KERNELS` name and whether its products are exact.
    pub fn describe(&self) -> &'static str {
        match self {
            Kernels::Portable => "portable (IREE's code only; exact)",
            Kernels::X86_64 => "x86-64 (exact)",
            Kernels::X86_64Q8 => {
                "x86-64-q8 (8-bit activations; block weights laid out 16 rows side by side, through AVX512-VNNI or AVX2; not exact)"
            }
            Kernels::X86_64Bf16 => {
                "x86-64-bf16 (bf16 activations and bf16 panels of block weights; not exact)"
            }
        }
    }

    /// Whether this build has these kernels and this CPU can run them.
    pub fn runs_on_this_host(&self) -> bool {
        match self {
            Kernels::Portable => true,
            Kernels::X86_64 | Kernels::X86_64Q8 => OBJECT.is_some() && host_has_avx2_fma_f16c(),
            Kernels::X86_64Bf16 => BF16_OBJECT.is_some() && host_has_avx512_bf16(),
        }
    }

    /// Whether products of dense bf16 weights round activations to bf16
    /// (the AVX512-BF16 kernel).
    pub fn bf16_activations(&self) -> bool {
        *self == Kernels::X86_64Bf16
    }
}

impl std::str::FromStr for Kernels {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "portable" => Ok(Kernels::Portable),
            "x86-64" | "x86_64" if OBJECT.is_some() => Ok(Kernels::X86_64),
            "x86-64-q8" | "x86_64_q8" if OBJECT.is_some() => Ok(Kernels::X86_64Q8),
            "x86-64-bf16" | "x86_64_bf16" if OBJECT.is_some() => Ok(Kernels::X86_64Bf16),
            "x86-64" | "x86_64" | "x86-64-q8" | "x86_64_q8" | "x86-64-bf16" | "x86_64_bf16" => {
                Err("this build of iree-llm has no x86-64 kernels \
                 (it was built for another architecture); use portable"
                    .into())
            }
            _ => Err(format!(
                "'{s}' is not a kernel set; use portable, x86-64, x86-64-q8 or x86-64-bf16"
            )),
        }
    }
}

/// The unit in which the products' calls choose their weight rows per
/// workgroup ([`rows_per_workgroup`]).
const ROWS_PER_WORKGROUP: i64 = 32;

/// The symbol every graph that calls a kernel refers to.
const EXECUTABLE: &str = "iree_llm_kernels";

/// Whether an MLIR text calls the kernels (and so needs their object).
pub fn called_by(mlir: &str) -> bool {
    mlir.contains(&format!("flow.dispatch @{EXECUTABLE}_"))
}

/// The C file an export's function is in.
#[derive(Clone, Copy)]
enum Source {
    /// `x86_64_matmul.c`: the exact kernels, in the build for this host.
    Exact,
    /// `x86_64_avx512_bf16.c`.
    Bf16,
    /// The 8-bit form's packed product: `x86_64_avx512_vnni.c` where the CPU
    /// has VNNI, else `x86_64_avx2_q8.c` (same exports).
    Q8,
    /// `x86_64_attention.c`, in the build for this host (as [`Source::Exact`]).
    Attention,
}

impl Source {
    fn object(self) -> Object {
        match self {
            Source::Exact => Object::exact_for_host(),
            Source::Bf16 => Object::bf16_for_host(),
            Source::Q8 => Object::q8_for_host(),
            Source::Attention if Object::exact_for_host() == Object::Avx512 => {
                Object::Avx512Attention
            }
            Source::Attention => Object::Attention,
        }
    }
}

/// One export of the kernel executable: its name, the C function its
/// workgroups call, the element types of its bindings (the last one is
/// written) and the names of its `index` arguments.
struct Export {
    name: &'static str,
    source: Source,
    symbol: &'static str,
    bindings: &'static [&'static str],
    indices: &'static [&'static str],
}

/// The attention kernels' `index` arguments (both cache types, decode
/// steps and prompts): the workload n, the layer, the caches' slots,
/// key/value heads, query heads per key/value head, capacity, window and
/// head_dim, then where the rows' queries, keys and values are
/// ([`StepRows`]): elements from one row's queries to the next's, from one
/// row's keys (and values) to the next's, and the offsets of the first
/// queries, keys and values.
const ATTENTION_INDICES: &[&str] = &[
    "n", "layer", "slots", "hkv", "g", "capacity", "window", "d", "q_row", "kv_row", "q_at",
    "k_at", "v_at",
];

/// The prompt's cache write's: the workload n (rows times key/value
/// heads), the layer, the caches' slots, key/value heads, capacity,
/// head_dim, then where the rows' keys and values are, as for
/// [`ATTENTION_INDICES`].
const PROMPT_WRITE_INDICES: &[&str] = &[
    "n", "layer", "slots", "hkv", "capacity", "d", "kv_row", "k_at", "v_at",
];

const EXPORTS: [Export; 31] = [
    // y = x . W^T for W in blocks: x, q, d, m (d again without offsets), y;
    // rows of x, weight rows n, columns k, the format's code
    // (BlockFormat::kernel_code), whether activations are rounded to 8 bits;
    // weight rows per workgroup chosen per call.
    Export {
        name: "blocks_matmul",
        source: Source::Exact,
        symbol: "iree_llm_blocks_matmul_workgroup",
        bindings: &["f32", "i8", "f16", "f16", "f32"],
        indices: &["rows", "n", "k", "format", "q8"],
    },
    // y = W . x for a dense bf16 W and one row x: x, w, y; n, k. Every
    // product below takes its weight rows per workgroup per call
    // (`rows_per_workgroup`).
    Export {
        name: "bf16_matvec",
        source: Source::Exact,
        symbol: "iree_llm_bf16_matvec_workgroup",
        bindings: &["f32", "bf16", "f32"],
        indices: &["n", "k"],
    },
    // y = x . W^T for a dense bf16 W and rows of x rounded to bf16: x, w,
    // y; rows of x, n, k.
    Export {
        name: "bf16_matmul",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_matmul_workgroup",
        bindings: &["bf16", "bf16", "f32"],
        indices: &["rows", "n", "k"],
    },
    // y = x . W^T for W in blocks, its panels rounded to bf16, and rows of x
    // rounded to bf16: x, q, d, m (d again without offsets), y; rows of x,
    // n, k, the format's code.
    Export {
        name: "blocks_bf16",
        source: Source::Bf16,
        symbol: "iree_llm_blocks_bf16_workgroup",
        bindings: &["bf16", "i8", "f16", "f16", "f32"],
        indices: &["rows", "n", "k", "format"],
    },
    // One decode step's attention of one layer: q, the caches, the rows'
    // own k and v, pos, the heads' outputs; the workload n (the slots, one
    // a row and key/value head; slots per workgroup chosen per call), the
    // layer, the caches' slots again, key/value heads, query heads per
    // key/value head, capacity, window and head_dim.
    Export {
        name: "decode_attention",
        source: Source::Attention,
        symbol: "iree_llm_decode_attention_workgroup",
        bindings: &["f32", "f32", "f32", "f32", "i32", "f32"],
        indices: ATTENTION_INDICES,
    },
    // The same over an f16 cache (`IREE_LLM_KV_CACHE=f16`).
    Export {
        name: "decode_attention_f16",
        source: Source::Attention,
        symbol: "iree_llm_decode_attention_f16_workgroup",
        bindings: &["f32", "f16", "f32", "f32", "i32", "f32"],
        indices: ATTENTION_INDICES,
    },
    // Rows of x rounded to int8 blocks for `blocks_vnni_packed`: x, an
    // RMSNorm weight (read if has_norm), the packed rows (groups of 8 rows,
    // block by block, with scales and sums); the rows of x (named n, which
    // every export's text uses for its bindings' sizes), k, the norm's
    // epsilon (f32 bits), has_norm; rows per workgroup chosen per call
    // (`quantize_rows`).
    Export {
        name: "quantize_rows",
        source: Source::Q8,
        symbol: "iree_llm_quantize_rows_workgroup",
        bindings: &["f32", "f32", "i8"],
        indices: &["n", "k", "eps", "has_norm"],
    },
    // y = res + x . W^T for W in blocks laid out for it (`emit::vnni_layout`)
    // and rows packed by `quantize_rows`: x, q, d, m (d again without
    // offsets), res (read if has_res), y; rows of x, n (a multiple of 16),
    // k, the format's code, has_res.
    Export {
        name: "blocks_vnni_packed",
        source: Source::Q8,
        symbol: "iree_llm_blocks_vnni_packed_workgroup",
        bindings: &["i8", "i8", "f16", "f16", "f32", "f32"],
        indices: &["rows", "n", "k", "format", "has_res"],
    },
    // y = x . W^T for a dense bf16 W and several rows x, exactly (W's
    // panels widened to f32): x, w, y; rows of x, n, k.
    Export {
        name: "bf16_rows",
        source: Source::Exact,
        symbol: "iree_llm_bf16_rows_workgroup",
        bindings: &["f32", "bf16", "f32"],
        indices: &["rows", "n", "k"],
    },
    // y = x . W^T for a dense bf16 W laid out in panels (`emit::panels`)
    // and any number of rows x, exactly: x, w, y; rows of x, n, k.
    Export {
        name: "bf16_panels",
        source: Source::Exact,
        symbol: "iree_llm_bf16_panels_workgroup",
        bindings: &["f32", "bf16", "f32"],
        indices: &["rows", "n", "k"],
    },
    // The same with rows of x rounded to bf16 (`vdpbf16ps`): x, w, y; rows
    // of x, n, k.
    Export {
        name: "bf16_panels_bf16",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_panels_bf16_workgroup",
        bindings: &["bf16", "bf16", "f32"],
        indices: &["rows", "n", "k"],
    },
    // A prompt's (or a chunk's) attention of one layer, its keys and values
    // already in the cache: q, the caches, the rows' own k and v, the slot
    // and the first row's position, the heads' outputs; the workload n (rows
    // times key/value heads), then as `decode_attention`.
    Export {
        name: "prompt_attention",
        source: Source::Attention,
        symbol: "iree_llm_prompt_attention_workgroup",
        bindings: &["f32", "f32", "f32", "f32", "i32", "f32"],
        indices: ATTENTION_INDICES,
    },
    // The same over an f16 cache.
    Export {
        name: "prompt_attention_f16",
        source: Source::Attention,
        symbol: "iree_llm_prompt_attention_f16_workgroup",
        bindings: &["f32", "f16", "f32", "f32", "i32", "f32"],
        indices: ATTENTION_INDICES,
    },
    // act = silu(x . Wg^T) * (x . Wu^T) in bf16 for the stacked gate and up
    // matrix in panels and rows of x rounded to bf16: x, w, act; rows of x,
    // m (the width of each), k.
    Export {
        name: "bf16_panels_silu_bf16",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_panels_silu_bf16_workgroup",
        bindings: &["bf16", "bf16", "bf16"],
        indices: &["rows", "n", "k"],
    },
    // The same exactly, in f32: x, w, act; rows of x, m, k.
    Export {
        name: "bf16_panels_silu",
        source: Source::Exact,
        symbol: "iree_llm_bf16_panels_silu_workgroup",
        bindings: &["f32", "bf16", "f32"],
        indices: &["rows", "n", "k"],
    },
    // The four panel kernels above over the first `live` rows of x only (an
    // i32 [1] binding after w; the other rows of the result are zero): a
    // chunk's rows past its real tokens are padding.
    Export {
        name: "bf16_panels_live",
        source: Source::Exact,
        symbol: "iree_llm_bf16_panels_live_workgroup",
        bindings: &["f32", "bf16", "i32", "f32"],
        indices: &["rows", "n", "k"],
    },
    Export {
        name: "bf16_panels_bf16_live",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_panels_bf16_live_workgroup",
        bindings: &["bf16", "bf16", "i32", "f32"],
        indices: &["rows", "n", "k"],
    },
    Export {
        name: "bf16_panels_silu_bf16_live",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_panels_silu_bf16_live_workgroup",
        bindings: &["bf16", "bf16", "i32", "bf16"],
        indices: &["rows", "n", "k"],
    },
    Export {
        name: "bf16_panels_silu_live",
        source: Source::Exact,
        symbol: "iree_llm_bf16_panels_silu_live_workgroup",
        bindings: &["f32", "bf16", "i32", "f32"],
        indices: &["rows", "n", "k"],
    },
    // The bf16 panel kernels for 9 to TALL_ROWS rows of x, which take x
    // interleaved ([`interleave_pairs`]): the same bindings and indices, and
    // the same sums bit for bit.
    Export {
        name: "bf16_panels_bf16_tall",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_panels_bf16_tall_workgroup",
        bindings: &["bf16", "bf16", "f32"],
        indices: &["rows", "n", "k"],
    },
    Export {
        name: "bf16_panels_bf16_tall_live",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_panels_bf16_tall_live_workgroup",
        bindings: &["bf16", "bf16", "i32", "f32"],
        indices: &["rows", "n", "k"],
    },
    Export {
        name: "bf16_panels_silu_bf16_tall",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_panels_silu_bf16_tall_workgroup",
        bindings: &["bf16", "bf16", "bf16"],
        indices: &["rows", "n", "k"],
    },
    Export {
        name: "bf16_panels_silu_bf16_tall_live",
        source: Source::Bf16,
        symbol: "iree_llm_bf16_panels_silu_bf16_tall_live_workgroup",
        bindings: &["bf16", "bf16", "i32", "bf16"],
        indices: &["rows", "n", "k"],
    },
    // `quantize_rows` and `blocks_vnni_packed` for at most 8 rows of f32 x,
    // which each workgroup normalizes and rounds itself (k at most
    // FUSED_ROWS_K): x, the norm, q, d, m, res, y; rows, n, k, format, eps,
    // has_norm, has_res as theirs.
    Export {
        name: "blocks_vnni_rows",
        source: Source::Q8,
        symbol: "iree_llm_blocks_vnni_rows_workgroup",
        bindings: &["f32", "f32", "i8", "f16", "f16", "f32", "f32"],
        indices: &["rows", "n", "k", "format", "eps", "has_norm", "has_res"],
    },
    // `blocks_matmul` exactly, with the RMSNorm of x before it and a
    // residual after it done by its workgroups (rows times k at most
    // FUSED_EXACT_VALUES when has_norm): x, the norm, q, d, m, res, y;
    // rows, n, k, format, eps, has_norm, has_res as `blocks_vnni_rows`.
    Export {
        name: "blocks_matmul_fused",
        source: Source::Exact,
        symbol: "iree_llm_blocks_matmul_fused_workgroup",
        bindings: &["f32", "f32", "i8", "f16", "f16", "f32", "f32"],
        indices: &["rows", "n", "k", "format", "eps", "has_norm", "has_res"],
    },
    // `quantize_rows` and `blocks_vnni_packed` over the first `live` rows of
    // x only (an i32 [1] binding before the result; the product's other rows
    // are zero): a chunk's rows past its real tokens are padding.
    Export {
        name: "quantize_rows_live",
        source: Source::Q8,
        symbol: "iree_llm_quantize_rows_live_workgroup",
        bindings: &["f32", "f32", "i32", "i8"],
        indices: &["n", "k", "eps", "has_norm"],
    },
    Export {
        name: "blocks_vnni_packed_live",
        source: Source::Q8,
        symbol: "iree_llm_blocks_vnni_packed_live_workgroup",
        bindings: &["i8", "i8", "f16", "f16", "i32", "f32", "f32"],
        indices: &["rows", "n", "k", "format", "has_res"],
    },
    // `decode_attention` that also writes each row's own key and value into
    // the caches at its position (the caches' binding is read and written;
    // the graph ties it to a result).
    Export {
        name: "decode_attention_writes",
        source: Source::Attention,
        symbol: "iree_llm_decode_attention_writes_workgroup",
        bindings: &["f32", "f32", "f32", "f32", "i32", "f32"],
        indices: ATTENTION_INDICES,
    },
    Export {
        name: "decode_attention_writes_f16",
        source: Source::Attention,
        symbol: "iree_llm_decode_attention_writes_f16_workgroup",
        bindings: &["f32", "f16", "f32", "f32", "i32", "f32"],
        indices: ATTENTION_INDICES,
    },
    // A prompt's (or a chunk's) keys and values written into the caches
    // before its attention: the layer's projected rows, the caches (read
    // and written; the graph ties them to the result), the slot and the
    // first row's position.
    Export {
        name: "prompt_kv_write",
        source: Source::Attention,
        symbol: "iree_llm_prompt_kv_write_workgroup",
        bindings: &["f32", "f32", "i32"],
        indices: PROMPT_WRITE_INDICES,
    },
    Export {
        name: "prompt_kv_write_f16",
        source: Source::Attention,
        symbol: "iree_llm_prompt_kv_write_f16_workgroup",
        bindings: &["f32", "f16", "i32"],
        indices: PROMPT_WRITE_INDICES,
    },
];

/// The most values of x (rows times k) `blocks_matmul_fused` normalizes
/// (`FUSED_EXACT_VALUES` in csrc/kernels/x86_64_matmul.c: its workgroups
/// hold the normalized rows on a worker's stack).
const FUSED_EXACT_VALUES: i64 = 8192;

/// The most values of k `blocks_vnni_rows` rounds its rows for
/// (`FUSED_ROWS_K` in csrc/kernels/x86_64_q8_entries.h: the rounded rows live
/// on a worker's stack).
const FUSED_ROWS_K: i64 = 2048;

impl Export {
    /// How a graph names this export in `flow.dispatch`.
    fn callee(&self) -> String {
        format!("@{EXECUTABLE}_{}::@{}", self.name, self.name)
    }

    /// The export's workgroup count and its function, which turns bindings
    /// into (pointer, offset) pairs and calls the C function with the
    /// indices and its range of weight rows.
    fn text(&self) -> String {
        let mut args = Vec::new();
        let mut body = String::new();
        let mut call_args = Vec::new();
        let mut call_types = Vec::new();
        for (i, elem) in self.bindings.iter().enumerate() {
            args.push(format!("%b{i}: !stream.binding"));
            body.push_str(&format!(
                "        %m{i} = stream.binding.subspan %b{i}[%c0] : !stream.binding -> memref<?x{elem}>{{%n}}\n\
                 \x20       %p{i}, %o{i}, %s{i}, %t{i} = iree_codegen.extract_strided_metadata %m{i} : memref<?x{elem}> -> memref<{elem}>, index, index, index\n"
            ));
            call_args.push(format!("%p{i}, %o{i}"));
            call_types.push(format!("memref<{elem}>, index"));
        }
        for name in self.indices {
            args.push(format!("%{name}: index"));
            call_args.push(format!("%{name}"));
            call_types.push("index".into());
        }
        // Every call chooses its workgroups' size: the workload is (units,
        // units per workgroup), and the call passes the size again after
        // the export's indices, for the workgroup's function.
        args.push("%per: index".into());
        call_args.push("%first, %per".into());
        call_types.push("index, index".into());
        let (name, symbol) = (self.name, self.symbol);
        let sig = call_types.join(", ");
        let workload = "%n: index, %size: index";
        let count = "affine_map<()[s0, s1] -> (s0 ceildiv s1)>()[%n, %size]";
        format!(
            "    stream.executable.export public @{name} workgroups({workload}) -> (index, index, index) {{\n\
             \x20     %x = affine.apply {count}\n\
             \x20     %c1 = arith.constant 1 : index\n\
             \x20     stream.return %x, %c1, %c1 : index, index, index\n\
             \x20   }}\n\
             \x20   builtin.module {{\n\
             \x20     func.func private @{symbol}({sig}) attributes {{hal.import.static, llvm.bareptr = true}}\n\
             \x20     func.func @{name}({}) {{\n\
             \x20       %c0 = arith.constant 0 : index\n\
             \x20       %wg = stream.dispatch.workgroup.id[0] : index\n\
             \x20       %first = arith.muli %wg, %per : index\n\
             {body}\
             \x20       func.call @{symbol}({}) : ({sig}) -> ()\n\
             \x20       return\n\
             \x20     }}\n\
             \x20   }}\n",
            args.join(", "),
            call_args.join(", "),
        )
    }
}

/// The `stream.executable`s that declare the kernels `func` calls, to sit
/// next to it in its module. Their object is keyed by the generic x86-64 CPU
/// target, so the compiler places each kernel in the same executable (same
/// target, one library) as the graph's generated dispatches; a variant with
/// a target of its own failed to load (IREE looked the generated exports up
/// in the kernel's library).
pub fn declarations(func: &str) -> String {
    let mut out =
        String::from("  // Hand-written kernels (csrc/kernels/), linked from their objects.\n");
    for export in EXPORTS.iter().filter(|e| func.contains(&e.callee())) {
        let object = export
            .source
            .object()
            .name()
            .expect("graphs call the kernels only in builds that have them");
        // One executable per export: its builtin.module holds that export's
        // functions.
        out.push_str(&format!(
            "  stream.executable private @{EXECUTABLE}_{} attributes {{hal.executable.objects = #hal.executable.objects<{{\
             #hal.executable.target<\"llvm-cpu\", \"embedded-elf-x86_64\"> = [#hal.executable.object<{{path = \"{object}\"}}>]}}>}} {{\n\
             {}\
             \x20 }}\n",
            export.name,
            export.text()
        ));
    }
    out
}

/// `x . W^T` [rows, n] for `x` [rows, k] and a block
/// weight W [n, k] in `format` given as its parts `q` [n, k/32,
/// format.q_bytes(true)] i8 (4-bit values packed), `d` [n, k/32] f16 and optional offsets `m` like
/// `d`; `kernels` says whether activations are rounded to 8 bits, or (for
/// several rows) to bf16 by the AVX512-BF16 kernel, which rounds the
/// weights to bf16 a panel at a time. One row stays exact under
/// [`Kernels::X86_64Bf16`]: the exact kernel reads a row's blocks at memory
/// speed, and dequantizing them to bf16 measured slower.
pub fn blocks_matmul(
    f: &mut FuncBuilder,
    kernels: Kernels,
    x: &Value,
    format: BlockFormat,
    q: &Value,
    d: &Value,
    m: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let (n, blocks) = (q.shape()[0], q.shape()[1]);
    assert_eq!(blocks * super::BLOCK, k, "weight columns match x");
    assert_eq!(
        q.shape()[2],
        format.q_bytes(true),
        "the kernel reads packed nibbles"
    );
    let m_or_d = m.unwrap_or(d);
    let result = TensorType::new(&[rows, n], DType::F32);
    if kernels.bf16_activations() && rows > 1 {
        let xb = f.convert(x, DType::BF16);
        let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
        return f.dispatch_extern(
            &EXPORTS[3].callee(),
            &[n, per],
            &[xb, q.clone(), d.clone(), m_or_d.clone()],
            &[rows, n, k, format.kernel_code(), per],
            result,
        );
    }
    let q8 = kernels.q8_activations() && !single_rows_stay_exact();
    let per = if q8 && rows <= Q8_ROWS {
        rows_per_thread(n, ROWS_PER_WORKGROUP, host_threads())
    } else {
        rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1)
    };
    f.dispatch_extern(
        &EXPORTS[0].callee(),
        &[n, per],
        &[x.clone(), q.clone(), d.clone(), m_or_d.clone()],
        &[rows, n, k, format.kernel_code(), q8 as i64, per],
        result,
    )
}

/// Whether an exact product of block weights ([`blocks_matmul`]) of `x`
/// can take the norm before it and the residual after it into its own
/// workgroups ([`blocks_matmul_fused`]): a single row (several measured
/// slower at B=4, docs/performance.md) in the exact kernels (the exact form,
/// and the bf16 form, whose single rows stay exact; not the 8-bit form's
/// rounded rows) and, with a norm, one that fits the workgroups' stack.
pub fn takes_blocks_matmul_fused(kernels: Kernels, x: &Value, norm: bool) -> bool {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let exact = matches!(kernels, Kernels::X86_64 | Kernels::X86_64Bf16);
    exact && rows == 1 && (!norm || rows * k <= FUSED_EXACT_VALUES)
}

/// `residual + rms_norm(x) . W^T`, either part optional, for a block weight
/// as [`blocks_matmul`] takes it, in one dispatch where
/// [`takes_blocks_matmul_fused`] holds: the same products, the norm summed
/// in another order than the graph's RMSNorm (within f32 rounding of it)
/// and the residual added as the graph adds it.
#[allow(clippy::too_many_arguments)]
pub fn blocks_matmul_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    format: BlockFormat,
    q: &Value,
    d: &Value,
    m: Option<&Value>,
    residual: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let (n, blocks) = (q.shape()[0], q.shape()[1]);
    assert_eq!(blocks * super::BLOCK, k, "weight columns match x");
    assert!(
        norm.is_none() || rows * k <= FUSED_EXACT_VALUES,
        "the normalized rows fit a workgroup's stack"
    );
    let (res, has_res) = residual_operand(x, residual, n);
    let (weight, eps, has_norm) = norm_operand(f, x, norm);
    let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
    let operands = [
        x.clone(),
        weight,
        q.clone(),
        d.clone(),
        m.unwrap_or(d).clone(),
        res,
    ];
    f.dispatch_extern(
        &EXPORTS[24].callee(),
        &[n, per],
        &operands,
        &[
            rows,
            n,
            k,
            format.kernel_code(),
            eps,
            has_norm,
            has_res,
            per,
        ],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// The most rows of x the AVX2 kernel takes through its 8-bit product
/// (`Q8_ROWS` in csrc/kernels/x86_64_matmul.c): each workgroup rounds them
/// all once, then reads each weight row once for all of them. More rows
/// take the exact panel product.
const Q8_ROWS: i64 = 7;

/// Weight rows per workgroup of a product of `rows` rows of x over `n`
/// weight rows, in whole `unit`s and at least `least` of them: sized for the
/// way IREE's CPU driver claims workgroups ([`workgroups`]) where there are
/// several rows of x. One row stays at `least` units: that product reads
/// its weights at memory speed, and the driver's claims of 8 small
/// workgroups give each worker long runs of consecutive rows for the
/// hardware prefetcher, where balanced claims of larger ones gave short
/// runs (SmolLM2 Q4_1, 8-bit B=1 step, 8 rounds: 6.75 ms median balanced
/// against 6.18; docs/performance.md).
fn rows_per_workgroup(rows: i64, n: i64, unit: i64, least: i64) -> i64 {
    if rows == 1 {
        return unit * least;
    }
    unit * balanced_units((n + unit - 1) / unit, least, host_threads())
}

/// Rows of `x` [rows, k] rounded to int8 blocks for the packed 8-bit
/// product (VNNI or AVX2), in csrc/kernels/x86_64_q8_rows.h's layout: per
/// group of 8 rows and block, 8 x 32 int8 values and 3 x 8 four-byte values
/// (scales, exact sums and the int8 values' sums). With `norm`, each row
/// is normalized first ([`RmsNorm`]). With `live` (an i32 [1]) only that
/// many leading rows are rounded, for a product that takes the same count.
fn quantize_rows(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    live: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let groups = (rows + 7) / 8;
    let blocks = k / super::BLOCK;
    let packed = TensorType::new(&[groups * blocks * (8 * 32 + 8 * 12)], DType::I8);
    let (weight, eps, has_norm) = norm_operand(f, x, norm);
    let (export, operands) = match live {
        Some(live) => (&EXPORTS[25], vec![x.clone(), weight, live_binding(live)]),
        None => (&EXPORTS[6], vec![x.clone(), weight]),
    };
    // Whole groups of 8 rows a workgroup (a group's rows share cache lines
    // of the result), spread over the threads: with 32 rows a workgroup a
    // step carrying a 16-token chunk (24 rows) rounded on one thread while
    // the other waited (C harness, SmolLM2's 120 layer products at 24 rows,
    // 12 alternating rounds: median 12.37 -> 11.92 ms; docs/performance.md,
    // fifty-third session). The workgroups cover the last group whole, so
    // its rows past `rows` are written as zeros.
    let per = 8 * balanced_units(groups, 1, host_threads());
    f.dispatch_extern(
        &export.callee(),
        &[groups * 8, per],
        &operands,
        &[rows, k, eps, has_norm, per],
        packed,
    )
}

/// A live-rows count as the kernels bind it: an i32 [1].
fn live_binding(live: &Value) -> Value {
    assert!(
        live.shape() == [1] && live.elem() == DType::I32,
        "live rows as an i32 [1], not {:?} {:?}",
        live.shape(),
        live.elem()
    );
    live.clone()
}

/// An RMSNorm over the rows a product takes, done by the 8-bit form's
/// rounding of those rows instead of dispatches of its own: each row x
/// becomes `(x * rsqrt(mean(x^2) + eps)) * weight`.
pub struct RmsNorm {
    /// The norm's weight [k], any float type.
    pub weight: Value,
    pub eps: f64,
}

/// The norm's weight as f32, its epsilon as f32 bits and 1, or `x` (not
/// read), 0 and 0 without a norm.
fn norm_operand(f: &mut FuncBuilder, x: &Value, norm: Option<&RmsNorm>) -> (Value, i64, i64) {
    match norm {
        Some(n) => {
            assert_eq!(
                n.weight.shape(),
                &x.shape()[1..],
                "a norm weight per column of x"
            );
            let w = if n.weight.elem() == DType::F32 {
                n.weight.clone()
            } else {
                f.convert(&n.weight, DType::F32)
            };
            (w, i64::from((n.eps as f32).to_bits()), 1)
        }
        None => (x.clone(), 0, 0),
    }
}

/// The residual [rows, n] a fused product adds to its outputs and 1, or
/// `x` (not read) and 0 without one.
fn residual_operand(x: &Value, residual: Option<&Value>, n: i64) -> (Value, i64) {
    match residual {
        Some(r) => {
            assert_eq!(r.shape(), &[x.shape()[0], n], "a residual per output");
            (r.clone(), 1)
        }
        None => (x.clone(), 0),
    }
}

/// Whether graphs with `kernels` keep block matrices in the VNNI kernel's
/// layout ([`super::vnni_layout`]): the 8-bit form on a CPU and build with
/// AVX512-VNNI, or with AVX2 and no AVX-512 (x86_64_avx2_q8.c reads the
/// same layout). Every product of such a matrix, one row or many, then
/// goes through [`blocks_vnni_packed`]. CPUs with AVX-512 but no VNNI keep
/// the row-major form, where single rows stay exact: the AVX2 product was
/// not measured against the AVX-512 exact kernels there.
pub fn packs_for_vnni(kernels: Kernels) -> bool {
    kernels.q8_activations() && (q8_rows_through_vnni() || Object::exact_for_host() == Object::Avx2)
}

/// `x . W^T` for `x` [rows, k] (any number of rows) and W in blocks laid
/// out for the VNNI kernel: `q` [n/16, k/32, 16 x bytes], `d` and `m`
/// [n/16, k/32, 16] ([`super::vnni_layout`]); rows rounded to int8 blocks
/// first ([`quantize_rows`]), or, for a decode step's 8 rows or fewer, by
/// the product's own workgroups (`blocks_vnni_rows`: the same sums, one
/// dispatch a product instead of two). With `norm` the rows are normalized
/// as they are rounded ([`RmsNorm`]); with `residual` [rows, n] the result
/// is `residual + x . W^T`, added by the product's workgroups. With `live`
/// (an i32 [1]) a product of more than 8 rows rounds and multiplies only
/// that many leading rows, and the result's other rows are zero (a chunk's
/// padding; the fused path of 8 rows or fewer takes every row).
#[allow(clippy::too_many_arguments)]
pub fn blocks_vnni_packed(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    format: BlockFormat,
    q: &Value,
    d: &Value,
    m: Option<&Value>,
    residual: Option<&Value>,
    live: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let group = super::vnni_layout::GROUP as i64;
    let (n, blocks) = (q.shape()[0] * group, q.shape()[1]);
    assert_eq!(blocks * super::BLOCK, k, "weight columns match x");
    assert_eq!(
        q.shape()[2],
        group * format.q_bytes(true),
        "16 rows' packed values a block"
    );
    let (res, has_res) = residual_operand(x, residual, n);
    let result = TensorType::new(&[rows, n], DType::F32);
    let weights = [q.clone(), d.clone(), m.unwrap_or(d).clone()];
    // Every workgroup of the fused product rounds all of x: one a thread.
    // Otherwise whole pairs of groups of 16 rows where n allows: the
    // product takes a workgroup's groups two at a time, one from each half,
    // and an odd group alone costs a third more a group (SmolLM2's 960- and
    // 576-row products had one in every workgroup of 80 or 48 rows).
    if rows <= 8 && k <= FUSED_ROWS_K {
        let per = rows_per_thread(n, group, host_threads());
        let (weight, eps, has_norm) = norm_operand(f, x, norm);
        let operands = [&[x.clone(), weight][..], &weights, &[res]].concat();
        let indices = [
            rows,
            n,
            k,
            format.kernel_code(),
            eps,
            has_norm,
            has_res,
            per,
        ];
        f.dispatch_extern(
            &EXPORTS[23].callee(),
            &[n, per],
            &operands,
            &indices,
            result,
        )
    } else {
        let per = if n % (2 * group) == 0 {
            rows_per_workgroup(rows, n, 2 * group, 1)
        } else {
            rows_per_workgroup(rows, n, group, 2)
        };
        let xq = quantize_rows(f, x, norm, live);
        let indices = [rows, n, k, format.kernel_code(), has_res, per];
        let (export, operands) = match live {
            Some(live) => (
                &EXPORTS[26],
                [&[xq][..], &weights, &[live_binding(live), res]].concat(),
            ),
            None => (&EXPORTS[7], [&[xq][..], &weights, &[res]].concat()),
        };
        f.dispatch_extern(&export.callee(), &[n, per], &operands, &indices, result)
    }
}

/// Whether the 8-bit form leaves single rows exact on this CPU: where the
/// exact kernels are the AVX-512 build, the one-row 8-bit path (AVX2
/// `vpmaddubsw`) measured slower than the exact one-row product (Zen 5,
/// SmolLM2 Q4_1 B=1 step: 4.15-7.00 against 3.4-4.5 ms; the 1B preset as
/// Q4_1: 34.8-37.1 against 26.7-29.9 ms; docs/performance.md), so the faster
/// and exact product is taken.
pub fn single_rows_stay_exact() -> bool {
    Object::exact_for_host() == Object::Avx512
}

/// The most query heads per key/value head times head_dim the attention
/// kernel holds (`MAX_GD` in csrc/kernels/x86_64_attention.c).
const ATTENTION_MAX_GD: i64 = 2048;

/// Whether graphs with `kernels` call the decode attention kernel for heads
/// of `head_dim` with `group` query heads per key/value head.
pub fn takes_decode_attention(kernels: Kernels, group: i64, head_dim: i64) -> bool {
    !kernels.is_portable() && head_dim % 16 == 0 && group * head_dim <= ATTENTION_MAX_GD
}

/// One decode step's attention of layer `layer` ([`takes_decode_attention`]):
/// `q` [b, heads, d] (rotated), the caches `kv` [layers, 2, b * kv_heads,
/// capacity, d] (f32 or f16), the rows' own `k`, `v` [b, kv_heads, d] and positions `pos`
/// [b]; row i attends to its cached positions below `pos[i]` (and below
/// `window`) and to its own key. Returns the heads' outputs [b * kv_heads,
/// group, d] (query head h * group + j of row i at [i * kv_heads + h, j]).
///
/// With `writes` the call also writes row i's own key and value into the
/// caches at `pos[i]` of slot i (where a graph's scatter of every layer's
/// keys and values would write them; a position outside the caches is
/// skipped, as the scatter skips it), and `kv` becomes the written caches:
/// the call's second result, tied to the same buffer. Why: that scatter was
/// one of IREE's dispatches storing a float at a time, and feeding it took
/// two copies of the rows' keys and values a layer (docs/performance.md,
/// forty-sixth session).
#[allow(clippy::too_many_arguments)]
pub fn decode_attention(
    f: &mut FuncBuilder,
    step: StepRows,
    kv: &mut Value,
    pos: &Value,
    layer: i64,
    window: i64,
    writes: bool,
) -> Value {
    let (b, d) = (step.count(), step.q().shape()[2]);
    let (heads, hkv) = step.heads();
    let (slots, capacity) = (kv.shape()[2], kv.shape()[3]);
    let group = heads / hkv;
    // Row i's heads are the first cache slots; spare slots may follow.
    let rows = b * hkv;
    assert!(rows <= slots, "a cache slot per row and key/value head");
    assert_eq!(kv.shape()[4], d, "cache and queries share head_dim");
    // Slots a workgroup, one after the other (x86_64_attention.c).
    let per = balanced_units(rows, 1, host_threads());
    let export = match (kv.elem(), writes) {
        (DType::F32, false) => &EXPORTS[4],
        (DType::F16, false) => &EXPORTS[5],
        (DType::F32, true) => &EXPORTS[27],
        (DType::F16, true) => &EXPORTS[28],
        (other, _) => panic!("the attention kernel reads an f32 or f16 cache, not {other:?}"),
    };
    let ([q, k, v], [q_row, kv_row, q_at, k_at, v_at]) = step.layout();
    let operands = [q.clone(), kv.clone(), k.clone(), v.clone(), pos.clone()];
    let indices = [
        rows, layer, slots, hkv, group, capacity, window, d, q_row, kv_row, q_at, k_at, v_at, per,
    ];
    let out = TensorType::new(&[rows, group, d], DType::F32);
    if !writes {
        return f.dispatch_extern(&export.callee(), &[rows, per], &operands, &indices, out);
    }
    let (o, written) =
        f.dispatch_extern_tied(&export.callee(), &[rows, per], &operands, &indices, out, 1);
    *kv = written;
    o
}

/// Rows `first..first + count` of a layer's projected rows [N, heads + 2
/// kv_heads, d] (each row's rotated queries and keys, then its values),
/// which the attention kernels read in place: a decode step's rows, a
/// prompt's, or either part of a step that carries a prompt's chunk.
#[derive(Clone)]
pub struct RowsInPlace {
    pub tensor: Value,
    pub first: i64,
    pub count: i64,
}

impl RowsInPlace {
    /// Every row of `tensor`.
    pub fn all(tensor: Value) -> Self {
        let count = tensor.shape()[0];
        RowsInPlace {
            tensor,
            first: 0,
            count,
        }
    }

    /// `count` of these rows from the `first`-th on.
    pub fn part(&self, first: i64, count: i64) -> Self {
        assert!(
            0 <= first && 0 < count && first + count <= self.count,
            "rows {first}..{} of {}",
            first + count,
            self.count
        );
        RowsInPlace {
            tensor: self.tensor.clone(),
            first: self.first + first,
            count,
        }
    }
}

/// Where the attention kernels read the rows' (a decode step's or a
/// prompt's) rotated queries, keys and values.
#[derive(Clone, Copy)]
pub enum StepRows<'a> {
    /// `q` [b, heads, d], `k` and `v` [b, kv_heads, d], tensors of their own.
    Apart {
        q: &'a Value,
        k: &'a Value,
        v: &'a Value,
    },
    /// Rows of one tensor of each row's queries, keys and values, read in
    /// place: slicing them apart cost a step three copy dispatches a layer.
    Packed {
        rows: &'a RowsInPlace,
        kv_heads: i64,
    },
}

impl StepRows<'_> {
    /// A tensor whose first dimension is the rows (all of them, where only
    /// some are read) and whose last is head_dim.
    fn q(&self) -> &Value {
        match self {
            StepRows::Apart { q, .. } => q,
            StepRows::Packed { rows, .. } => &rows.tensor,
        }
    }

    /// The rows read.
    fn count(&self) -> i64 {
        match self {
            StepRows::Apart { q, .. } => q.shape()[0],
            StepRows::Packed { rows, .. } => rows.count,
        }
    }

    /// The tensors the kernels read queries, keys and values from, and
    /// where in them ([`ATTENTION_INDICES`]: q_row, kv_row, q_at, k_at,
    /// v_at).
    fn layout(&self) -> ([&Value; 3], [i64; 5]) {
        let (heads, hkv) = self.heads();
        match *self {
            StepRows::Apart { q, k, v } => {
                let d = q.shape()[2];
                ([q, k, v], [heads * d, hkv * d, 0, 0, 0])
            }
            StepRows::Packed { rows, .. } => {
                let t = &rows.tensor;
                let d = t.shape()[2];
                let row = t.shape()[1] * d;
                let at = rows.first * row;
                (
                    [t, t, t],
                    [row, row, at, at + heads * d, at + (heads + hkv) * d],
                )
            }
        }
    }

    /// Query heads and key/value heads.
    fn heads(&self) -> (i64, i64) {
        match *self {
            StepRows::Apart { q, k, .. } => (q.shape()[1], k.shape()[1]),
            StepRows::Packed { rows, kv_heads } => {
                (rows.tensor.shape()[1] - 2 * kv_heads, kv_heads)
            }
        }
    }
}

/// Lanes of the AVX-512 prompt attention's tiles (`PT_KEYS` and `VLEN` in
/// `csrc/kernels/x86_64_prompt_tiles.h`) and the largest head_dim it takes.
const PROMPT_TILE_LANES: i64 = 16;
const PROMPT_TILE_MAX_D: i64 = 128;

/// The attention of `t` prompt rows at positions `start..start + t` of
/// layer `layer` through the decode attention kernel's body
/// ([`takes_decode_attention`]): a whole prompt (`start` 0) or a chunk of
/// one. `rows`: the rotated queries [t, heads, d] and the rows' own keys
/// and values [t, kv_heads, d] in f32 ([`StepRows`]); the caches `kv`
/// [layers, 2, slots * kv_heads, capacity, d] (f32 or f16) with the slot's
/// keys and values already written at positions 0..start + t of cache slot
/// `slot` ([`prompt_kv_write`]; `slot` and `start` i32 scalars). Row i
/// attends to positions 0..=start + i. Returns the heads' outputs [t *
/// kv_heads, group, d], as [`decode_attention`].
pub fn prompt_attention(
    f: &mut FuncBuilder,
    rows: StepRows,
    kv: &Value,
    slot: &Value,
    start: &Value,
    layer: i64,
) -> Value {
    let (t, d) = (rows.count(), rows.q().shape()[2]);
    let (heads, hkv) = rows.heads();
    let (slots, capacity) = (kv.shape()[2], kv.shape()[3]);
    let group = heads / hkv;
    assert_eq!(kv.shape()[4], d, "cache and queries share head_dim");
    assert!(t <= capacity, "a prompt of {t} in a cache of {capacity}");
    let units = t * hkv;
    // The AVX-512 build takes the rows in tiles of 16 query heads' lanes
    // (x86_64_prompt_tiles.h, within its bounds); a workgroup is then whole
    // tiles of every key/value head. Otherwise units one at a time.
    let tiles = Source::Attention.object() == Object::Avx512Attention
        && group <= PROMPT_TILE_LANES
        && d <= PROMPT_TILE_MAX_D
        && d % PROMPT_TILE_LANES == 0;
    let per = if tiles {
        prompt_tile_rows(t, PROMPT_TILE_LANES / group, host_threads()) * hkv
    } else {
        balanced_units(units, 1, host_threads())
    };
    let export = match kv.elem() {
        DType::F32 => &EXPORTS[11],
        DType::F16 => &EXPORTS[12],
        other => panic!("the attention kernel reads an f32 or f16 cache, not {other:?}"),
    };
    let at = slot_and_start(f, slot, start);
    let ([q, k, v], [q_row, kv_row, q_at, k_at, v_at]) = rows.layout();
    f.dispatch_extern(
        &export.callee(),
        &[units, per],
        &[q.clone(), kv.clone(), k.clone(), v.clone(), at],
        &[
            units, layer, slots, hkv, group, capacity, capacity, d, q_row, kv_row, q_at, k_at,
            v_at, per,
        ],
        TensorType::new(&[units, group, d], DType::F32),
    )
}

/// Writes the keys and values of a prompt's (or a chunk's) `t` rows into
/// the caches `kv` (as [`prompt_attention`] takes them) at positions
/// `start..start + t` of cache slot `slot` of layer `layer`, before its
/// attention reads them there: `rows`, `t` of the layer's rows of rotated
/// queries and keys and values, read in place ([`RowsInPlace`]). The slot
/// and start are clamped as StableHLO's `dynamic_update_slice` clamps them.
/// Why: the same write in IREE's dispatches took seven of them a layer
/// (slices, transposes and updates).
pub fn prompt_kv_write(
    f: &mut FuncBuilder,
    rows: &RowsInPlace,
    kv_heads: i64,
    kv: &mut Value,
    slot: &Value,
    start: &Value,
    layer: i64,
) {
    let (t, d) = (rows.count, rows.tensor.shape()[2]);
    let (slots, capacity) = (kv.shape()[2], kv.shape()[3]);
    assert_eq!(kv.shape()[4], d, "cache and rows share head_dim");
    assert!(t <= capacity, "a prompt of {t} in a cache of {capacity}");
    let export = match kv.elem() {
        DType::F32 => &EXPORTS[29],
        DType::F16 => &EXPORTS[30],
        other => panic!("the cache is f32 or f16, not {other:?}"),
    };
    let (_, [_, kv_row, _, k_at, v_at]) = StepRows::Packed { rows, kv_heads }.layout();
    let units = t * kv_heads;
    let per = balanced_units(units, 1, host_threads());
    let at = slot_and_start(f, slot, start);
    *kv = f.dispatch_extern_in_place(
        &export.callee(),
        &[units, per],
        &[rows.tensor.clone(), kv.clone(), at],
        &[
            units, layer, slots, kv_heads, capacity, d, kv_row, k_at, v_at, per,
        ],
        1,
    );
}

/// A prompt's slot and first position (i32 scalars) as the attention
/// kernels' i32 [2] operand.
fn slot_and_start(f: &mut FuncBuilder, slot: &Value, start: &Value) -> Value {
    let slot = f.reshape(slot, &[1]);
    let start = f.reshape(start, &[1]);
    f.concatenate(&[slot, start], 0)
}

/// `x . W^T` [1, n] for one row `x` [1, k] and a dense bf16 weight W
/// [n, k] (k a multiple of 16, see [`takes_bf16`]). The AVX2 build widens
/// W's values in pairs, so x goes to it in that order ([`pairs_split`]);
/// the AVX-512 build takes x as it is.
pub fn bf16_matvec(f: &mut FuncBuilder, x: &Value, w: &Value) -> Value {
    let (n, k) = (w.shape()[0], w.shape()[1]);
    assert!(
        takes_bf16(x, w),
        "bf16 kernel on x {:?}, weight {:?}",
        x.shape(),
        w.shape()
    );
    let x = if Object::exact_for_host() == Object::Avx2 {
        pairs_split(f, x, 16)
    } else {
        x.clone()
    };
    let per = rows_per_workgroup(1, n, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &EXPORTS[1].callee(),
        &[n, per],
        &[x, w.clone()],
        &[n, k, per],
        TensorType::new(&[1, n], DType::F32),
    )
}

/// Whether graphs with `kernels` keep dense bf16 matrices in panels
/// ([`super::panels`]): the exact kernels and the 8-bit form (whose dense
/// products are the exact kernels') in the AVX-512 build, where the panel
/// kernel replaces both the one-row and the several-row product, and the
/// bf16-activation form (AVX512-BF16 CPUs only), whose every product of a
/// dense bf16 weight takes its own panel kernel. The AVX2 build reads rows.
pub fn packs_bf16_panels(kernels: Kernels) -> bool {
    match kernels {
        Kernels::X86_64 | Kernels::X86_64Q8 => Object::exact_for_host() == Object::Avx512,
        Kernels::X86_64Bf16 => true,
        Kernels::Portable => false,
    }
}

/// `x . W^T` [rows, n] for rows `x` [rows, k] (any number) and a dense bf16
/// weight W [n, k] laid out in panels, `w` [n/16, k/2, 16, 2]
/// ([`super::panels`]), exactly, in the AVX-512 build's kernel.
///
/// With `live` (an i32 [1], see [`live_operands`]) only that many leading
/// rows are multiplied and the rest of the result is zero.
pub fn bf16_panels(f: &mut FuncBuilder, x: &Value, w: &Value, live: Option<&Value>) -> Value {
    let export = if live.is_some() {
        &EXPORTS[15]
    } else {
        &EXPORTS[9]
    };
    panels_product(f, export, x.clone(), w, live)
}

/// The same product with the rows of `x` rounded to bf16 here, through the
/// AVX512-BF16 panel kernel ([`Kernels::X86_64Bf16`]).
pub fn bf16_panels_bf16(f: &mut FuncBuilder, x: &Value, w: &Value, live: Option<&Value>) -> Value {
    let xb = f.convert(x, DType::BF16);
    if takes_tall(&xb) {
        let export = if live.is_some() {
            &EXPORTS[20]
        } else {
            &EXPORTS[19]
        };
        let xt = interleave_pairs(f, &xb);
        return panels_product_of(f, export, xt, xb.shape(), w, live);
    }
    let export = if live.is_some() {
        &EXPORTS[16]
    } else {
        &EXPORTS[10]
    };
    panels_product(f, export, xb, w, live)
}

/// The most rows of x the bf16 panel products take through their tall
/// tiles (csrc/kernels/x86_64_avx512_bf16_tall.h: one panel by up to 24
/// rows, each weight vector meeting every row as it streams in). A B=8
/// decode step carrying a chunk of 8 to 32 prompt tokens has 16 to 40 rows;
/// a prompt's larger chunks stay with the 8-row tiles, which keep x's span
/// in L1.
const TALL_ROWS: i64 = 48;

/// Whether a bf16 panel product of rows `x` [rows, k] goes through the tall
/// tiles: more rows than one 8-row tile, up to [`TALL_ROWS`], on CPUs
/// without AMX (its tiles take x as it is, 16 rows at a time, and meet each
/// weight tile with 16 or 32 rows at once already).
fn takes_tall(x: &Value) -> bool {
    (9..=TALL_ROWS).contains(&x.shape()[0]) && Object::bf16_for_host() != Object::AmxBf16
}

/// `x` [rows, k] bf16 as the tall tiles read it: [k/2, rows, 2], the rows'
/// pairs (x[r, 2j], x[r, 2j + 1]) for one j side by side.
fn interleave_pairs(f: &mut FuncBuilder, x: &Value) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    assert!(k % 2 == 0, "pairs of k: {k}");
    let pairs = f.reshape(x, &[rows, k / 2, 2]);
    f.transpose(&pairs, &[1, 0, 2])
}

/// The MLP's activation `silu(x . Wg^T) * (x . Wu^T)` [rows, m] in bf16
/// for rows `x` [rows, k] rounded to bf16 here and the stacked gate and up
/// matrix `w` in panels (gate rows 0..m, up rows m..2m; m a multiple of
/// 16), in one pass of the AVX512-BF16 panel kernel
/// ([`Kernels::X86_64Bf16`]): the two f32 products are never written out,
/// and the down projection takes the bf16 values as they are.
pub fn bf16_panels_silu_bf16(
    f: &mut FuncBuilder,
    x: &Value,
    w: &Value,
    live: Option<&Value>,
) -> Value {
    let xb = f.convert(x, DType::BF16);
    if takes_tall(&xb) {
        let export = if live.is_some() {
            &EXPORTS[22]
        } else {
            &EXPORTS[21]
        };
        let xt = interleave_pairs(f, &xb);
        return gated_product_of(f, export, xt, xb.shape(), w, DType::BF16, live);
    }
    let export = if live.is_some() {
        &EXPORTS[17]
    } else {
        &EXPORTS[13]
    };
    gated_product(f, export, xb, w, DType::BF16, live)
}

/// The same activation exactly, in f32, through the exact panel kernel
/// (the AVX-512 build's [`Kernels::X86_64`] and [`Kernels::X86_64Q8`]).
pub fn bf16_panels_silu(f: &mut FuncBuilder, x: &Value, w: &Value, live: Option<&Value>) -> Value {
    let export = if live.is_some() {
        &EXPORTS[18]
    } else {
        &EXPORTS[14]
    };
    gated_product(f, export, x.clone(), w, DType::F32, live)
}

/// A panel kernel's operands: `x`, `w`, then the live rows where given (an
/// i32 [1]: the rows of x that are real; the kernel computes only those).
fn live_operands(x: Value, w: &Value, live: Option<&Value>) -> Vec<Value> {
    let mut ops = vec![x, w.clone()];
    if let Some(live) = live {
        assert!(
            live.shape() == [1] && live.elem() == DType::I32,
            "live rows as an i32 [1], not {:?} {:?}",
            live.shape(),
            live.elem()
        );
        ops.push(live.clone());
    }
    ops
}

/// The activation through the gated panel kernel `export`, which takes x
/// as given and writes `out` values.
fn gated_product(
    f: &mut FuncBuilder,
    export: &Export,
    x: Value,
    w: &Value,
    out: DType,
    live: Option<&Value>,
) -> Value {
    let shape = x.shape().to_vec();
    gated_product_of(f, export, x, &shape, w, out, live)
}

/// [`gated_product`] of x laid out as the export reads it, `shape` its
/// [rows, k].
fn gated_product_of(
    f: &mut FuncBuilder,
    export: &Export,
    x: Value,
    shape: &[i64],
    w: &Value,
    out: DType,
    live: Option<&Value>,
) -> Value {
    let panel = super::panels::PANEL as i64;
    let (rows, k) = (shape[0], shape[1]);
    let m = w.shape()[0] * panel / 2;
    assert!(
        w.elem() == DType::BF16 && w.shape().len() == 4 && w.shape()[1] * 2 == k && m % panel == 0,
        "gated bf16 panels kernel on x {shape:?}, weight {:?}",
        w.shape()
    );
    let per = rows_per_workgroup(rows, m, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &export.callee(),
        &[m, per],
        &live_operands(x, w, live),
        &[rows, m, k, per],
        TensorType::new(&[rows, m], out),
    )
}

/// `x . W^T` through a panel kernel `export`, which takes x as given.
fn panels_product(
    f: &mut FuncBuilder,
    export: &Export,
    x: Value,
    w: &Value,
    live: Option<&Value>,
) -> Value {
    let shape = x.shape().to_vec();
    panels_product_of(f, export, x, &shape, w, live)
}

/// [`panels_product`] of x laid out as the export reads it, `shape` its
/// [rows, k].
fn panels_product_of(
    f: &mut FuncBuilder,
    export: &Export,
    x: Value,
    shape: &[i64],
    w: &Value,
    live: Option<&Value>,
) -> Value {
    let panel = super::panels::PANEL as i64;
    let (rows, k) = (shape[0], shape[1]);
    let n = w.shape()[0] * panel;
    assert!(
        w.elem() == DType::BF16 && w.shape().len() == 4 && w.shape()[1] * 2 == k,
        "bf16 panels kernel on x {shape:?}, weight {:?}",
        w.shape()
    );
    // Whole panels per workgroup: the unit is a multiple of the panel.
    const _: () = assert!(ROWS_PER_WORKGROUP % super::panels::PANEL as i64 == 0);
    let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &export.callee(),
        &[n, per],
        &live_operands(x, w, live),
        &[rows, n, k, per],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// `x . W^T` [rows, n] for rows `x` [rows, k] rounded to bf16 here and a
/// dense bf16 weight W [n, k], through the AVX512-BF16 kernel
/// ([`Kernels::X86_64Bf16`]).
pub fn bf16_matmul(f: &mut FuncBuilder, x: &Value, w: &Value) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let n = w.shape()[0];
    assert!(
        w.elem() == DType::BF16 && w.shape()[1] == k,
        "bf16 kernel on x {:?}, weight {:?} {:?}",
        x.shape(),
        w.shape(),
        w.elem()
    );
    let xb = f.convert(x, DType::BF16);
    let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &EXPORTS[2].callee(),
        &[n, per],
        &[xb, w.clone()],
        &[rows, n, k, per],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// Whether the bf16 kernel takes `x` [rows, k] times `w` [n, k]: one row,
/// bf16 weights, k in whole pairs of 8 ([`pairs_split`]). More rows go to
/// [`bf16_rows`] where it takes them, else to IREE's own code.
pub fn takes_bf16(x: &Value, w: &Value) -> bool {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    w.elem() == DType::BF16 && rows == 1 && k % 16 == 0 && w.shape()[1] == k
}

/// Whether [`bf16_rows`] takes `x` [rows, k] times `w` [n, k]: two rows or
/// more, bf16 weights, k in whole groups of 32. On the 1B preset (Zen 1,
/// docs/performance.md) the AVX2 build ran B=2 and B=4 steps 1.4x, B=8
/// steps 1.3x and prompts of 16 and 256 tokens 1.5x and 1.7x faster than
/// IREE 3.13's code; the AVX-512 build's figures are there too.
pub fn takes_bf16_rows(x: &Value, w: &Value) -> bool {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    w.elem() == DType::BF16 && rows >= 2 && k % 32 == 0 && w.shape()[1] == k
}

/// `x . W^T` [rows, n] for rows `x` [rows, k] and a dense bf16 weight W
/// [n, k] ([`takes_bf16_rows`]), exactly: `x86_64_matmul.c` widens W's
/// values in pairs, so x goes to it in that order ([`pairs_split`]).
pub fn bf16_rows(f: &mut FuncBuilder, x: &Value, w: &Value) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let n = w.shape()[0];
    assert!(
        takes_bf16_rows(x, w),
        "bf16 rows kernel on x {:?}, weight {:?}",
        x.shape(),
        w.shape()
    );
    let x = pairs_split(f, x, pairs_group());
    let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &EXPORTS[8].callee(),
        &[n, per],
        &[x, w.clone()],
        &[rows, n, k, per],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// Values of x [`bf16_rows`] splits into even and odd halves: a register
/// of weights, 16 of them in the AVX2 build and 32 in the AVX-512 one.
fn pairs_group() -> i64 {
    if Object::exact_for_host() == Object::Avx512 {
        32
    } else {
        16
    }
}

/// `x` [rows, k] (k a multiple of `group`) with every `group` values of a
/// row reordered: the half at even positions, then the half at odd ones,
/// the order in which the bf16 kernels meet them (a register of 32-bit
/// lanes of weights holds the pairs, widened by a shift and by a mask). A
/// permutation of the product's terms, so the sums are the same products
/// in another order. IREE fuses it into the norms and the SiLU product that
/// make most x's; the attention's output, a kernel's, takes a transpose of
/// its own (the 1B preset's B=8 step compiled to 282 dispatches, 200
/// before, all of it inside the step times of docs/performance.md).
fn pairs_split(f: &mut FuncBuilder, x: &Value, group: i64) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let pairs = f.reshape(x, &[rows, k / group, group / 2, 2]);
    let split = f.transpose(&pairs, &[0, 1, 3, 2]);
    f.reshape(&split, &[rows, k])
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(iree_llm_x86_64_kernels)]
    use objects::host_has_amx_bf16;

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn each_kernel_set_describes_itself_by_the_name_that_selects_it() {
        for kernels in [
            Kernels::Portable,
            Kernels::X86_64,
            Kernels::X86_64Q8,
            Kernels::X86_64Bf16,
        ] {
            let text = kernels.describe();
            let name = text.split(' ').next().unwrap();
            assert_eq!(name.parse::<Kernels>(), Ok(kernels), "{text}");
            let exact = matches!(kernels, Kernels::Portable | Kernels::X86_64);
            assert_eq!(text.ends_with("; not exact)"), !exact, "{text}");
        }
    }

    #[test]
    fn a_graph_that_calls_the_kernel_is_recognized_by_its_symbol() {
        assert!(called_by(
            "%3 = flow.dispatch @iree_llm_kernels_blocks_matmul::@blocks_matmul[%0]"
        ));
        assert!(!called_by("%3 = stablehlo.dot_general %1, %2"));
    }

    /// Products of one layer: q, k and v stacked as one matrix, o, gate and
    /// up stacked, down (checkpoint::STACKS).
    const PRODUCTS_PER_LAYER: usize = 4;

    /// The tiny preset's graphs with every matrix in Q4_1-style blocks.
    #[cfg(iree_llm_x86_64_kernels)]
    fn tiny_graph(kernels: Kernels, kind: crate::emit::GraphKind) -> String {
        use crate::emit::{BlockFormat, EmitPlan, LlamaShape};
        let cfg = crate::preset::Preset::Tiny.config();
        let mut plan = EmitPlan::new(64, &[8]).unwrap();
        for (name, shape) in crate::checkpoint::tensors(&cfg) {
            if shape.len() == 2 {
                plan.blocks.insert(name, BlockFormat::Q4_1);
            }
        }
        plan.kernels = kernels;
        crate::emit::emit_graph(&LlamaShape::from(&cfg), &plan.graph_config(), kind).mlir
    }

    /// The rows of x of each block kernel call in `mlir`.
    fn rows_per_call(mlir: &str) -> Vec<i64> {
        mlir.lines()
            .filter(|l| l.contains("@blocks_matmul[") || l.contains("@blocks_matmul_fused["))
            .map(|l| {
                let x_type = l.split(": (tensor<").nth(1).expect("a typed call");
                x_type.split('x').next().unwrap().parse().unwrap()
            })
            .collect()
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn with_the_kernels_every_block_matrix_of_a_decode_step_calls_the_kernel() {
        use crate::emit::{GraphKind, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let decode = GraphKind::Decode {
            batch: 8,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        let calls = |mlir: &str| {
            mlir.matches("flow.dispatch @iree_llm_kernels_blocks_matmul::@blocks_matmul")
                .count()
        };
        let with = tiny_graph(Kernels::X86_64, decode);
        // Every product of each layer, and the tied embedding as the output head.
        assert_eq!(calls(&with), PRODUCTS_PER_LAYER * cfg.num_hidden_layers + 1);
        assert!(with.contains("stream.executable private @iree_llm_kernels_blocks_matmul"));
        let portable = tiny_graph(Kernels::Portable, decode);
        assert_eq!(calls(&portable), 0);
        assert!(!called_by(&portable));
    }

    /// With 8-bit activations on a CPU with VNNI every product goes through
    /// the VNNI kernel over weights laid out for it (each after one call
    /// that rounds its rows), one row or eight; elsewhere both stay in the
    /// exact kernel's file.
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn with_eight_bit_activations_every_product_goes_through_the_vnni_kernel_where_the_cpu_has_it()
    {
        use crate::emit::{GraphKind, Output};
        let layers = crate::preset::Preset::Tiny.config().num_hidden_layers;
        let calls = |mlir: &str, export: &str| {
            mlir.matches(&format!(
                "flow.dispatch @iree_llm_kernels_{export}::@{export}["
            ))
            .count()
        };
        let decode = |batch| GraphKind::Decode {
            batch,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        // The tiny preset's output head is a matrix of its own, laid out too.
        let products = PRODUCTS_PER_LAYER * layers + 1;
        for batch in [1, 8] {
            let mlir = tiny_graph(Kernels::X86_64Q8, decode(batch));
            if packs_for_vnni(Kernels::X86_64Q8) {
                // Up to 8 rows, the product rounds them itself: one call.
                assert_eq!(calls(&mlir, "blocks_vnni_rows"), products, "B={batch}");
                assert_eq!(calls(&mlir, "blocks_vnni_packed"), 0, "B={batch}");
                assert_eq!(calls(&mlir, "quantize_rows"), 0, "B={batch}");
                assert_eq!(calls(&mlir, "blocks_matmul"), 0, "B={batch}");
            } else {
                assert_eq!(calls(&mlir, "blocks_vnni_rows"), 0, "B={batch}");
                assert_eq!(calls(&mlir, "blocks_vnni_packed"), 0, "B={batch}");
                assert_eq!(calls(&mlir, "blocks_matmul"), products, "B={batch}");
            }
        }
        // More rows (a prompt) are rounded once, by a dispatch of their own,
        // both in their live-rows form: a prompt padded to its bucket rounds
        // and multiplies only its real rows.
        let prompt = GraphKind::Prefill {
            slots: 1,
            tokens: 16,
            output: Output::Logits,
        };
        let mlir = tiny_graph(Kernels::X86_64Q8, prompt);
        if packs_for_vnni(Kernels::X86_64Q8) {
            let layers_products = PRODUCTS_PER_LAYER * layers;
            assert_eq!(calls(&mlir, "blocks_vnni_packed_live"), layers_products);
            assert_eq!(calls(&mlir, "quantize_rows_live"), layers_products);
            assert_eq!(calls(&mlir, "blocks_vnni_packed"), 0);
            assert_eq!(calls(&mlir, "quantize_rows"), 0);
        }
        // The exact set never calls them.
        let exact = tiny_graph(Kernels::X86_64, decode(8));
        assert_eq!(calls(&exact, "blocks_vnni_packed"), 0);
        assert_eq!(calls(&exact, "blocks_vnni_rows"), 0);
    }

    /// The 8-bit form's products take the work around them: the RMSNorm
    /// before the q/k/v, gate/up and head products (no `rsqrt` left in the
    /// graph) and the residual after the o and down products (no add of a
    /// [rows, hidden] f32 left), in decode steps and prompts alike. The
    /// exact kernels keep both as operations of their own.
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn the_eight_bit_products_normalize_their_rows_and_add_their_residuals() {
        use crate::emit::{GraphKind, Output};
        if !packs_for_vnni(Kernels::X86_64Q8) {
            return;
        }
        let cfg = crate::preset::Preset::Tiny.config();
        let (layers, hidden) = (cfg.num_hidden_layers, cfg.hidden_size);
        let norms = |mlir: &str| mlir.matches("stablehlo.rsqrt").count();
        let residuals = |mlir: &str, rows: usize| {
            let ty = format!(": tensor<{rows}x{hidden}xf32>");
            mlir.lines()
                .filter(|l| l.contains("stablehlo.add") && l.ends_with(&ty))
                .count()
        };
        let decode = GraphKind::Decode {
            batch: 8,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        let prompt = GraphKind::Prefill {
            slots: 1,
            tokens: 16,
            output: Output::Logits,
        };
        for (kind, rows) in [(decode, 8), (prompt, 16)] {
            let q8 = tiny_graph(Kernels::X86_64Q8, kind);
            assert_eq!(norms(&q8), 0, "{kind:?}");
            assert_eq!(residuals(&q8, rows), 0, "{kind:?}");
            let exact = tiny_graph(Kernels::X86_64, kind);
            // A prompt's head takes its last row only, which the exact
            // fused product normalizes itself.
            let head = usize::from(rows == 8);
            assert_eq!(norms(&exact), 2 * layers + head, "{kind:?}");
            assert_eq!(residuals(&exact, rows), 2 * layers, "{kind:?}");
        }
    }

    /// The exact form's products of one row (a single sequence's decode
    /// step) take the norm before them and the residual after them into
    /// their own workgroups: no RMSNorm and no residual add is left in the
    /// graph, and every block product is the fused call. Several rows keep
    /// both as operations of their own (fusing them measured slower at
    /// B=4; docs/performance.md).
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn the_exact_products_of_one_row_normalize_it_and_add_their_residuals() {
        use crate::emit::{GraphKind, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let (layers, hidden) = (cfg.num_hidden_layers, cfg.hidden_size);
        let norms = |mlir: &str| mlir.matches("stablehlo.rsqrt").count();
        let residuals = |mlir: &str, rows: usize| {
            let ty = format!(": tensor<{rows}x{hidden}xf32>");
            mlir.lines()
                .filter(|l| l.contains("stablehlo.add") && l.ends_with(&ty))
                .count()
        };
        let decode = |batch| GraphKind::Decode {
            batch,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        for kernels in [Kernels::X86_64, Kernels::X86_64Bf16] {
            let one = tiny_graph(kernels, decode(1));
            assert_eq!(norms(&one), 0, "{kernels:?}");
            assert_eq!(residuals(&one, 1), 0, "{kernels:?}");
            assert_eq!(kernel_calls(&one, "blocks_matmul_fused"), 4 * layers + 1);
            assert_eq!(kernel_calls(&one, "blocks_matmul"), 0);
        }
        let four = tiny_graph(Kernels::X86_64, decode(4));
        assert_eq!(norms(&four), 2 * layers + 1);
        assert_eq!(residuals(&four, 4), 2 * layers);
        assert_eq!(kernel_calls(&four, "blocks_matmul_fused"), 0);
    }

    /// With the kernels a decode step's attention is one kernel call per
    /// layer, in the logits, argmax and sampling graphs alike (so every
    /// decode path computes it the same way), and that call writes the rows'
    /// keys and values into the caches (its result tied to them): the step
    /// has no scatter of its own. So does a step carrying a prompt chunk,
    /// whose chunk's writes follow its decode rows' in each layer. Portable
    /// graphs keep the StableHLO form.
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn with_the_kernels_each_layer_of_a_decode_step_calls_the_attention_kernel_once() {
        use crate::emit::{GraphKind, Output};
        let layers = crate::preset::Preset::Tiny.config().num_hidden_layers;
        let writing = |mlir: &str| {
            mlir.matches(
                "= flow.dispatch @iree_llm_kernels_decode_attention_writes::@decode_attention_writes[",
            )
            .count()
        };
        let plain = |mlir: &str| {
            mlir.matches("= flow.dispatch @iree_llm_kernels_decode_attention::@decode_attention[")
                .count()
        };
        let scatters = |mlir: &str| mlir.matches("stablehlo.scatter").count();
        for output in [Output::Logits, Output::Argmax, Output::Sample] {
            for batch in [1, 8] {
                let decode = GraphKind::Decode {
                    batch,
                    output,
                    window: None,
                    spare: 0,
                };
                let with = tiny_graph(Kernels::X86_64, decode);
                assert_eq!(writing(&with), layers, "{output:?} B={batch}");
                assert_eq!(plain(&with), 0, "{output:?} B={batch}");
                assert_eq!(scatters(&with), 0, "{output:?} B={batch}");
                let portable = tiny_graph(Kernels::Portable, decode);
                assert_eq!(writing(&portable) + plain(&portable), 0);
                assert!(scatters(&portable) > 0, "{output:?} B={batch}");
            }
        }
        let mixed = tiny_graph(
            Kernels::X86_64,
            GraphKind::DecodeChunk {
                batch: 4,
                window: None,
                tokens: 16,
                spare: 0,
            },
        );
        assert_eq!((writing(&mixed), plain(&mixed)), (layers, 0));
        assert_eq!(scatters(&mixed), 0);
    }

    /// A decode step of several rows hands the attention kernel each
    /// layer's projected rows in place: its queries, keys and values are
    /// one operand (slicing them apart cost three copy dispatches a
    /// layer). One row's slices need no copies and stay apart.
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn the_decode_attention_kernel_reads_several_rows_queries_keys_and_values_in_place() {
        use crate::emit::{GraphKind, Output};
        let layers = crate::preset::Preset::Tiny.config().num_hidden_layers;
        for batch in [1, 4, 8] {
            let decode = GraphKind::Decode {
                batch,
                output: Output::Logits,
                window: None,
                spare: 0,
            };
            let mlir = tiny_graph(Kernels::X86_64, decode);
            let calls: Vec<Vec<&str>> = mlir
                .lines()
                .filter(|l| l.contains("::@decode_attention"))
                .map(|l| {
                    let args = l.split("](").nth(1).expect("operands");
                    args.split(')').next().unwrap().split(", ").collect()
                })
                .collect();
            assert_eq!(calls.len(), layers, "B={batch}");
            for ops in calls {
                // q, the cache, k, v, the positions.
                let in_place = ops[0] == ops[2] && ops[2] == ops[3];
                assert_eq!(in_place, batch > 1, "B={batch}: {ops:?}");
            }
        }
    }

    /// A prompt's attention takes the same kernel's body, once a layer, in
    /// place of IREE's masked t x t form; portable graphs keep that form.
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn with_the_kernels_each_layer_of_a_prompt_or_chunk_calls_the_prompt_attention_kernel_once() {
        use crate::emit::{GraphKind, Output};
        let layers = crate::preset::Preset::Tiny.config().num_hidden_layers;
        let calls = |mlir: &str| {
            mlir.matches("flow.dispatch @iree_llm_kernels_prompt_attention::@prompt_attention[")
                .count()
        };
        for (slots, tokens) in [(1, 16), (4, 64)] {
            let prefill = GraphKind::Prefill {
                slots,
                tokens,
                output: Output::Logits,
            };
            assert_eq!(calls(&tiny_graph(Kernels::X86_64, prefill)), layers);
            assert_eq!(calls(&tiny_graph(Kernels::Portable, prefill)), 0);
        }
        // A chunk's rows too, alone or carried by a decode step, so one
        // graph takes a chunk at any start (the window bounds IREE's form).
        let chunk = GraphKind::Chunk {
            slots: 4,
            tokens: 8,
            window: 32,
            output: Output::Logits,
        };
        let carried = GraphKind::DecodeChunk {
            batch: 8,
            window: Some(32),
            tokens: 8,
            spare: 0,
        };
        for kind in [chunk, carried] {
            assert_eq!(
                calls(&tiny_graph(Kernels::X86_64, kind)),
                layers,
                "{kind:?}"
            );
            assert_eq!(calls(&tiny_graph(Kernels::Portable, kind)), 0, "{kind:?}");
        }
    }

    #[test]
    fn a_prompt_or_chunk_writes_each_layers_keys_and_values_in_one_kernel_call() {
        use crate::emit::{GraphKind, Output};
        let layers = crate::preset::Preset::Tiny.config().num_hidden_layers;
        let count = |mlir: &str, what: &str| mlir.matches(what).count();
        let writes = "flow.dispatch @iree_llm_kernels_prompt_kv_write::@prompt_kv_write[";
        let prefill = GraphKind::Prefill {
            slots: 4,
            tokens: 16,
            output: Output::Logits,
        };
        let chunk = GraphKind::Chunk {
            slots: 4,
            tokens: 8,
            window: 32,
            output: Output::Logits,
        };
        for kind in [prefill, chunk] {
            let mlir = tiny_graph(Kernels::X86_64, kind);
            // The projected rows go to the write and the attention as they
            // are: no slices, transposes or cache updates of IREE's.
            assert_eq!(count(&mlir, writes), layers, "{kind:?}");
            assert_eq!(
                count(&mlir, "stablehlo.dynamic_update_slice"),
                0,
                "{kind:?}"
            );
            assert_eq!(count(&mlir, "stablehlo.transpose"), 0, "{kind:?}");
            assert_eq!(
                count(&tiny_graph(Kernels::Portable, kind), writes),
                0,
                "{kind:?}"
            );
        }
        // A decode step carrying a chunk writes the chunk's keys with it in
        // each layer, after the decode rows' attention has written theirs
        // (an idle decode row in the chunk's slot writes at the chunk's
        // start, which the chunk's write replaces), and nothing after the
        // last layer.
        let carried = GraphKind::DecodeChunk {
            batch: 8,
            window: Some(32),
            tokens: 8,
            spare: 0,
        };
        let mlir = tiny_graph(Kernels::X86_64, carried);
        let decode = "flow.dispatch @iree_llm_kernels_decode_attention_writes::";
        let order: Vec<&str> = mlir
            .lines()
            .filter_map(|l| {
                (l.contains(decode).then_some("decode")).or(l.contains(writes).then_some("chunk"))
            })
            .collect();
        assert_eq!(order, ["decode", "chunk"].repeat(layers), "{mlir}");
        assert_eq!(count(&mlir, "stablehlo.scatter"), 0);
        assert_eq!(count(&mlir, "stablehlo.dynamic_update_slice"), 0);
    }

    /// A decode step carrying a chunk multiplies its decode rows and the
    /// chunk's rows in one product where the product gives each row the
    /// same sums whatever rows share it (the 8-bit form's VNNI layout, which
    /// then reads the weights once for both), and apart where it does not
    /// (the exact kernels: 8 decode rows in registers, more in panels).
    #[test]
    fn a_step_carrying_a_chunk_multiplies_its_rows_together_where_rows_sum_alike() {
        use crate::emit::GraphKind;
        let carried = GraphKind::DecodeChunk {
            batch: 8,
            window: Some(32),
            tokens: 16,
            spare: 0,
        };
        let layers = crate::preset::Preset::Tiny.config().num_hidden_layers;
        let results = |mlir: &str, call: &str| -> Vec<i64> {
            mlir.lines()
                .filter(|l| l.contains(call))
                .map(|l| {
                    let out = l.rsplit("-> tensor<").next().expect("a typed call");
                    out.split('x').next().unwrap().parse().unwrap()
                })
                .collect()
        };
        if packs_for_vnni(Kernels::X86_64Q8) {
            let mlir = tiny_graph(Kernels::X86_64Q8, carried);
            // Every layer's four products and the head (the decode rows and
            // the chunk's last row) over all the rows at once.
            let rows = results(&mlir, "@blocks_vnni_packed_live[");
            assert_eq!(rows.len(), 4 * layers + 1, "{mlir}");
            assert!(rows[..4 * layers].iter().all(|&r| r == 24), "{rows:?}");
            assert_eq!(rows[4 * layers], 9);
            assert!(results(&mlir, "@blocks_vnni_rows[").is_empty());
        }
        let exact = rows_per_call(&tiny_graph(Kernels::X86_64, carried));
        assert!(exact.contains(&8) && exact.contains(&16), "{exact:?}");
        assert!(!exact.contains(&24), "{exact:?}");
    }

    #[test]
    fn the_attention_kernel_takes_only_head_shapes_it_holds() {
        assert!(takes_decode_attention(Kernels::X86_64, 3, 64));
        assert!(takes_decode_attention(Kernels::X86_64Bf16, 4, 64));
        assert!(!takes_decode_attention(Kernels::Portable, 3, 64));
        // head_dim not in whole vectors of 16, and a group too wide for its stack.
        assert!(!takes_decode_attention(Kernels::X86_64, 3, 40));
        assert!(!takes_decode_attention(Kernels::X86_64, 16, 256));
    }

    /// q/k/v of different block formats cannot share one matrix: they stay
    /// three parameters and three kernel calls, the other stacks unchanged.
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn projections_kept_in_different_formats_are_not_stacked() {
        use crate::emit::{BlockFormat, EmitPlan, GraphKind, LlamaShape, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let mut plan = EmitPlan::new(64, &[8]).unwrap();
        for (name, shape) in crate::checkpoint::tensors(&cfg) {
            if shape.len() == 2 {
                let format = if name.ends_with("v_proj.weight") {
                    BlockFormat::Q8_0
                } else {
                    BlockFormat::Q4_1
                };
                plan.blocks.insert(name, format);
            }
        }
        plan.kernels = Kernels::X86_64;
        let shape = LlamaShape::from(&cfg);
        let names: Vec<String> = crate::emit::llama::param_specs(&shape, &plan.graph_config())
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert!(!names.iter().any(|n| n.contains("qkv_proj")), "{names:?}");
        assert!(names.iter().any(|n| n.ends_with("v_proj.weight.q")));
        assert!(names.iter().any(|n| n.ends_with("gate_up_proj.weight.q")));
        let decode = GraphKind::Decode {
            batch: 1,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        let mlir = crate::emit::emit_graph(&shape, &plan.graph_config(), decode).mlir;
        let calls =
            kernel_calls(&mlir, "blocks_matmul") + kernel_calls(&mlir, "blocks_matmul_fused");
        assert_eq!(calls, (PRODUCTS_PER_LAYER + 2) * cfg.num_hidden_layers + 1);
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn kernel_graphs_take_packed_nibbles_and_portable_graphs_a_byte_per_value() {
        use crate::emit::{GraphKind, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let (hidden, blocks) = (cfg.hidden_size, cfg.hidden_size / 32);
        let decode = GraphKind::Decode {
            batch: 1,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        let packed = format!("tensor<{hidden}x{blocks}x16xi8>");
        let widened = format!("tensor<{hidden}x{blocks}x32xi8>");
        // 16 rows' packed nibbles side by side (emit::vnni_layout).
        let vnni = format!("tensor<{}x{blocks}x256xi8>", hidden / 16);
        for kernels in [Kernels::X86_64, Kernels::X86_64Q8] {
            let mlir = tiny_graph(kernels, decode);
            let nibbles = if packs_for_vnni(kernels) {
                &vnni
            } else {
                &packed
            };
            assert!(
                mlir.contains(nibbles) && !mlir.contains(&widened),
                "{kernels:?}"
            );
        }
        let mlir = tiny_graph(Kernels::Portable, decode);
        assert!(mlir.contains(&widened) && !mlir.contains(&packed));
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn the_8_bit_form_is_another_graph_with_the_same_kernel_calls() {
        use crate::emit::{GraphKind, Output};
        let decode = GraphKind::Decode {
            batch: 1,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        let call_flags = |mlir: &str| -> Vec<String> {
            mlir.lines()
                .filter(|l| l.contains("flow.dispatch @iree_llm_kernels_blocks_matmul"))
                .map(|l| l.to_string())
                .collect()
        };
        let exact = tiny_graph(Kernels::X86_64, decode);
        let q8 = tiny_graph(Kernels::X86_64Q8, decode);
        if packs_for_vnni(Kernels::X86_64Q8) {
            // Every product through the VNNI kernel (the test above).
            assert_eq!(call_flags(&q8).len(), 0);
            let vnni = q8.matches("@blocks_vnni_rows[").count();
            assert_eq!(vnni, call_flags(&exact).len());
            return;
        }
        assert_eq!(call_flags(&exact).len(), call_flags(&q8).len());
        // The form is an argument of each call, so the texts (and the
        // module cache's keys) differ, except where single rows stay exact:
        // then a B=1 step is the exact form's graph.
        assert_eq!(exact == q8, single_rows_stay_exact());
    }

    /// (weight rows n, rows per workgroup) of each block kernel call.
    fn split_per_call(mlir: &str) -> Vec<(i64, i64)> {
        let constants: std::collections::HashMap<&str, i64> = mlir
            .lines()
            .filter_map(|l| {
                let (name, rest) = l.trim().split_once(" = arith.constant ")?;
                Some((name, rest.strip_suffix(" : index")?.parse().ok()?))
            })
            .collect();
        mlir.lines()
            .filter_map(|l| {
                l.split_once("@blocks_matmul[")
                    .or_else(|| l.split_once("@blocks_matmul_fused["))
                    .map(|(_, w)| w)
            })
            .map(|w| {
                let w = w.split(']').next().unwrap();
                let (n, per) = w
                    .split_once(", ")
                    .expect("a workload of (n, rows per workgroup)");
                (constants[n], constants[per])
            })
            .collect()
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn rows_rounded_to_8_bits_are_cut_into_one_workgroup_a_thread_and_exact_rows_into_32s_or_balanced()
     {
        use crate::emit::{GraphKind, Output};
        let decode = |batch| GraphKind::Decode {
            batch,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        let exact = split_per_call(&tiny_graph(Kernels::X86_64, decode(1)));
        assert!(!exact.is_empty());
        assert!(
            exact.iter().all(|&(_, per)| per == ROWS_PER_WORKGROUP),
            "{exact:?}"
        );
        let batched = split_per_call(&tiny_graph(Kernels::X86_64Q8, decode(8)));
        assert!(
            batched
                .iter()
                .all(|&(n, per)| per == rows_per_workgroup(8, n, ROWS_PER_WORKGROUP, 1)),
            "{batched:?}"
        );
        if packs_for_vnni(Kernels::X86_64Q8) || single_rows_stay_exact() {
            return; // no 8-bit product in this kernel on this CPU
        }
        for batch in [1, 4] {
            let q8 = split_per_call(&tiny_graph(Kernels::X86_64Q8, decode(batch)));
            assert_eq!(q8.len(), exact.len());
            for (n, per) in q8 {
                assert_eq!(
                    per,
                    rows_per_thread(n, ROWS_PER_WORKGROUP, host_threads()),
                    "B={batch}, n {n}"
                );
            }
        }
    }

    /// A graph of the tiny preset with bf16 weights and `kernels`, emitted
    /// in a plan of decode batches `batches` (context 64).
    #[cfg(iree_llm_x86_64_kernels)]
    fn tiny_bf16_graph(kernels: Kernels, batches: &[i64], kind: crate::emit::GraphKind) -> String {
        use crate::emit::{EmitPlan, LlamaShape};
        let mut plan = EmitPlan::new(64, batches)
            .unwrap()
            .with_weights(DType::BF16);
        plan.kernels = kernels;
        let shape = LlamaShape::from(&crate::preset::Preset::Tiny.config());
        crate::emit::emit_graph(&shape, &plan.graph_config(), kind).mlir
    }

    /// How many times `mlir` dispatches the kernel export `name`.
    #[cfg(iree_llm_x86_64_kernels)]
    fn kernel_calls(mlir: &str, name: &str) -> usize {
        mlir.matches(&format!("flow.dispatch @iree_llm_kernels_{name}::@{name}["))
            .count()
    }

    /// The exact kernels' export for `rows` rows times a bf16 weight: the
    /// panel kernel for every product where the AVX-512 build keeps the
    /// weights in panels, else the one-row or the rows kernel.
    #[cfg(iree_llm_x86_64_kernels)]
    fn exact_bf16_export(rows: i64) -> &'static str {
        match rows {
            _ if packs_bf16_panels(Kernels::X86_64) => "bf16_panels",
            1 => "bf16_matvec",
            _ => "bf16_rows",
        }
    }

    /// Products a layer takes through the gated panel kernel instead of
    /// [`exact_bf16_export`]: gate and up with their SiLU, where the
    /// weights are in panels.
    #[cfg(iree_llm_x86_64_kernels)]
    fn exact_gated_products() -> usize {
        usize::from(packs_bf16_panels(Kernels::X86_64))
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn one_row_of_bf16_weights_calls_the_bf16_kernel_and_only_its_executable_is_declared() {
        use crate::emit::{GraphKind, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let graph = |batch| {
            let decode = GraphKind::Decode {
                batch,
                output: Output::Logits,
                window: None,
                spare: 0,
            };
            tiny_bf16_graph(Kernels::X86_64, &[4], decode)
        };
        let export = exact_bf16_export(1);
        let (layers, gated) = (cfg.num_hidden_layers, exact_gated_products());
        // One row: every product of each layer and the output head (gate
        // and up through the gated kernel where the weights are in panels).
        let one = graph(1);
        assert_eq!(
            kernel_calls(&one, export),
            (PRODUCTS_PER_LAYER - gated) * layers + 1
        );
        assert_eq!(kernel_calls(&one, "bf16_panels_silu"), gated * layers);
        for declared in EXPORTS.iter().map(|e| e.name) {
            assert_eq!(
                one.contains(&format!(
                    "stream.executable private @iree_llm_kernels_{declared} "
                )),
                declared == export
                    || declared == "decode_attention_writes"
                    || (declared == "bf16_panels_silu" && gated == 1),
                "{declared} is declared only if called"
            );
        }
        // Four rows never take the one-row kernel.
        assert_eq!(kernel_calls(&graph(4), "bf16_matvec"), 0);
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn several_rows_of_bf16_weights_call_the_rows_kernel() {
        use crate::emit::{GraphKind, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let graph = |kernels, kind| tiny_bf16_graph(kernels, &[4], kind);
        let export = exact_bf16_export(4);
        let calls = |mlir: &str| kernel_calls(mlir, export);
        let decode = |batch| GraphKind::Decode {
            batch,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        let prefill = GraphKind::Prefill {
            slots: 1,
            tokens: 16,
            output: Output::Logits,
        };
        let layers = (PRODUCTS_PER_LAYER - exact_gated_products()) * cfg.num_hidden_layers;
        // Four rows: every product and the output head; a prompt: every
        // product, and the head's last row alone where one row takes the
        // same kernel (gate and up in the gated kernel, where in panels).
        // The panel kernels take a prompt's layers in their live-rows form,
        // which multiplies only the prompt's real rows, not the bucket's
        // padding.
        assert_eq!(calls(&graph(Kernels::X86_64, decode(4))), layers + 1);
        let head = usize::from(export == exact_bf16_export(1));
        let prompt = graph(Kernels::X86_64, prefill);
        if packs_bf16_panels(Kernels::X86_64) {
            assert_eq!(kernel_calls(&prompt, "bf16_panels_live"), layers);
            assert_eq!(calls(&prompt), head);
        } else {
            assert_eq!(calls(&prompt), layers + head);
        }
        // One row never takes the rows kernel; portable graphs call none.
        assert_eq!(
            kernel_calls(&graph(Kernels::X86_64, decode(1)), "bf16_rows"),
            0
        );
        assert_eq!(calls(&graph(Kernels::Portable, decode(4))), 0);
        let mlir = graph(Kernels::X86_64, decode(4));
        assert!(mlir.contains(&format!(
            "stream.executable private @iree_llm_kernels_{export}"
        )));
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn with_bf16_activations_every_product_of_a_bf16_weight_calls_the_avx512_kernel() {
        use crate::emit::{GraphKind, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let graph = |kernels, kind| tiny_bf16_graph(kernels, &[8], kind);
        // The tiny preset's matrices are whole panels: all in that layout,
        // and each layer's gate and up projections with their SiLU one call
        // of the gated kernel.
        let calls = |mlir: &str| kernel_calls(mlir, "bf16_panels_bf16");
        let gated = |mlir: &str| kernel_calls(mlir, "bf16_panels_silu_bf16");
        let layers = cfg.num_hidden_layers;
        for batch in [1, 8] {
            let decode = GraphKind::Decode {
                batch,
                output: Output::Logits,
                window: None,
                spare: 0,
            };
            let mlir = graph(Kernels::X86_64Bf16, decode);
            // Every other product and the output head, whatever the rows.
            assert_eq!(
                calls(&mlir),
                (PRODUCTS_PER_LAYER - 1) * layers + 1,
                "B={batch}"
            );
            assert_eq!(gated(&mlir), layers, "B={batch}");
            assert!(
                !mlir.contains("stablehlo.logistic"),
                "B={batch}: no SiLU left"
            );
            for exact in ["bf16_matvec", "bf16_rows", "bf16_panels", "bf16_matmul"] {
                assert_eq!(kernel_calls(&mlir, exact), 0, "B={batch}: {exact}");
            }
            assert!(mlir.contains("stream.executable private @iree_llm_kernels_bf16_panels_bf16"));
            // The exact kernels never call it.
            assert_eq!(calls(&graph(Kernels::X86_64, decode)), 0);
        }
        let prefill = |tokens| GraphKind::Prefill {
            slots: 1,
            tokens,
            output: Output::Logits,
        };
        // A prompt's layers multiply only its real rows (the kernels' live
        // form), the head its last row; 9 to 48 rows take the tall tiles,
        // except on CPUs whose kernels take every row count in AMX tiles.
        let amx = Object::bf16_for_host() == Object::AmxBf16;
        for (tokens, tall) in [(16, !amx), (64, false)] {
            let mlir = graph(Kernels::X86_64Bf16, prefill(tokens));
            let (product, gated_live) = if tall {
                (
                    "bf16_panels_bf16_tall_live",
                    "bf16_panels_silu_bf16_tall_live",
                )
            } else {
                ("bf16_panels_bf16_live", "bf16_panels_silu_bf16_live")
            };
            let case = format!("prompt of {tokens}");
            assert_eq!(
                kernel_calls(&mlir, product),
                (PRODUCTS_PER_LAYER - 1) * layers,
                "{case}"
            );
            assert_eq!(calls(&mlir), 1, "{case}");
            assert_eq!(kernel_calls(&mlir, gated_live), layers, "{case}");
            assert_eq!(gated(&mlir), 0, "{case}");
            // The exact kernels take their own gated kernel, never this one.
            assert_eq!(gated(&graph(Kernels::X86_64, prefill(tokens))), 0);
        }
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn with_bf16_activations_several_rows_of_a_block_weight_call_the_avx512_kernel() {
        use crate::emit::{GraphKind, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let count = |mlir: &str, export: &str| {
            mlir.matches(&format!(
                "flow.dispatch @iree_llm_kernels_{export}::@{export}["
            ))
            .count()
        };
        let decode = |batch| GraphKind::Decode {
            batch,
            output: Output::Logits,
            window: None,
            spare: 0,
        };
        let matrices = PRODUCTS_PER_LAYER * cfg.num_hidden_layers + 1;
        let b8 = tiny_graph(Kernels::X86_64Bf16, decode(8));
        assert_eq!(count(&b8, "blocks_bf16"), matrices);
        assert_eq!(count(&b8, "blocks_matmul"), 0);
        // One row keeps the exact kernel.
        let b1 = tiny_graph(Kernels::X86_64Bf16, decode(1));
        assert_eq!(count(&b1, "blocks_bf16"), 0);
        assert_eq!(
            count(&b1, "blocks_matmul") + count(&b1, "blocks_matmul_fused"),
            matrices
        );
        assert_eq!(
            count(&tiny_graph(Kernels::X86_64, decode(8)), "blocks_bf16"),
            0
        );
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn a_decode_step_carrying_a_chunk_gives_its_decode_rows_a_plain_steps_kernel_calls() {
        use crate::emit::GraphKind;
        let cfg = crate::preset::Preset::Tiny.config();
        let carrying = GraphKind::DecodeChunk {
            batch: 8,
            window: Some(64),
            tokens: 24,
            spare: 0,
        };
        let mlir = tiny_graph(Kernels::X86_64, carrying);
        let calls = rows_per_call(&mlir);
        let rows = |n: i64| calls.iter().filter(|&&r| r == n).count();
        // Every product of the 8 decode rows, as in a plain B=8 step, apart
        // from those of the 24 chunk rows, as in a 24-token chunk graph
        // (whose head takes the chunk's last row only).
        assert_eq!(rows(8), PRODUCTS_PER_LAYER * cfg.num_hidden_layers + 1);
        assert_eq!(rows(24), PRODUCTS_PER_LAYER * cfg.num_hidden_layers);
        assert_eq!(rows(1), 1);
        assert_eq!(calls.len(), rows(8) + rows(24) + rows(1));
        let portable = tiny_graph(Kernels::Portable, carrying);
        assert!(!called_by(&portable));
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn a_prompts_rows_call_the_kernel_and_no_dense_copy_is_taken() {
        use crate::emit::{GraphKind, Output};
        let cfg = crate::preset::Preset::Tiny.config();
        let prefill = GraphKind::Prefill {
            slots: 1,
            tokens: 16,
            output: Output::Logits,
        };
        let mlir = tiny_graph(Kernels::X86_64, prefill);
        let calls = rows_per_call(&mlir);
        let rows = |n: i64| calls.iter().filter(|&&r| r == n).count();
        // All 16 rows through every layer; the head takes the last token.
        assert_eq!(rows(16), PRODUCTS_PER_LAYER * cfg.num_hidden_layers);
        assert_eq!(rows(1), 1);
        assert_eq!(calls.len(), rows(16) + rows(1));
        // The graph takes no f32 [out, in] matrix; portable graphs take one
        // per block matrix.
        let dense_args = |mlir: &str| {
            let sig = mlir
                .lines()
                .find(|l| l.contains("func.func @prefill"))
                .unwrap();
            sig.split("tensor<")
                .skip(1)
                .filter(|t| {
                    let ty = t.split('>').next().unwrap();
                    ty.ends_with("xf32") && ty.matches('x').count() == 2
                })
                .count()
        };
        // (The RoPE tables are the only other rank-2 f32 arguments.)
        assert_eq!(dense_args(&mlir), 2);
        let portable = tiny_graph(Kernels::Portable, prefill);
        let heads = if cfg.tie_word_embeddings { 0 } else { 1 };
        assert_eq!(
            dense_args(&portable),
            2 + 1 + heads + PRODUCTS_PER_LAYER * cfg.num_hidden_layers
        );
    }

    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn each_object_is_written_once_under_a_name_that_carries_its_hash() {
        let dir = tempfile::tempdir().unwrap();
        write_objects(dir.path()).unwrap();
        write_objects(dir.path()).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names.len(), Object::ALL.len(), "{names:?}");
        let named = |object: Object| object.name().unwrap().to_string();
        for object in Object::ALL {
            assert!(names.contains(&named(object)), "{object:?}");
        }
        assert!(named(Object::Attention).starts_with("iree-llm-x86_64-attention-kernels-"));
        assert!(
            named(Object::Avx512Attention).starts_with("iree-llm-x86_64-avx512-attention-kernels-")
        );
        assert!(named(Object::Avx2).starts_with("iree-llm-x86_64-kernels-"));
        assert!(named(Object::Avx512).starts_with("iree-llm-x86_64-avx512-kernels-"));
        assert!(named(Object::Avx512Bf16).starts_with("iree-llm-x86_64-avx512-bf16-kernels-"));
        assert!(names.iter().all(|n| n.ends_with(".o")));
        // A graph names the object of each kernel it calls, and only that:
        // the exact kernels' build for this host, or the bf16 one.
        let exact = named(Object::exact_for_host());
        let bf16_name = named(Object::bf16_for_host());
        let matvec = declarations("flow.dispatch @iree_llm_kernels_bf16_matvec::@bf16_matvec[%0]");
        assert!(matvec.contains(&exact) && !matvec.contains(&bf16_name));
        assert_eq!(matvec.matches(".o\"").count(), 1, "{matvec}");
        let bf16 = declarations("flow.dispatch @iree_llm_kernels_bf16_matmul::@bf16_matmul[%0]");
        assert!(bf16.contains(&bf16_name) && !bf16.contains(&exact));
        assert_eq!(bf16.matches(".o\"").count(), 1, "{bf16}");
        // The bf16 form's AMX build exactly where the CPU has AMX-BF16 and
        // the process may use its tiles.
        assert!(named(Object::AmxBf16).starts_with("iree-llm-x86_64-amx-bf16-kernels-"));
        let tiles = host_has_amx_bf16() && crate::runtime::cpu_tiles();
        if std::env::var_os("IREE_LLM_AMX").is_none() {
            assert_eq!(Object::bf16_for_host() == Object::AmxBf16, tiles);
        }
        // The attention kernel's build follows the exact kernels' choice.
        let attention =
            declarations("flow.dispatch @iree_llm_kernels_decode_attention::@decode_attention[%0]");
        let wide = Object::exact_for_host() == Object::Avx512;
        assert_eq!(attention.contains(&named(Object::Avx512Attention)), wide);
        assert_eq!(attention.contains(&named(Object::Attention)), !wide);
        // The 8-bit form's packed product: VNNI where the CPU has it, else
        // the AVX2 twin, never both.
        assert!(named(Object::Avx2Q8).starts_with("iree-llm-x86_64-avx2-q8-kernels-"));
        let packed = declarations(
            "flow.dispatch @iree_llm_kernels_blocks_vnni_packed::@blocks_vnni_packed[%0]",
        );
        let vnni = q8_rows_through_vnni();
        assert_eq!(packed.contains(&named(Object::Avx512Vnni)), vnni);
        assert_eq!(packed.contains(&named(Object::Avx2Q8)), !vnni);
    }
}
