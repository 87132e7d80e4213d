//! GGUF checkpoints: every supported type's dequantization equals the PyPI
//! `gguf` package's numpy reference, metadata becomes the Hugging Face config
//! it stands for, llama.cpp's Q/K row order is undone, and the errors name
//! what is wrong; the writer's Q8_0/Q4_0/Q4_1 quantizer makes the same blocks
//! as the package's quantizer. Fixtures come from scripts/gguf_fixtures.py.

use std::path::{Path, PathBuf};

use iree_llm::config::ModelConfig;
use iree_llm::gguf::{GgmlType, GgufError, GgufFile, GgufModel, Quant, dequantize, quantize};
use iree_llm::preset::{self, Preset};
use iree_llm::weights::{DType, Weights};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/gguf")
        .join(name)
}

fn read_f32(path: &Path) -> Vec<f32> {
    std::fs::read(path)
        .unwrap()
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Dequantizes the fixture blocks of `ty` and compares with the reference bit for bit.
fn dequantizes_like_the_reference(ty: GgmlType) {
    let stem = ty.name().unwrap().to_lowercase();
    let raw = std::fs::read(fixture(&format!("dequant/{stem}.bin"))).unwrap();
    let want = read_f32(&fixture(&format!("dequant/{stem}.f32")));
    let got = dequantize(ty, &raw, want.len()).unwrap();
    let diffs: Vec<(usize, f32, f32)> = got
        .iter()
        .zip(&want)
        .enumerate()
        .filter(|(_, (g, w))| g.to_bits() != w.to_bits())
        .map(|(i, (g, w))| (i, *g, *w))
        .collect();
    assert!(
        diffs.is_empty(),
        "{ty}: {} of {} values differ from gguf.quants.dequantize, first {:?}",
        diffs.len(),
        want.len(),
        &diffs[..diffs.len().min(5)]
    );
}

#[test]
fn dequantizes_f32_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::F32);
}
#[test]
fn dequantizes_f16_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::F16);
}
#[test]
fn dequantizes_bf16_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::BF16);
}
#[test]
fn dequantizes_q8_0_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::Q8_0);
}
#[test]
fn dequantizes_q4_0_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::Q4_0);
}
#[test]
fn dequantizes_q4_1_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::Q4_1);
}
#[test]
fn dequantizes_q5_0_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::Q5_0);
}
#[test]
fn dequantizes_q5_1_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::Q5_1);
}
#[test]
fn dequantizes_q4_k_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::Q4_K);
}
#[test]
fn dequantizes_q5_k_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::Q5_K);
}
#[test]
fn dequantizes_q6_k_like_the_gguf_package() {
    dequantizes_like_the_reference(GgmlType::Q6_K);
}

#[test]
fn every_supported_type_has_a_fixture() {
    for ty in GgmlType::SUPPORTED {
        let stem = ty.name().unwrap().to_lowercase();
        assert!(fixture(&format!("dequant/{stem}.bin")).exists(), "{ty}");
    }
}

fn expected_config() -> ModelConfig {
    let text = std::fs::read_to_string(fixture("tiny-llama.json")).unwrap();
    ModelConfig::from_json_str(&text).unwrap()
}

#[test]
fn metadata_becomes_the_hugging_face_config_it_stands_for() {
    let model = GgufModel::open(&fixture("tiny-llama.gguf")).unwrap();
    assert_eq!(model.file().version(), 3);
    assert_eq!(model.config(), &expected_config());
}

