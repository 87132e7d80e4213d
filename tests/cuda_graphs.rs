//! CUDA's own forms of a graph, checked where they can be:
//! - the decode attention kernel (`emit::cuda_attention`): CUDA's decode
//!   graphs call it once a layer where it takes the shape, and whole decode
//!   steps through it match the f64 reference, rows at ragged positions on
//!   both sides of the 256 positions one pass of its threads scores;
//! - prompt products with rows rounded to bf16 (`WideRows::Bf16`, opt-in)
//!   stay within the bf16 tolerance on the GPU's matrix units.
//!
//! The kernels run only on an NVIDIA GPU, so those tests are ignored here;
//! run them where one is, with a `--features cuda` build:
//! `cargo test --release --features cuda --test cuda_graphs -- --ignored`.

mod common;

use iree_llm::config::ModelConfig;
use iree_llm::emit::{
    EmitPlan, GraphKind, GroupedQueries, LlamaShape, Output, WideRows, emit_graph,
};
use iree_llm::types::{DType, DeviceKind};
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 512;

/// The tiny preset (2 queries a key/value head of 16) and a shape with the
/// 1B preset's heads (4 queries a key/value head of 64).
fn configs() -> Vec<(&'static str, ModelConfig)> {
    let tiny = iree_llm::preset::Preset::Tiny.config();
    let mut wide = tiny.clone();
    wide.hidden_size = 256;
    wide.num_attention_heads = 4;
    wide.num_key_value_heads = 1;
    wide.head_dim = 64;
    vec![("tiny", tiny), ("heads-of-64", wide)]
}

fn decode(batch: i64, window: Option<i64>) -> GraphKind {
    GraphKind::Decode {
        batch,
        output: Output::Logits,
        window,
        spare: 0,
    }
}

/// Calls of the kernel in a graph's text.
fn kernel_calls(mlir: &str) -> usize {
    mlir.matches("hal.dispatch.extern \"iree_llm_attention_")
        .count()
}

#[test]
fn cuda_decode_graphs_call_the_kernel_once_a_layer_where_it_takes_the_shape() {
    assert_eq!(
        GroupedQueries::for_target(DeviceKind::Cuda),
        GroupedQueries::Kernel
    );
    for (name, config) in configs() {
        let m = LlamaShape::from(&config);
        let mut plan = EmitPlan::new(CAPACITY, &[8]).unwrap();
        plan.attention = GroupedQueries::Kernel;
        for window in [Some(64), Some(256), None] {
            let graph = emit_graph(&m, &plan.graph_config(), decode(8, window));
            assert_eq!(
                kernel_calls(&graph.mlir),
                config.num_hidden_layers,
                "{name}: {}",
                graph.name()
            );
        }
        // An f16 cache takes IREE's forms.
        plan.kv_cache = DType::F16;
        let graph = emit_graph(&m, &plan.graph_config(), decode(8, Some(64)));
        assert_eq!(kernel_calls(&graph.mlir), 0, "{name} with an f16 cache");
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU and a --features cuda build (see the module doc)"]
fn decode_steps_through_the_kernel_match_the_f64_reference_on_a_gpu() {
    for (name, config) in configs() {
        let dir = common::variant_dir(&format!("cuda-attention-{name}"), &config, WeightDType::F32);
        let reference = common::reference(&dir);
        let plan = EmitPlan::new(CAPACITY, &[8]).unwrap();
        let mut graphs = plan.prefill_kinds(8, Output::Logits);
        graphs.extend(plan.decode_kinds(8, Output::Logits));
        let mut model = common::load_opts(&dir, "cuda", CAPACITY, graphs, |_| {});
        assert_eq!(model.manifest().plan.attention, GroupedQueries::Kernel);
        // A row with one cached position (a prompt of 1), rows inside the
        // first 256 positions, and rows past them, whose threads score two
        // positions each.
        let (least, worst) = common::ragged_steps_within(
            &mut model,
            &reference,
            &[1, 70, 17, 300, 40, 257, 9, 130],
            90,
            3,
            1e-4,
            name,
        );
        eprintln!("{name}: relative error of the logits {least:.2e} .. {worst:.2e}");
    }
}

#[test]
#[ignore = "needs an NVIDIA GPU and a --features cuda build (see the module doc)"]
fn prompts_with_bf16_rows_stay_within_the_bf16_tolerance_on_a_gpu() {
    // As tests/graphs.rs does on the CPU, with bf16 weights (the form
    // applies to bf16 weights only) and the 1B preset's heads.
    let (_, config) = configs().pop().unwrap();
    let dir = common::variant_dir("cuda-bf16-rows", &config, WeightDType::BF16);
    let reference = common::reference(&dir);
    let plan = EmitPlan::new(CAPACITY, &[1]).unwrap();
    let mut graphs = plan.prefill_kinds(1, Output::Logits);
    graphs.extend(plan.decode_kinds(1, Output::Logits));
    let mut model = common::load_opts(&dir, "cuda", CAPACITY, graphs, |o| {
        o.wide = Some(WideRows::Bf16)
    });
    assert_eq!(model.manifest().plan.wide, WideRows::Bf16);
    common::assert_inexact_form_within(
        &mut model,
        &reference,
        &[(17, 71), (200, 72)],
        4,
        2e-2,
        "bf16 prompt rows on cuda",
    );
}
