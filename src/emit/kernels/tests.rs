//! What graphs emitted with each kernel set call: which products and
//! attention go through the kernels, how their workgroups are cut, which
//! executables and objects a module declares.

use super::exports::EXPORTS;
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

/// Products of a prompt's last layer that take its last real row alone:
/// o, gate and up, down. The q/k/v product takes every row, whose keys
/// and values the cache keeps.
const LAST_ROW_PRODUCTS: usize = 3;

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
    // The plain call, or the one that takes a norm and a residual.
    let calls = |mlir: &str| {
        kernel_calls(mlir, "blocks_matmul") + kernel_calls(mlir, "blocks_matmul_fused")
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
fn with_eight_bit_activations_every_product_goes_through_the_vnni_kernel_where_the_cpu_has_it() {
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
        let layers_products = PRODUCTS_PER_LAYER * layers - LAST_ROW_PRODUCTS;
        assert_eq!(calls(&mlir, "blocks_vnni_packed_live"), layers_products);
        assert_eq!(calls(&mlir, "quantize_rows_live"), layers_products);
        assert_eq!(calls(&mlir, "blocks_vnni_packed"), 0);
        assert_eq!(calls(&mlir, "quantize_rows"), 0);
        // The last layer's products of the last row, and the head's, as
        // a decode row's.
        assert_eq!(calls(&mlir, "blocks_vnni_rows"), LAST_ROW_PRODUCTS + 1);
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
/// exact kernels keep both as operations of their own in a prompt.
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
        // The exact kernels fuse a decode step's rows too (below), not a
        // prompt's, but for its last row after the last layer's attention
        // (o with its residual, the MLP's norm and residual) and the head.
        let exact = tiny_graph(Kernels::X86_64, kind);
        let (norms_left, residuals_left) = if rows == 8 {
            (0, 0)
        } else {
            (2 * layers - 1, 2 * layers - 2)
        };
        assert_eq!(norms(&exact), norms_left, "{kind:?}");
        assert_eq!(residuals(&exact, rows), residuals_left, "{kind:?}");
    }
}

