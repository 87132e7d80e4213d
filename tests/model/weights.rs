//! Safetensors loading: single files and shards, shape/dtype checks with
//! errors naming the tensor, and exact f16 / bf16 conversion.

use std::path::Path;

use half::{bf16, f16};
use iree_llm::config::ModelConfig;
use iree_llm::preset::{Preset, synth_config};
use iree_llm::weights::{DType, Weights};
use serde_json::json;

use crate::common::{RawTensor, f32_bytes, read_safetensors, tiny_dir, write_safetensors};

#[test]
fn expected_tensors_follow_the_canonical_order() {
    let cfg = Preset::Tiny.config();
    let t = iree_llm::checkpoint::tensors(&cfg);
    assert_eq!(t.len(), 1 + 2 * 9 + 1 + 1);
    assert_eq!(
        t[0],
        ("model.embed_tokens.weight".to_string(), vec![512, 64])
    );
    let layer0: Vec<&str> = t[1..10].iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        layer0,
        [
            "model.layers.0.input_layernorm.weight",
            "model.layers.0.self_attn.q_proj.weight",
            "model.layers.0.self_attn.k_proj.weight",
            "model.layers.0.self_attn.v_proj.weight",
            "model.layers.0.self_attn.o_proj.weight",
            "model.layers.0.post_attention_layernorm.weight",
            "model.layers.0.mlp.gate_proj.weight",
            "model.layers.0.mlp.up_proj.weight",
            "model.layers.0.mlp.down_proj.weight",
        ]
    );
    assert_eq!(t[2].1, vec![64, 64]); // q: 4 heads * 16
    assert_eq!(t[3].1, vec![32, 64]); // k: 2 kv heads * 16
    assert_eq!(t[5].1, vec![64, 64]); // o
    assert_eq!(t[9].1, vec![64, 128]); // down
    assert_eq!(t[19], ("model.norm.weight".to_string(), vec![64]));
    assert_eq!(t[20], ("lm_head.weight".to_string(), vec![512, 64]));
}

#[test]
fn llama_3_2_1b_preset_has_the_real_tensor_list() {
    let cfg = Preset::Llama32_1B.config();
    let t = iree_llm::checkpoint::tensors(&cfg);
    assert_eq!(t.len(), 1 + 16 * 9 + 1, "tied: no lm_head");
    assert_eq!(t[0].1, vec![128256, 2048]);
    let shape = |n: &str| t.iter().find(|(name, _)| name == n).unwrap().1.clone();
    assert_eq!(
        shape("model.layers.15.self_attn.q_proj.weight"),
        vec![2048, 2048]
    );
    assert_eq!(
        shape("model.layers.15.self_attn.k_proj.weight"),
        vec![512, 2048]
    );
    assert_eq!(
        shape("model.layers.15.self_attn.v_proj.weight"),
        vec![512, 2048]
    );
    assert_eq!(
        shape("model.layers.15.self_attn.o_proj.weight"),
        vec![2048, 2048]
    );
    assert_eq!(
        shape("model.layers.15.mlp.gate_proj.weight"),
        vec![8192, 2048]
    );
    assert_eq!(
        shape("model.layers.15.mlp.down_proj.weight"),
        vec![2048, 8192]
    );
    // Llama 3.2 1B has 1.236 B parameters.
    assert_eq!(cfg.num_parameters(), 1_235_814_400);
    assert_eq!(
        iree_llm::checkpoint::TensorLayout::from(&cfg).lm_head_name(),
        "model.embed_tokens.weight"
    );
}

#[test]
fn opens_a_synthesized_model_and_views_tensors() {
    let dir = tiny_dir(DType::F32);
    let cfg = ModelConfig::from_dir(dir.path()).unwrap();
    let w = Weights::open(dir.path(), &cfg).unwrap();
    assert_eq!(w.dtype(), DType::F32);
    assert_eq!(w.names().len(), iree_llm::checkpoint::tensors(&cfg).len());
    let q = w.tensor("model.layers.1.self_attn.q_proj.weight").unwrap();
    assert_eq!(q.shape, &[64, 64]);
    assert_eq!(q.data.len(), 64 * 64 * 4);
    assert_eq!(w.to_f32(q.name).unwrap().len(), 64 * 64);
    let e = w
        .tensor("model.layers.7.mlp.up_proj.weight")
        .unwrap_err()
        .to_string();
    assert!(e.contains("model.layers.7.mlp.up_proj.weight"), "{e}");
    assert_eq!(w.total_bytes(), cfg.num_parameters() * 4);
}

/// Rewrites `dir/model.safetensors` with `edit` applied to its tensors.
fn rewrite(dir: &Path, edit: impl FnOnce(&mut Vec<RawTensor>)) {
    let path = dir.join("model.safetensors");
    let mut tensors = read_safetensors(&path);
    edit(&mut tensors);
    write_safetensors(&path, &tensors);
}

