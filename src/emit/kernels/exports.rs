//! The kernel executable's exports: for each C entry point, the
//! `stream.executable` a graph declares to call it (its bindings, its
//! `index` arguments, the object that holds it) and the function its
//! workgroups run, which hands the bindings to the C function.

use super::*;

/// The C file an export's function is in.
#[derive(Clone, Copy)]
pub(super) enum Source {
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
    pub(super) fn object(self) -> Object {
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
pub(super) struct Export {
    pub(super) name: &'static str,
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

pub(super) const EXPORTS: [Export; 34] = [
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
    // `bf16_rows` with the RMSNorm before it and the residual after, either
    // optional, for a few rows (rows x k at most FUSED_ROWS_VALUES): x in
    // its own order, the norm, w, res, y; rows, n, k, eps, has_norm, has_res.
    Export {
        name: "bf16_rows_fused",
        source: Source::Exact,
        symbol: "iree_llm_bf16_rows_fused_workgroup",
        bindings: &["f32", "f32", "bf16", "f32", "f32"],
        indices: &["rows", "n", "k", "eps", "has_norm", "has_res"],
    },
    // `bf16_panels` the same way, for a decode step's rows (with a norm,
    // rows x k at most FUSED_PANELS_VALUES): x, the norm, the panels, res,
    // y; rows, n, k, eps, has_norm, has_res (AVX-512 build).
    Export {
        name: "bf16_panels_fused",
        source: Source::Exact,
        symbol: "iree_llm_bf16_panels_fused_workgroup",
        bindings: &["f32", "f32", "bf16", "f32", "f32"],
        indices: &["rows", "n", "k", "eps", "has_norm", "has_res"],
    },
    // `bf16_panels_silu` of rows it normalizes first: x, the norm, the
    // stacked gate and up panels, act; rows, m, k, eps.
    Export {
        name: "bf16_panels_silu_fused",
        source: Source::Exact,
        symbol: "iree_llm_bf16_panels_silu_fused_workgroup",
        bindings: &["f32", "f32", "bf16", "f32"],
        indices: &["rows", "n", "k", "eps"],
    },
];

impl Export {
    /// How a graph names this export in `flow.dispatch`.
    pub(super) fn callee(&self) -> String {
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
