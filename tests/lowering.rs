//! Every emitted graph lowers with iree-compile 3.13 for the CPU, CUDA
//! (sm_80) and Metal targets, and the stream IR keeps each KV cache in its
//! own buffer: imported with `consume`, never allocated or copied whole.

mod common;

use std::path::PathBuf;

use iree_llm::compile::Target;
use iree_llm::emit::{GraphKind, GroupedQueries, LlamaShape, Output, emit_graph};
use iree_llm::preset::Preset;
use iree_llm::types::DeviceKind;

fn golden_graphs() -> Vec<PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mlir/tiny");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_tiny_graph_compiles_for_cpu_cuda_and_metal() {
    let graphs = golden_graphs();
    let plan = iree_llm::emit::EmitPlan::new(256, &[4, 8]).unwrap();
    assert_eq!(graphs.len(), iree_llm::emit::plan_kinds(&plan).len());
    let out = tempfile::tempdir().unwrap();
    let jobs: Vec<(PathBuf, DeviceKind)> = graphs
        .iter()
        .flat_map(|g| {
            [DeviceKind::Cpu, DeviceKind::Cuda, DeviceKind::Metal].map(|k| (g.clone(), k))
        })
        .collect();
    let compiler = common::compiler();
    let failures = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((graph, kind)) = jobs.get(i) else {
                        break;
                    };
                    let target = Target::new(*kind);
                    let name = format!(
                        "{}.{}.vmfb",
                        graph.file_stem().unwrap().to_string_lossy(),
                        target.label()
                    );
                    if let Err(e) = compiler.compile_file(graph, &target, &out.path().join(name)) {
                        failures.lock().unwrap().push(format!(
                            "{} for {}: {e}",
                            graph.display(),
                            target.label()
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} compilations failed:\n{}",
        failures.len(),
        jobs.len(),
        failures.join("\n")
    );
}

#[test]
fn graphs_with_16_bit_weights_compile_for_cpu_cuda_and_metal() {
    use iree_llm::DType;
    use iree_llm::emit::EmitPlan;
    let m = LlamaShape::from(&Preset::Tiny.config());
    let out = tempfile::tempdir().unwrap();
    let compiler = common::compiler();
    for weights in [DType::BF16, DType::F16] {
        let plan = EmitPlan::new(128, &[4]).unwrap().with_weights(weights);
        for kind in [
            GraphKind::Prefill {
                slots: 1,
                tokens: 16,
                output: Output::Logits,
            },
            GraphKind::Decode {
                batch: 4,
                output: Output::Logits,
                window: Some(64),
                spare: 0,
            },
        ] {
            let graph = emit_graph(&m, &plan.graph_config(), kind);
            assert!(
                graph.mlir.contains(&format!("x{}>", weights.name())),
                "weights are {weights:?}"
            );
            let input = out
                .path()
                .join(format!("{}-{}.mlir", graph.name(), weights.name()));
            std::fs::write(&input, &graph.mlir).unwrap();
            for device in [DeviceKind::Cpu, DeviceKind::Cuda, DeviceKind::Metal] {
                let target = Target::new(device);
                compiler
                    .compile_file(
                        &input,
                        &target,
                        &input.with_extension(format!("{}.vmfb", target.label())),
                    )
                    .unwrap_or_else(|e| {
                        panic!("{} ({weights:?}) for {}: {e}", graph.name(), target.label())
                    });
            }
        }
    }
}

/// Checks the stream IR of `kind` for in-place caches. The capacity is
/// chosen so no other tensor of tiny has the cache's byte size.
fn assert_caches_in_place(kind: GraphKind) {
    assert_caches_in_place_with(kind, GroupedQueries::Stacked, DeviceKind::Cpu);
}

/// [`assert_caches_in_place`] for graphs whose decode attention takes the
/// form `attention`, compiled for `device`.
fn assert_caches_in_place_with(kind: GraphKind, attention: GroupedQueries, device: DeviceKind) {
    let capacity = 96;
    let m = LlamaShape::from(&Preset::Tiny.config());
    let kv_bytes: i64 = m.kv_shape(kind.slots(), capacity).iter().product::<i64>() * 4;
    let mut plan = iree_llm::emit::EmitPlan::new(capacity, &[4]).unwrap();
    plan.attention = attention;
    let graph = emit_graph(&m, &plan.graph_config(), kind);
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("g.mlir");
    std::fs::write(&input, &graph.mlir).unwrap();
    let ir = common::compiler()
        .compile_to_text(&input, &Target::new(device), "stream")
        .unwrap();
    let start = ir
        .find(&format!("util.func public @{}(", graph.name()))
        .expect("entry point in stream IR");
    let func = &ir[start..];
    let func = &func[..func.find("\n  }\n").unwrap_or(func.len())];

    let size = format!("%c{kv_bytes}");
    let consumed = func
        .lines()
        .filter(|l| {
            l.contains("stream.tensor.import") && l.contains(" consume ") && l.contains(&size)
        })
        .count();
    assert_eq!(
        consumed,
        kind.kv_count(),
        "{}: caches not all imported for in-place use",
        graph.name()
    );
    for line in func.lines() {
        let whole_cache =
            line.contains(&format!("{size}}}")) || line.ends_with(&format!(", {size}"));
        let allocates_or_copies = ["alloca", "copy", "fill", "splat", "clone"]
            .iter()
            .any(|op| line.contains(op));
        assert!(
            !(whole_cache && allocates_or_copies),
            "{}: a cache-sized allocation or copy: {}",
            graph.name(),
            line.trim()
        );
    }
}

