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
//! This module holds the kernel sets and what every call shares; the
//! rest is one file a concept: `exports` (each C entry point as the
//! executable a graph declares), `blocks` (products of block weights, exact
//! or 8-bit), `bf16` (products of dense bf16 weights), `attention` (decode
//! and prompt attention, the cache writes), `workgroups` (how many weight
//! rows or slots a workgroup takes) and `objects` (which compiled object a
//! graph links on this CPU, written where iree-compile finds it). `tests`
//! checks the graphs' calls as a whole.

use serde::{Deserialize, Serialize};

use super::builder::{FuncBuilder, TensorType, Value};
use crate::types::{BlockFormat, DType};

mod attention;
mod bf16;
mod blocks;
mod exports;
mod objects;
#[cfg(test)]
mod tests;
mod workgroups;

use objects::{BF16_OBJECT, OBJECT, Object, host_has_avx2_fma_f16c, host_has_avx512_bf16};
pub use objects::{q8_rows_through_vnni, write_objects};
use workgroups::{
    balanced_units, host_threads, prompt_tile_rows, rows_per_thread, rows_per_workgroup,
};

pub use attention::{
    RowsInPlace, StepRows, decode_attention, prompt_attention, prompt_kv_write,
    takes_decode_attention,
};
pub use bf16::{
    bf16_matmul, bf16_matvec, bf16_panels, bf16_panels_bf16, bf16_panels_fused, bf16_panels_silu,
    bf16_panels_silu_bf16, bf16_panels_silu_fused, bf16_rows, bf16_rows_fused, packs_bf16_panels,
    takes_bf16, takes_bf16_panels_fused, takes_bf16_rows, takes_bf16_rows_fused,
};
pub use blocks::{
    RmsNorm, blocks_matmul, blocks_matmul_fused, blocks_vnni_packed, packs_for_vnni,
    single_rows_stay_exact, takes_blocks_matmul_fused,
};
pub use exports::declarations;

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
