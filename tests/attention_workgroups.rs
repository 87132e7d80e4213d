//! The decode attention kernel takes several (row, key/value head) slots a
//! workgroup where the emitter cuts them so for IREE's CPU driver
//! (src/emit/kernels/workgroups.rs), one slot after the other with the
//! next slot's keys and values prefetched during the last blocks of the
//! one before. Here the graphs are cut for 2 CPU workers
//! (`IREE_LLM_CPU_WORKERS`), whatever this host has: a model with 3
//! key/value heads at B=8 has 24 slots, which go as 12 workgroups of 2, and
//! every row's logits must still match the f64 reference. (A test binary of
//! its own: the variable is read once per process.)

mod common;

use iree_llm::emit::{EmitPlan, GraphKind, Kernels, LlamaShape, Output};
use iree_llm::weights::DType as WeightDType;

const CAPACITY: i64 = 256;

#[test]
fn attention_workgroups_of_several_slots_match_the_f64_reference() {
    if !Kernels::X86_64.runs_on_this_host() {
        eprintln!("not run: this CPU or build has no x86-64 kernels");
        return;
    }
    // SAFETY: set before anything in this process emits a graph or spawns a thread
    // that reads the environment.
    unsafe { std::env::set_var("IREE_LLM_CPU_WORKERS", "2") };
    let mut config = iree_llm::preset::Preset::Tiny.config();
    config.num_attention_heads = 6;
    config.num_key_value_heads = 3;
    // bf16 weights: the kernels are taken only for block or bf16 weights.
    let dir = common::variant_dir("three-kv-heads", &config, WeightDType::BF16);
    let reference = common::reference(&dir);
    let plan = EmitPlan::new(CAPACITY, &[8]).unwrap();
    let mut graphs = plan.prefill_kinds(8, Output::Logits);
    graphs.extend(plan.decode_kinds(8, Output::Logits));
    // The step's graph does cut them so.
    let mut kernel_plan = plan.clone();
    kernel_plan.kernels = Kernels::X86_64;
    let decode = GraphKind::Decode {
        batch: 8,
        output: Output::Logits,
        window: None,
        spare: 0,
    };
    let mlir = iree_llm::emit::emit_graph(
        &LlamaShape::from(&config),
        &kernel_plan.graph_config(),
        decode,
    )
    .mlir;
    assert_eq!(
        attention_workloads(&mlir),
        vec![(24, 2); 2],
        "one call a layer"
    );
    let mut model = common::load_opts(&dir, "local-task", CAPACITY, graphs, |o| {
        o.kernels = Some(Kernels::X86_64)
    });
    assert_eq!(model.manifest().plan.kernels, Kernels::X86_64);
    // Rows within one block of 64 positions, at its edge and past it, so
    // that the prefetch runs from one slot's blocks into the next one's.
    common::ragged_steps_within(
        &mut model,
        &reference,
        &[3, 70, 17, 130, 40, 64, 9, 100],
        80,
        4,
        1e-4,
        "24 slots in workgroups of 2",
    );
}

/// (slots, slots a workgroup) of each call of the decode attention kernel.
fn attention_workloads(mlir: &str) -> Vec<(i64, i64)> {
    let constants: std::collections::HashMap<&str, i64> = mlir
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.trim().split_once(" = arith.constant ")?;
            Some((name, rest.strip_suffix(" : index")?.parse().ok()?))
        })
        .collect();
    mlir.lines()
        // The calls: `...::@decode_attention[...` or, where the kernel also
        // writes the caches, `...::@decode_attention_writes[...`.
        .filter_map(|l| l.split_once("::@decode_attention").map(|(_, w)| w))
        .map(|w| {
            let w = w.split_once('[').unwrap().1;
            let (slots, per) = w.split(']').next().unwrap().split_once(", ").unwrap();
            (constants[slots], constants[per])
        })
        .collect()
}