fn open_err(dir: &Path) -> String {
    let cfg = ModelConfig::from_dir(dir).unwrap();
    Weights::open(dir, &cfg)
        .expect_err("weights should be rejected")
        .to_string()
}

#[test]
fn a_missing_tensor_is_named() {
    let dir = tiny_dir(DType::F32);
    rewrite(dir.path(), |t| {
        t.retain(|t| t.name != "model.layers.1.mlp.gate_proj.weight")
    });
    let e = open_err(dir.path());
    assert!(
        e.contains("model.layers.1.mlp.gate_proj.weight") && e.contains("missing"),
        "{e}"
    );
}

#[test]
fn a_misshapen_tensor_is_named_with_both_shapes() {
    let dir = tiny_dir(DType::F32);
    rewrite(dir.path(), |t| {
        let k = t
            .iter_mut()
            .find(|t| t.name == "model.layers.0.self_attn.k_proj.weight")
            .unwrap();
        k.shape = vec![64, 32]; // transposed
    });
    let e = open_err(dir.path());
    assert!(e.contains("model.layers.0.self_attn.k_proj.weight"), "{e}");
    assert!(e.contains("[64, 32]") && e.contains("[32, 64]"), "{e}");
}

#[test]
fn unsupported_and_mixed_dtypes_are_named() {
    let dir = tiny_dir(DType::F32);
    rewrite(dir.path(), |t| {
        let n = t
            .iter_mut()
            .find(|t| t.name == "model.norm.weight")
            .unwrap();
        n.dtype = safetensors::Dtype::I32;
    });
    let e = open_err(dir.path());
    assert!(e.contains("model.norm.weight") && e.contains("I32"), "{e}");

    let dir = tiny_dir(DType::F32);
    rewrite(dir.path(), |t| {
        let n = t
            .iter_mut()
            .find(|t| t.name == "model.norm.weight")
            .unwrap();
        let vals: Vec<f32> = n
            .data
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        n.data = vals
            .iter()
            .flat_map(|v| bf16::from_f32(*v).to_le_bytes())
            .collect();
        n.dtype = safetensors::Dtype::BF16;
    });
    let e = open_err(dir.path());
    assert!(
        e.contains("model.norm.weight") && e.contains("bf16") && e.contains("f32"),
        "{e}"
    );
}

#[test]
fn a_directory_without_safetensors_says_what_is_expected() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = Preset::Tiny.config();
    let e = Weights::open(dir.path(), &cfg).unwrap_err().to_string();
    assert!(
        e.contains("model.safetensors") && e.contains("index.json"),
        "{e}"
    );
}

#[test]
fn extra_tensors_and_an_unused_lm_head_are_ignored() {
    // A tied config whose checkpoint still carries lm_head.weight and a
    // rotary buffer, as some exports do.
    let mut cfg = Preset::Tiny.config();
    cfg.tie_word_embeddings = true;
    let dir = tempfile::tempdir().unwrap();
    synth_config(&cfg, 5, DType::F32, dir.path()).unwrap();
    rewrite(dir.path(), |t| {
        t.push(RawTensor {
            name: "lm_head.weight".into(),
            dtype: safetensors::Dtype::F32,
            shape: vec![512, 64],
            data: vec![0; 512 * 64 * 4],
        });
        t.push(RawTensor {
            name: "model.layers.0.self_attn.rotary_emb.inv_freq".into(),
            dtype: safetensors::Dtype::F32,
            shape: vec![8],
            data: f32_bytes(&[1.0; 8]),
        });
    });
    let w = Weights::open(dir.path(), &cfg).unwrap();
    assert!(
        w.tensor("lm_head.weight").is_err(),
        "tied: lm_head is not a weight of this model"
    );
    assert_eq!(w.names().len(), 1 + 2 * 9 + 1);
}

/// Splits `dir/model.safetensors` into two shards plus an index.
fn shard(dir: &Path) {
    let path = dir.join("model.safetensors");
    let tensors = read_safetensors(&path);
    std::fs::remove_file(&path).unwrap();
    let (a, b): (Vec<RawTensor>, Vec<RawTensor>) = tensors
        .into_iter()
        .partition(|t| t.name.starts_with("model.layers.0.") || t.name.starts_with("lm_head"));
    let mut map = serde_json::Map::new();
    for (file, part) in [
        ("model-00001-of-00002.safetensors", &a),
        ("model-00002-of-00002.safetensors", &b),
    ] {
        write_safetensors(&dir.join(file), part);
        for t in part {
            map.insert(t.name.clone(), json!(file));
        }
    }
    let index = json!({"metadata": {"total_size": 0}, "weight_map": map});
    std::fs::write(dir.join("model.safetensors.index.json"), index.to_string()).unwrap();
}