#[test]
fn decode_graphs_update_every_cache_in_place() {
    assert_caches_in_place(GraphKind::Decode {
        batch: 4,
        output: Output::Logits,
        window: None,
        spare: 0,
    });
    assert_caches_in_place(GraphKind::Decode {
        batch: 4,
        output: Output::Logits,
        window: Some(64),
        spare: 0,
    });
    assert_caches_in_place(GraphKind::Decode {
        batch: 1,
        output: Output::Argmax,
        window: None,
        spare: 0,
    });
    // Over a cache with a spare slot past the rows.
    assert_caches_in_place(GraphKind::Decode {
        batch: 4,
        output: Output::Sample,
        window: Some(64),
        spare: 1,
    });
}

/// The decode attention's GPU forms (`GroupedQueries`; CUDA's default is
/// its kernel) lower for CUDA, and their graphs keep the cache in place.
#[test]
fn decode_graphs_in_the_gpu_attention_forms_compile_for_cuda_in_place() {
    let m = LlamaShape::from(&Preset::Tiny.config());
    let out = tempfile::tempdir().unwrap();
    let compiler = common::compiler();
    let kind = GraphKind::Decode {
        batch: 4,
        output: Output::Logits,
        window: Some(64),
        spare: 0,
    };
    for attention in [
        GroupedQueries::Broadcast,
        GroupedQueries::Split,
        GroupedQueries::Kernel,
    ] {
        assert_caches_in_place_with(kind, attention, DeviceKind::Cuda);
        let mut plan = iree_llm::emit::EmitPlan::new(128, &[4]).unwrap();
        plan.attention = attention;
        let graph = emit_graph(&m, &plan.graph_config(), kind);
        let input = out
            .path()
            .join(format!("{}-{attention:?}.mlir", graph.name()));
        std::fs::write(&input, &graph.mlir).unwrap();
        let target = Target::new(DeviceKind::Cuda);
        compiler
            .compile_file(&input, &target, &input.with_extension("vmfb"))
            .unwrap_or_else(|e| panic!("{} ({attention:?}) for CUDA: {e}", graph.name()));
    }
}

/// Where CUDA's kernel does not take the shape, its decode attention is
/// broadcast over windows of up to 256 positions and split past them
/// (`GroupedQueries::ByWindow`, measured on an H100):
/// the graph holds the broadcast copy of each head's cached rows, g per
/// head, only for the short window.
#[test]
fn cuda_decode_attention_broadcasts_short_windows_and_splits_long_ones() {
    let m = LlamaShape::from(&Preset::Tiny.config());
    assert!(m.group() > 1, "the tiny preset shares key/value heads");
    let capacity = 1024;
    let mut plan = iree_llm::emit::EmitPlan::new(capacity, &[4]).unwrap();
    plan.attention = GroupedQueries::ByWindow;
    let (bh, g, d) = (4 * m.kv_heads, m.group(), m.head_dim);
    for (window, broadcast) in [(Some(64), true), (Some(256), true), (None, false)] {
        let kind = GraphKind::Decode {
            batch: 4,
            output: Output::Logits,
            window,
            spare: 0,
        };
        let graph = emit_graph(&m, &plan.graph_config(), kind);
        let w = window.unwrap_or(capacity);
        let copy = format!("tensor<{bh}x{g}x{w}x{d}xf32>");
        assert_eq!(
            graph.mlir.contains(&copy),
            broadcast,
            "{}: broadcast copy {copy} expected: {broadcast}",
            graph.name()
        );
    }
}

#[test]
fn prefill_graphs_update_the_cache_in_place() {
    assert_caches_in_place(GraphKind::Prefill {
        slots: 1,
        tokens: 32,
        output: Output::Logits,
    });
    assert_caches_in_place(GraphKind::Prefill {
        slots: 4,
        tokens: 32,
        output: Output::Logits,
    });
}