/// The exact form's products of a decode step's rows (up to 8) take the
/// norm before them and the residual after them into their own
/// workgroups: no RMSNorm and no residual add is left in the graph, and
/// every block product is the fused call. The bf16 form does so for one
/// row, which it keeps exact.
#[cfg(iree_llm_x86_64_kernels)]
#[test]
fn the_exact_products_of_decode_rows_normalize_them_and_add_their_residuals() {
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
    for (kernels, batch) in [
        (Kernels::X86_64, 1),
        (Kernels::X86_64, 4),
        (Kernels::X86_64, 8),
        (Kernels::X86_64Bf16, 1),
    ] {
        let step = tiny_graph(kernels, decode(batch));
        assert_eq!(norms(&step), 0, "{kernels:?} B={batch}");
        assert_eq!(residuals(&step, batch as usize), 0, "{kernels:?} B={batch}");
        assert_eq!(kernel_calls(&step, "blocks_matmul_fused"), 4 * layers + 1);
        assert_eq!(kernel_calls(&step, "blocks_matmul"), 0);
    }
    // The bf16 form rounds several rows to bf16 for its own product.
    let four = tiny_graph(Kernels::X86_64Bf16, decode(4));
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
    let calls = kernel_calls(&mlir, "blocks_matmul") + kernel_calls(&mlir, "blocks_matmul_fused");
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

/// The exact kernels' export for a decode step's `rows` rows times a bf16
/// weight, where each product has a norm before it or a residual after it:
/// the fused panel kernel where the weights are in panels, the fused rows
/// kernel for several rows in rows, else the one-row kernel (the norm and
/// the add apart).
#[cfg(iree_llm_x86_64_kernels)]
fn exact_bf16_step_export(rows: i64) -> &'static str {
    match rows {
        _ if packs_bf16_panels(Kernels::X86_64) => "bf16_panels_fused",
        1 => "bf16_matvec",
        _ => "bf16_rows_fused",
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
    let export = exact_bf16_step_export(1);
    let (layers, gated) = (cfg.num_hidden_layers, exact_gated_products());
    // One row: every product of each layer and the output head (gate
    // and up through the gated kernel where the weights are in panels,
    // which then also take the norms and residuals).
    let one = graph(1);
    assert_eq!(
        kernel_calls(&one, export),
        (PRODUCTS_PER_LAYER - gated) * layers + 1
    );
    assert_eq!(kernel_calls(&one, "bf16_panels_silu_fused"), gated * layers);
    for declared in EXPORTS.iter().map(|e| e.name) {
        assert_eq!(
            one.contains(&format!(
                "stream.executable private @iree_llm_kernels_{declared} "
            )),
            declared == export
                || declared == "decode_attention_writes"
                || (declared == "bf16_panels_silu_fused" && gated == 1),
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
    // padding, and its head's row with its norm, as a step's rows.
    // Each of a step's products has a norm before it or a residual after
    // it, so each takes its kernel with them fused.
    let step = graph(Kernels::X86_64, decode(4));
    assert_eq!(calls(&step), 0);
    assert_eq!(kernel_calls(&step, exact_bf16_step_export(4)), layers + 1);
    let head = usize::from(export == exact_bf16_export(1));
    let prompt = graph(Kernels::X86_64, prefill);
    if packs_bf16_panels(Kernels::X86_64) {
        assert_eq!(kernel_calls(&prompt, "bf16_panels_live"), layers);
        assert_eq!(calls(&prompt), 0);
        assert_eq!(kernel_calls(&prompt, "bf16_panels_fused"), 1);
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
fn a_carrying_steps_decode_rows_take_their_norms_into_the_kernel_as_a_plain_steps_do() {
    use crate::emit::GraphKind;
    let cfg = crate::preset::Preset::Tiny.config();
    let layers = cfg.num_hidden_layers;
    let carrying = GraphKind::DecodeChunk {
        batch: 4,
        window: Some(64),
        tokens: 16,
        spare: 0,
    };
    let mlir = tiny_bf16_graph(Kernels::X86_64, &[4], carrying);
    let fused = exact_bf16_step_export(4);
    if packs_bf16_panels(Kernels::X86_64) {
        // The kernel normalizes the 4 decode rows of q/k/v, gate and up
        // and the head, as in a plain step; the chunk's rows take the
        // graph's norm. A residual alone is added as the graph adds it, so
        // o and down multiply all rows in one product.
        assert_eq!(kernel_calls(&mlir, fused), layers + 1);
        assert_eq!(kernel_calls(&mlir, "bf16_panels_silu_fused"), layers);
        assert_eq!(kernel_calls(&mlir, "bf16_panels_silu_live"), layers);
        assert_eq!(kernel_calls(&mlir, "bf16_panels_live"), 3 * layers + 1);
    } else {
        // Every product of the decode rows takes the fused rows kernel.
        assert_eq!(kernel_calls(&mlir, fused), PRODUCTS_PER_LAYER * layers + 1);
    }
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
    // form); 9 to 48 rows take the tall tiles, except on CPUs whose
    // kernels take every row count in AMX tiles. The last layer's o, MLP
    // and the head take its last row alone, never in the tall tiles.
    let amx = Object::bf16_for_host() == Object::AmxBf16;
    for (tokens, tall) in [(16, !amx), (64, false)] {
        let mlir = graph(Kernels::X86_64Bf16, prefill(tokens));
        let rows_calls =
            |product: &str, gated: &str| (kernel_calls(&mlir, product), kernel_calls(&mlir, gated));
        let tiles = rows_calls("bf16_panels_bf16_live", "bf16_panels_silu_bf16_live");
        let tall_tiles = rows_calls(
            "bf16_panels_bf16_tall_live",
            "bf16_panels_silu_bf16_tall_live",
        );
        // q/k/v, o and down: all rows in every layer but o and down of
        // the last; gate and up likewise.
        let all_rows = (
            (PRODUCTS_PER_LAYER - 1) * layers - (LAST_ROW_PRODUCTS - 1),
            layers - 1,
        );
        let last_row = (LAST_ROW_PRODUCTS - 1, 1);
        let case = format!("prompt of {tokens}");
        if tall {
            assert_eq!(tall_tiles, all_rows, "{case}");
            assert_eq!(tiles, last_row, "{case}");
        } else {
            assert_eq!(tall_tiles, (0, 0), "{case}");
            assert_eq!(
                tiles,
                (all_rows.0 + last_row.0, all_rows.1 + last_row.1),
                "{case}"
            );
        }
        // The head, of the last row.
        assert_eq!(calls(&mlir), 1, "{case}");
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
    // All 16 rows through every layer until the last one's attention;
    // from there on, and through the head, only the last token.
    assert_eq!(
        rows(16),
        PRODUCTS_PER_LAYER * cfg.num_hidden_layers - LAST_ROW_PRODUCTS
    );
    assert_eq!(rows(1), LAST_ROW_PRODUCTS + 1);
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
    let packed =
        declarations("flow.dispatch @iree_llm_kernels_blocks_vnni_packed::@blocks_vnni_packed[%0]");
    let vnni = q8_rows_through_vnni();
    assert_eq!(packed.contains(&named(Object::Avx512Vnni)), vnni);
    assert_eq!(packed.contains(&named(Object::Avx2Q8)), !vnni);
}