#[test]
fn a_version_2_file_reads_like_version_3() {
    // Little-endian v2 and v3 differ only in the version field.
    let mut bytes = std::fs::read(fixture("tiny-llama.gguf")).unwrap();
    bytes[4..8].copy_from_slice(&2u32.to_le_bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.gguf");
    std::fs::write(&path, bytes).unwrap();
    let model = GgufModel::open(&path).unwrap();
    assert_eq!(model.file().version(), 2);
    assert_eq!(model.config(), &expected_config());
}

#[test]
fn a_missing_output_weight_means_tied_embeddings() {
    let model = GgufModel::open(&fixture("tied-llama.gguf")).unwrap();
    assert!(model.config().tie_word_embeddings);
    let names: Vec<String> = iree_llm::checkpoint::tensors(model.config())
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    assert!(!names.iter().any(|n| n == "lm_head.weight"));
    for n in &names {
        model.tensor_f32(n).unwrap();
    }
}

#[test]
fn q_and_k_come_back_in_hugging_face_row_order() {
    let model = GgufModel::open(&fixture("tiny-llama.gguf")).unwrap();
    let text = std::fs::read_to_string(fixture("tiny-llama-qk.json")).unwrap();
    let want: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cols = model.config().hidden_size;
    for proj in ["q_proj", "k_proj"] {
        let got = model
            .tensor_f32(&format!("model.layers.0.self_attn.{proj}.weight"))
            .unwrap();
        let rows = want[proj].as_array().unwrap();
        assert_eq!(got.len(), rows.len() * cols, "{proj}");
        for (r, row) in rows.iter().enumerate() {
            for (c, v) in row.as_array().unwrap().iter().enumerate() {
                assert_eq!(
                    got[r * cols + c],
                    v.as_f64().unwrap() as f32,
                    "{proj} row {r} col {c}"
                );
            }
        }
    }
}

#[test]
fn another_architecture_is_an_error_naming_it() {
    let e = GgufModel::open(&fixture("mistral.gguf")).unwrap_err();
    assert!(matches!(e, GgufError::Architecture { .. }), "{e}");
    assert!(e.to_string().contains("mistral3"), "{e}");
}

#[test]
fn a_file_that_is_not_gguf_is_an_error_saying_so() {
    let e = GgufFile::open(&fixture("tiny-llama.json")).unwrap_err();
    assert!(e.to_string().contains("not a GGUF file"), "{e}");
}

#[test]
fn a_missing_tensor_is_an_error_naming_it() {
    // Rename one tensor in place (same length), so the file lacks blk.0.ffn_up.weight.
    let mut bytes = std::fs::read(fixture("tiny-llama.gguf")).unwrap();
    let at = bytes
        .windows(18)
        .position(|w| w == b"blk.0.ffn_up.weigh")
        .unwrap();
    bytes[at..at + 6].copy_from_slice(b"blk.9.");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing.gguf");
    std::fs::write(&path, bytes).unwrap();
    let e = GgufModel::open(&path).unwrap_err();
    assert!(e.to_string().contains("blk.0.ffn_up.weight"), "{e}");
}

#[test]
fn an_unsupported_tensor_type_is_an_error_naming_it() {
    // Change the type of token_embd.weight's record to IQ2_XXS (16).
    let mut bytes = std::fs::read(fixture("tiny-llama.gguf")).unwrap();
    let name = b"token_embd.weight";
    let at = bytes.windows(name.len()).position(|w| w == name).unwrap() + name.len();
    let n_dims = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let ty_at = at + 4 + 8 * n_dims;
    assert_eq!(
        u32::from_le_bytes(bytes[ty_at..ty_at + 4].try_into().unwrap()),
        8
    );
    bytes[ty_at..ty_at + 4].copy_from_slice(&16u32.to_le_bytes());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("iq2.gguf");
    std::fs::write(&path, bytes).unwrap();
    let model = GgufModel::open(&path).unwrap();
    let e = model.tensor_f32("model.embed_tokens.weight").unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("IQ2_XXS") && msg.contains("token_embd.weight"),
        "{msg}"
    );
}

/// A temporary directory holding the tiny preset as an f32 Hugging Face
/// directory, and that directory's path.
fn synth_tiny() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let hf = dir.path().join("tiny");
    preset::synth(Preset::Tiny, DType::F32, &hf).unwrap();
    (dir, hf)
}