#[test]
fn chunk_graphs_update_the_cache_in_place() {
    for window in [0, 64, 96] {
        assert_caches_in_place(GraphKind::Chunk {
            slots: 4,
            tokens: 24,
            window,
            output: Output::Logits,
        });
    }
    // The variants the engine does not call yet lower the same way.
    for output in [Output::Argmax, Output::Sample] {
        assert_caches_in_place(GraphKind::Chunk {
            slots: 4,
            tokens: 24,
            window: 64,
            output,
        });
    }
}

#[test]
fn decode_graphs_carrying_a_chunk_update_the_cache_in_place() {
    // The decode rows' writes, then the chunk's, into the one cache.
    for window in [None, Some(64)] {
        for spare in [0, 1] {
            assert_caches_in_place(GraphKind::DecodeChunk {
                batch: 4,
                window,
                tokens: 24,
                spare,
            });
        }
    }
    // CUDA's: the decode rows through its attention kernel (which reads
    // the cache the chunk then writes).
    assert_caches_in_place_with(
        GraphKind::DecodeChunk {
            batch: 4,
            window: Some(64),
            tokens: 24,
            spare: 0,
        },
        GroupedQueries::Kernel,
        DeviceKind::Cuda,
    );
}

/// The tiny model's graphs with every matrix in blocks (Q4_1-style, the
/// embedding Q8_0-style): they lower for CPU, CUDA and Metal, and on CPU (its
/// flags) a SmolLM2-sized one-row decode dequantizes inside its
/// contractions: no dispatch of its own turns i8 blocks into f32 weights.
#[test]
fn graphs_with_block_weights_compile_and_fuse_the_dequantization() {
    use iree_llm::emit::{BlockFormat, EmitPlan};
    let cfg = Preset::Tiny.config();
    let m = LlamaShape::from(&cfg);
    let mut plan = EmitPlan::new(128, &[4]).unwrap();
    for (name, shape) in iree_llm::checkpoint::tensors(&cfg) {
        if shape.len() == 2 {
            // Every device format: Q8_0 for the embedding, Q4_0 for the
            // attention matrices, Q4_1 for the rest.
            let format = if name == iree_llm::checkpoint::EMBEDDING {
                BlockFormat::Q8_0
            } else if name.contains("self_attn") {
                BlockFormat::Q4_0
            } else {
                BlockFormat::Q4_1
            };
            plan.blocks.insert(name, format);
        }
    }
    let out = tempfile::tempdir().unwrap();
    let compiler = common::compiler();
    let cpu = Target::new(DeviceKind::Cpu);
    for kind in [
        GraphKind::Prefill {
            slots: 1,
            tokens: 16,
            output: Output::Logits,
        },
        GraphKind::Decode {
            batch: 1,
            output: Output::Argmax,
            window: Some(64),
            spare: 0,
        },
        GraphKind::Decode {
            batch: 4,
            output: Output::Logits,
            window: Some(64),
            spare: 0,
        },
    ] {
        let graph = emit_graph(&m, &plan.graph_config(), kind);
        assert!(graph.mlir.contains("x32xi8>"), "{}: blocks", graph.name());
        let input = out.path().join(format!("{}.mlir", graph.name()));
        std::fs::write(&input, &graph.mlir).unwrap();
        for target in [
            cpu.clone(),
            Target::new(DeviceKind::Cuda),
            Target::new(DeviceKind::Metal),
        ] {
            compiler
                .compile_file(
                    &input,
                    &target,
                    &input.with_extension(format!("{}.vmfb", target.label())),
                )
                .unwrap_or_else(|e| panic!("{} for {}: {e}", graph.name(), target.label()));
        }
    }
    // Fusion heuristics depend on sizes: check a SmolLM2-sized layer.
    let wide = LlamaShape {
        vocab: 1024,
        hidden: 576,
        intermediate: 1536,
        layers: 1,
        heads: 9,
        kv_heads: 3,
        head_dim: 64,
        rms_eps: 1e-5,
        tied_embeddings: true,
    };
    let mut wide_plan = EmitPlan::new(128, &[]).unwrap();
    for (name, shape) in wide.tensor_layout().tensors() {
        if shape.len() == 2 {
            wide_plan.blocks.insert(name, BlockFormat::Q4_1);
        }
    }
    let graph = emit_graph(
        &wide,
        &wide_plan.graph_config(),
        GraphKind::Decode {
            batch: 1,
            output: Output::Logits,
            window: None,
            spare: 0,
        },
    );
    let input = out.path().join("b1.mlir");
    std::fs::write(&input, &graph.mlir).unwrap();
    let flow = compiler.compile_to_text(&input, &cpu, "flow").unwrap();
    let dequant_dispatches: Vec<&str> = flow
        .lines()
        .filter(|l| l.contains("flow.dispatch @") && l.contains("elementwise") && l.contains("i8x"))
        .collect();
    assert!(
        dequant_dispatches.is_empty(),
        "dequantization in dispatches of its own:\n{}",
        dequant_dispatches.join("\n")
    );
    assert!(
        flow.lines()
            .any(|l| l.contains("flow.dispatch @") && l.contains("x32_f32")),
        "the block contractions are dispatches over (block, value)"
    );
}