#[test]
fn sharded_checkpoints_load_like_single_files() {
    let single = tiny_dir(DType::BF16);
    let sharded = tiny_dir(DType::BF16);
    shard(sharded.path());
    let cfg = ModelConfig::from_dir(single.path()).unwrap();
    let a = Weights::open(single.path(), &cfg).unwrap();
    let b = Weights::open(sharded.path(), &cfg).unwrap();
    assert_eq!(b.files().len(), 2);
    assert_eq!(b.dtype(), DType::BF16);
    for (name, _) in iree_llm::checkpoint::tensors(&cfg) {
        let (x, y) = (a.tensor(&name).unwrap(), b.tensor(&name).unwrap());
        assert_eq!(x.shape, y.shape, "{name}");
        assert_eq!(x.data, y.data, "{name}");
    }
}

#[test]
fn a_shard_index_pointing_at_the_wrong_file_names_the_tensor() {
    let dir = tiny_dir(DType::F32);
    shard(dir.path());
    let index_path = dir.path().join("model.safetensors.index.json");
    let mut index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&index_path).unwrap()).unwrap();
    index["weight_map"]["model.norm.weight"] = json!("model-00001-of-00002.safetensors");
    std::fs::write(&index_path, index.to_string()).unwrap();
    let e = open_err(dir.path());
    assert!(
        e.contains("model.norm.weight") && e.contains("model-00001-of-00002"),
        "{e}"
    );

    index["weight_map"]
        .as_object_mut()
        .unwrap()
        .remove("model.norm.weight");
    std::fs::write(&index_path, index.to_string()).unwrap();
    let e = open_err(dir.path());
    assert!(
        e.contains("model.norm.weight") && e.contains("index.json"),
        "{e}"
    );
}

#[test]
fn f16_and_bf16_convert_exactly() {
    // Bit patterns covering zero, signs, subnormals, extremes, and values whose
    // decimal forms are not short.
    let f16_bits: Vec<u16> = vec![
        0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xBC00, 0x3555, 0x7BFF, 0xFBFF, 0x5640,
    ];
    let bf16_bits: Vec<u16> = vec![
        0x0000, 0x8000, 0x0001, 0x007F, 0x0080, 0x3F80, 0xBF80, 0x3EAB, 0x7F7F, 0xFF7F, 0x4049,
    ];
    let expect_f16: Vec<f64> = vec![
        0.0,
        -0.0,
        2f64.powi(-24),
        1023.0 * 2f64.powi(-24),
        2f64.powi(-14),
        1.0,
        -1.0,
        (1.0 + 341.0 / 1024.0) * 0.25,
        65504.0,
        -65504.0,
        100.0,
    ];
    let expect_bf16: Vec<f64> = vec![
        0.0,
        -0.0,
        2f64.powi(-133),
        127.0 * 2f64.powi(-133),
        2f64.powi(-126),
        1.0,
        -1.0,
        (1.0 + 43.0 / 128.0) * 0.25,
        (2.0 - 2f64.powi(-7)) * 2f64.powi(127),
        -(2.0 - 2f64.powi(-7)) * 2f64.powi(127),
        3.140625,
    ];
    // A model directory whose norm weight carries those values, in each dtype.
    let mut cfg = Preset::Tiny.config();
    cfg.hidden_size = 11;
    cfg.num_attention_heads = 1;
    cfg.num_key_value_heads = 1;
    cfg.head_dim = 2;
    for (dtype, bits, expect) in [
        (DType::F16, &f16_bits, &expect_f16),
        (DType::BF16, &bf16_bits, &expect_bf16),
    ] {
        let dir = tempfile::tempdir().unwrap();
        synth_config(&cfg, 1, dtype, dir.path()).unwrap();
        rewrite(dir.path(), |t| {
            let n = t
                .iter_mut()
                .find(|t| t.name == "model.norm.weight")
                .unwrap();
            n.data = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
        });
        let w = Weights::open(dir.path(), &cfg).unwrap();
        let got = w.to_f64("model.norm.weight").unwrap();
        let got32 = w.to_f32("model.norm.weight").unwrap();
        for i in 0..bits.len() {
            assert_eq!(
                got[i].to_bits(),
                expect[i].to_bits(),
                "{dtype} bits {:#06x}",
                bits[i]
            );
            assert_eq!(
                (got32[i] as f64).to_bits(),
                expect[i].to_bits(),
                "{dtype} f32 path"
            );
            let via_half = match dtype {
                DType::F16 => f16::from_bits(bits[i]).to_f64(),
                _ => bf16::from_bits(bits[i]).to_f64(),
            };
            assert_eq!(got[i].to_bits(), via_half.to_bits());
        }
    }
}

#[test]
fn dtype_names_parse() {
    assert_eq!("bf16".parse::<DType>().unwrap(), DType::BF16);
    assert_eq!("float16".parse::<DType>().unwrap(), DType::F16);
    assert_eq!("F32".parse::<DType>().unwrap(), DType::F32);
    let e = "int8".parse::<DType>().unwrap_err().to_string();
    assert!(e.contains("int8") && e.contains("bf16"), "{e}");
}