#[test]
fn an_exported_preset_reads_back_with_the_same_config_and_weights() {
    let (dir, hf) = synth_tiny();
    let out = dir.path().join("tiny.gguf");
    iree_llm::gguf::export_hf_dir(&hf, DType::F32, &out).unwrap();

    let cfg = Preset::Tiny.config();
    let model = GgufModel::open(&out).unwrap();
    assert_eq!(model.config(), &cfg);
    let weights = Weights::open(&hf, &cfg).unwrap();
    for (name, _) in iree_llm::checkpoint::tensors(&cfg) {
        assert_eq!(
            model.tensor_f32(&name).unwrap(),
            weights.to_f32(&name).unwrap(),
            "{name}"
        );
    }
    let md = model.file().metadata();
    let tokens = md["tokenizer.ggml.tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), cfg.vocab_size);
    assert_eq!(md["tokenizer.ggml.model"].as_str(), Some("gpt2"));
    assert!(md["tokenizer.chat_template"].as_str().is_some());
    // Its tokenizer, as iree-llm reads it back, splits text as the directory's does.
    let from_dir = iree_llm::tokenizer::Tokenizer::from_dir(&hf).unwrap();
    let from_gguf = iree_llm::tokenizer::Tokenizer::from_dir(&out).unwrap();
    let text = "Hello, world!  It's 2026: 3.14 * x == y\n\tdone";
    assert_eq!(
        from_gguf.encode(text, false).unwrap(),
        from_dir.encode(text, false).unwrap()
    );
}

/// Quantizes the fixture values with `quant` and compares the blocks with
/// those `gguf.quants.quantize` made, byte for byte.
fn quantizes_like_the_reference(quant: Quant) {
    let stem = quant.name();
    let values = read_f32(&fixture(&format!("quant/{stem}.f32")));
    let want = std::fs::read(fixture(&format!("quant/{stem}.bin"))).unwrap();
    let got = quantize(quant, &values).unwrap();
    assert_eq!(got.len(), want.len(), "{stem}: byte count");
    let diffs: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    assert!(
        diffs.is_empty(),
        "{stem}: {} of {} bytes differ from gguf.quants.quantize, first at {:?}",
        diffs.len(),
        want.len(),
        &diffs[..diffs.len().min(5)]
    );
}

#[test]
fn quantizes_q8_0_like_the_gguf_package() {
    quantizes_like_the_reference(Quant::Q8_0);
}
#[test]
fn quantizes_q4_0_like_the_gguf_package() {
    quantizes_like_the_reference(Quant::Q4_0);
}
#[test]
fn quantizes_q4_1_like_the_gguf_package() {
    quantizes_like_the_reference(Quant::Q4_1);
}

#[test]
fn a_quantized_export_stores_matrices_in_blocks_within_half_a_step() {
    let (dir, hf) = synth_tiny();
    let cfg = Preset::Tiny.config();
    let weights = Weights::open(&hf, &cfg).unwrap();
    for quant in [Quant::Q8_0, Quant::Q4_0, Quant::Q4_1] {
        let out = dir.path().join(format!("tiny-{}.gguf", quant.name()));
        iree_llm::gguf::export_hf_dir_quantized(&hf, DType::F32, quant, &out).unwrap();
        let model = GgufModel::open(&out).unwrap();
        assert_eq!(model.config(), &cfg);
        let file = model.file();
        for (g, ty) in [
            ("token_embd.weight", quant.ggml_type()),
            ("blk.0.attn_q.weight", quant.ggml_type()),
            ("blk.0.ffn_down.weight", quant.ggml_type()),
            ("blk.0.attn_norm.weight", GgmlType::F32),
        ] {
            assert_eq!(file.tensor_info(g).unwrap().ty, ty, "{quant:?} {g}");
        }
        // Every value read back (dequantized, Q/K rows restored) is within a
        // step of its block's range of the original: rows permute whole.
        for (name, shape) in iree_llm::checkpoint::tensors(&cfg) {
            let want = weights.to_f32(&name).unwrap();
            let got = model.tensor_f32(&name).unwrap();
            if shape.len() == 1 {
                assert_eq!(got, want, "{name}: norms stay f32");
                continue;
            }
            for (b, (w, g)) in want.chunks(32).zip(got.chunks(32)).enumerate() {
                let lo = w.iter().copied().fold(f32::INFINITY, f32::min);
                let hi = w.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let amax = lo.abs().max(hi.abs());
                let step = match quant {
                    Quant::Q8_0 => amax / 127.0,
                    Quant::Q4_0 => amax / 8.0,
                    Quant::Q4_1 => (hi - lo) / 15.0,
                };
                // Half a step, Q4_0's clamped extreme a whole one, plus the
                // f16 rounding of the scales.
                let bound = step * if quant == Quant::Q4_0 { 1.0 } else { 0.5 } + amax / 256.0;
                for (x, y) in w.iter().zip(g) {
                    assert!(
                        (x - y).abs() <= bound,
                        "{quant:?} {name} block {b}: {x} read back as {y} (bound {bound})"
                    );
                }
            }
        }
    }
}

/// Runs `iree-llm convert` with `args`; its exit status and stderr.
fn convert(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_iree-llm"))
        .arg("convert")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn convert_keeps_the_checkpoints_dtype_unless_asked_to_quantize() {
    let dir = tempfile::tempdir().unwrap();
    let hf = dir.path().join("tiny-bf16");
    preset::synth(Preset::Tiny, DType::BF16, &hf).unwrap();
    let cfg = Preset::Tiny.config();
    let weights = Weights::open(&hf, &cfg).unwrap();
    let hf_arg = hf.to_str().unwrap();

    // No --dtype: bf16 stays bf16, every value as it was.
    let plain = dir.path().join("tiny.gguf");
    let (ok, err) = convert(&["--model", hf_arg, "--out", plain.to_str().unwrap()]);
    assert!(ok, "{err}");
    let model = GgufModel::open(&plain).unwrap();
    assert_eq!(model.config(), &cfg);
    assert_eq!(
        model.file().tensor_info("blk.0.attn_q.weight").unwrap().ty,
        GgmlType::BF16
    );
    for (name, _) in iree_llm::checkpoint::tensors(&cfg) {
        assert_eq!(
            model.tensor_f32(&name).unwrap(),
            weights.to_f32(&name).unwrap(),
            "{name}"
        );
    }

    // --quant q8_0: every matrix in blocks, norms in f32.
    let q8 = dir.path().join("tiny-q8_0.gguf");
    let (ok, err) = convert(&[
        "--model",
        hf_arg,
        "--out",
        q8.to_str().unwrap(),
        "--quant",
        "q8_0",
    ]);
    assert!(ok, "{err}");
    let file = GgufFile::open(&q8).unwrap();
    for (g, ty) in [
        ("token_embd.weight", GgmlType::Q8_0),
        ("blk.1.ffn_down.weight", GgmlType::Q8_0),
        ("blk.0.attn_norm.weight", GgmlType::F32),
    ] {
        assert_eq!(file.tensor_info(g).unwrap().ty, ty, "{g}");
    }
}

#[test]
fn convert_refuses_what_it_cannot_write_and_says_why() {
    let (dir, hf) = synth_tiny();
    let hf_arg = hf.to_str().unwrap();
    let gguf = dir.path().join("tiny.gguf");
    let bin = dir.path().join("tiny.bin");
    let cases: [(&[&str], &str); 3] = [
        (
            &["--model", hf_arg, "--out", bin.to_str().unwrap()],
            "*.gguf",
        ),
        (
            &[
                "--model",
                hf_arg,
                "--out",
                gguf.to_str().unwrap(),
                "--quant",
                "q4_1",
                "--dtype",
                "f16",
            ],
            "give one of them",
        ),
        (
            &["--model", "no-such-model", "--out", gguf.to_str().unwrap()],
            "neither a model directory",
        ),
    ];
    for (args, says) in cases {
        let (ok, err) = convert(args);
        assert!(!ok && err.contains(says), "{args:?}: {err}");
    }
    assert!(
        !gguf.exists() && !bin.exists(),
        "a refused conversion writes nothing"
    );

    // A GGUF file is already converted.
    iree_llm::gguf::export_hf_dir(&hf, DType::F32, &gguf).unwrap();
    let again = dir.path().join("again.gguf");
    let (ok, err) = convert(&[
        "--model",
        gguf.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("already a GGUF file"), "{err}");
    assert!(!again.exists());
}

#[test]
fn a_quantized_file_holds_its_blocks_and_dequantizes_a_matrix_only_when_asked() {
    let (dir, hf) = synth_tiny();
    let cfg = Preset::Tiny.config();
    let out = dir.path().join("tiny-q4_1.gguf");
    iree_llm::gguf::export_hf_dir_quantized(&hf, DType::F32, Quant::Q4_1, &out).unwrap();
    let model = GgufModel::open(&out).unwrap();
    let weights = Weights::open(&out, &cfg).unwrap();
    // Before any matrix is asked for: the blocks (0.625 bytes per weight)
    // and the f32 norms, not 4 bytes per weight.
    let f32_total = weights.total_bytes();
    assert!(
        weights.host_bytes() * 4 < f32_total,
        "{} of {f32_total} bytes held at open",
        weights.host_bytes()
    );
    // Asked for, every tensor is exactly the file's dequantized values
    // (Q/K rows in Hugging Face order).
    for (name, _) in iree_llm::checkpoint::tensors(&cfg) {
        assert_eq!(
            weights.to_f32(&name).unwrap(),
            model.tensor_f32(&name).unwrap(),
            "{name}"
        );
    }
    assert!(weights.host_bytes() > f32_total, "now held dequantized too");
}

#[test]
fn an_f16_export_stores_matrices_in_f16_and_norms_in_f32() {
    let (dir, hf) = synth_tiny();
    let out = dir.path().join("tiny-f16.gguf");
    iree_llm::gguf::export_hf_dir(&hf, DType::F16, &out).unwrap();
    let file = GgufFile::open(&out).unwrap();
    assert_eq!(
        file.tensor_info("blk.0.attn_q.weight").unwrap().ty,
        GgmlType::F16
    );
    assert_eq!(
        file.tensor_info("blk.0.attn_norm.weight").unwrap().ty,
        GgmlType::F32
    );
    assert_eq!(
        file.tensor_info("rope_freqs.weight").unwrap().ty,
        GgmlType::F32
    );
}

/// The real SmolLM2-135M-Instruct file (fetched by scripts/bootstrap.sh).
fn smollm2() -> PathBuf {
    iree_llm::compile::cache_root().join("models/SmolLM2-135M-Instruct.Q4_1.gguf")
}

#[test]
#[ignore = "needs the SmolLM2 GGUF that scripts/bootstrap.sh fetches; run with --ignored"]
fn smollm2_reads_as_the_published_config() {
    let model = GgufModel::open(&smollm2()).unwrap();
    let c = model.config();
    assert_eq!(
        (c.num_hidden_layers, c.hidden_size, c.intermediate_size),
        (30, 576, 1536)
    );
    assert_eq!(
        (c.num_attention_heads, c.num_key_value_heads, c.head_dim),
        (9, 3, 64)
    );
    assert_eq!((c.vocab_size, c.max_position_embeddings), (49152, 8192));
    assert_eq!((c.rope_theta, c.rms_norm_eps), (100000.0, 1e-5));
    assert!(c.tie_word_embeddings && c.rope_scaling.is_none());
    assert_eq!(c.bos_token_id.map(|t| t.0), Some(1));
    assert_eq!(
        c.eos_token_ids.iter().map(|t| t.0).collect::<Vec<_>>(),
        vec![2]
    );
    for (name, shape) in iree_llm::checkpoint::tensors(c) {
        let v = model.tensor_f32(&name).unwrap();
        assert_eq!(v.len(), shape.iter().product::<usize>(), "{name}");
        assert!(v.iter().all(|x| x.is_finite()), "{name}");
    }
}

#[test]
fn a_gguf_file_resolves_to_itself_and_smollm2_to_the_model_cache() {
    let cache = tempfile::tempdir().unwrap();
    let file = fixture("tiny-llama.gguf");
    let resolved = preset::resolve_model(file.to_str().unwrap(), cache.path()).unwrap();
    assert_eq!(resolved, file);
    assert_eq!(
        preset::fetched_model_path("SmolLM2-135M"),
        Some(smollm2()),
        "the preset name is case-insensitive and names the bootstrap's file"
    );
    let e = preset::resolve_model("no-such-model", cache.path()).unwrap_err();
    assert!(e.to_string().contains("smollm2-135m"), "{e}");
}