/// CUDA's decode graphs write their products of a few rows as reductions
/// (`NarrowRows::Reduce`, the form measured fastest there): every decode
/// batch, with bf16 weights, lowers for CUDA, and the CPU keeps its padded
/// form.
#[test]
fn decode_graphs_in_the_cuda_forms_of_narrow_products_compile_for_cuda() {
    use iree_llm::emit::NarrowRows;
    assert_eq!(NarrowRows::for_target(DeviceKind::Cpu), NarrowRows::PadTo8);
    if std::env::var_os("IREE_LLM_GPU_NARROW_ROWS").is_none() {
        assert_eq!(
            NarrowRows::for_target(DeviceKind::Cuda),
            NarrowRows::CudaKernel
        );
    }
    let m = LlamaShape::from(&Preset::Tiny.config());
    let mut plan = iree_llm::emit::EmitPlan::new(128, &[1, 4, 8]).unwrap();
    plan.weights = iree_llm::types::DType::BF16;
    let out = tempfile::tempdir().unwrap();
    let compiler = common::compiler();
    for narrow in [NarrowRows::Reduce, NarrowRows::CudaKernel] {
        plan.narrow = narrow;
        for batch in [1, 4, 8] {
            let kind = GraphKind::Decode {
                batch,
                output: Output::Logits,
                window: None,
                spare: 0,
            };
            let graph = emit_graph(&m, &plan.graph_config(), kind);
            let padded = {
                let mut p = plan.clone();
                p.narrow = NarrowRows::PadTo8;
                emit_graph(&m, &p.graph_config(), kind)
            };
            // Each layer's four weight products and the output head leave
            // the contractions (attention keeps its own); in the kernel's
            // form each becomes one call of the kernel.
            let dots = |mlir: &str| mlir.matches("stablehlo.dot_general").count();
            let products = 4 * m.layers as usize + 1;
            assert_eq!(
                dots(&padded.mlir) - dots(&graph.mlir),
                products,
                "{}",
                graph.name()
            );
            let calls = graph
                .mlir
                .matches("hal.dispatch.extern \"iree_llm_rows_bf16_")
                .count();
            let expected = if narrow == NarrowRows::CudaKernel {
                products
            } else {
                0
            };
            assert_eq!(calls, expected, "{narrow:?} {}", graph.name());
            let src = out.path().join(format!("{}.mlir", graph.name()));
            std::fs::write(&src, &graph.mlir).unwrap();
            compiler
                .compile_file(
                    &src,
                    &Target::new(DeviceKind::Cuda),
                    &out.path().join("m.vmfb"),
                )
                .unwrap_or_else(|e| panic!("{} in {narrow:?} for cuda: {e}", graph.name()));
        }
    }
}

/// The 1B preset at B=8 with an f16 cache: the scatter that writes a step's
/// keys and values took its 2,048 rows' indices (32 KB) onto the stack of
/// its dispatch, over IREE's 32 KB limit, and the graph did not compile.
#[test]
fn the_1b_presets_decode_graph_with_an_f16_cache_compiles_at_b8_for_the_cpu() {
    use iree_llm::DType;
    use iree_llm::emit::EmitPlan;
    let m = LlamaShape::from(&Preset::Llama32_1B.config());
    let mut plan = EmitPlan::new(256, &[8]).unwrap().with_weights(DType::BF16);
    plan.kv_cache = DType::F16;
    let graph = emit_graph(
        &m,
        &plan.graph_config(),
        GraphKind::Decode {
            batch: 8,
            output: Output::Logits,
            window: None,
            spare: 0,
        },
    );
    assert!(graph.mlir.contains("x64xf16>"), "the cache is f16");
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("g.mlir");
    std::fs::write(&input, &graph.mlir).unwrap();
    let target = Target::new(DeviceKind::Cpu);
    common::compiler()
        .compile_file(&input, &target, &dir.path().join("g.vmfb"))
        .unwrap_or_else(|e| panic!("{}: {e}", graph.name()));
}
