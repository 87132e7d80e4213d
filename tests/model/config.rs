//! config.json parsing: published configs of real model families, both RoPE
//! spellings, generation_config merging, and errors that name the field.

use iree_llm::TokenId;
use iree_llm::config::{ConfigError, Llama3RopeScaling, ModelConfig};
use serde_json::json;

use crate::common::{fixture, fixture_config};

fn ids(v: &[u32]) -> Vec<TokenId> {
    v.iter().map(|&i| TokenId(i)).collect()
}

#[test]
fn llama_2_7b_is_multi_head_with_default_rope() {
    let c = fixture_config("llama-2-7b.json");
    assert_eq!(
        (
            c.vocab_size,
            c.hidden_size,
            c.intermediate_size,
            c.num_hidden_layers
        ),
        (32000, 4096, 11008, 32)
    );
    assert_eq!(
        (c.num_attention_heads, c.num_key_value_heads, c.head_dim),
        (32, 32, 128)
    );
    assert_eq!(c.rope_theta, 10000.0, "absent rope_theta defaults to 10000");
    assert_eq!(c.rope_scaling, None);
    assert_eq!(c.rms_norm_eps, 1e-5);
    assert_eq!(c.max_position_embeddings, 4096);
    assert!(!c.tie_word_embeddings);
    assert_eq!(c.bos_token_id, Some(TokenId(1)));
    assert_eq!(c.eos_token_ids, ids(&[2]));
}

#[test]
fn llama_3_8b_has_gqa_and_theta_500k() {
    let c = fixture_config("llama-3-8b.json");
    assert_eq!((c.vocab_size, c.intermediate_size), (128256, 14336));
    assert_eq!(
        (c.num_attention_heads, c.num_key_value_heads, c.head_dim),
        (32, 8, 128)
    );
    assert_eq!(c.num_queries_per_kv(), 4);
    assert_eq!(c.rope_theta, 500000.0);
    assert_eq!(c.rope_scaling, None);
    assert_eq!(c.max_position_embeddings, 8192);
    assert_eq!(c.eos_token_ids, ids(&[128001]));
}

#[test]
fn llama_3_1_8b_has_llama3_rope_scaling_and_three_eos_ids() {
    let c = fixture_config("llama-3.1-8b-instruct.json");
    assert_eq!(
        c.rope_scaling,
        Some(Llama3RopeScaling {
            factor: 8.0,
            low_freq_factor: 1.0,
            high_freq_factor: 4.0,
            original_max_position_embeddings: 8192
        })
    );
    assert_eq!(c.max_position_embeddings, 131072);
    assert_eq!(c.eos_token_ids, ids(&[128001, 128008, 128009]));
    assert!(!c.tie_word_embeddings);
}

#[test]
fn llama_3_2_1b_has_explicit_head_dim_and_tied_embeddings() {
    let c = fixture_config("llama-3.2-1b.json");
    assert_eq!(
        (
            c.vocab_size,
            c.hidden_size,
            c.intermediate_size,
            c.num_hidden_layers
        ),
        (128256, 2048, 8192, 16)
    );
    assert_eq!(
        (c.num_attention_heads, c.num_key_value_heads, c.head_dim),
        (32, 8, 64)
    );
    assert!(c.tie_word_embeddings);
    assert_eq!(c.rope_scaling.unwrap().factor, 32.0);
    // Matches the built-in preset's shapes (the preset has the instruct EOS ids).
    let preset = iree_llm::preset::Preset::Llama32_1B.config();
    assert_eq!(
        ModelConfig {
            eos_token_ids: preset.eos_token_ids.clone(),
            ..c
        },
        preset
    );
}

#[test]
fn rope_parameters_form_parses_like_the_older_form() {
    let old = fixture_config("llama-3.2-1b.json");
    let new = fixture_config("llama-3.2-1b-instruct-rope-parameters.json");
    assert_eq!(new.rope_theta, 500000.0);
    assert_eq!(new.rope_scaling, old.rope_scaling);
    assert_eq!(new.eos_token_ids, ids(&[128001, 128008, 128009]));
    assert_eq!(
        ModelConfig {
            eos_token_ids: old.eos_token_ids.clone(),
            ..new
        },
        old
    );

    let smol_old = fixture_config("smollm-135m.json");
    let smol_new = fixture_config("smollm-135m-rope-parameters.json");
    assert_eq!(smol_new, smol_old);
    assert_eq!(smol_new.rope_scaling, None);
}

#[test]
fn tinyllama_has_four_kv_heads() {
    let c = fixture_config("tinyllama-1.1b-chat.json");
    assert_eq!(
        (c.hidden_size, c.intermediate_size, c.num_hidden_layers),
        (2048, 5632, 22)
    );
    assert_eq!(
        (c.num_attention_heads, c.num_key_value_heads, c.head_dim),
        (32, 4, 64)
    );
    assert_eq!(c.max_position_embeddings, 2048);
    assert_eq!(c.bos_token_id, Some(TokenId(1)));
}

#[test]
fn smollm_135m_has_nine_heads_of_64_and_tied_embeddings() {
    let c = fixture_config("smollm-135m.json");
    assert_eq!(
        (c.vocab_size, c.hidden_size, c.num_hidden_layers),
        (49152, 576, 30)
    );
    assert_eq!(
        (c.num_attention_heads, c.num_key_value_heads, c.head_dim),
        (9, 3, 64)
    );
    assert!(c.tie_word_embeddings);
    assert_eq!(c.bos_token_id, Some(TokenId(0)));
    assert_eq!(c.eos_token_ids, ids(&[0]));
}

#[test]
fn generation_config_eos_ids_are_merged_without_duplicates() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("llama-3-8b.json"), dir.path().join("config.json")).unwrap();
    std::fs::write(
        dir.path().join("generation_config.json"),
        r#"{"bos_token_id": 128000, "eos_token_id": [128001, 128009], "do_sample": true}"#,
    )
    .unwrap();
    let c = ModelConfig::from_dir(dir.path()).unwrap();
    assert_eq!(c.eos_token_ids, ids(&[128001, 128009]));

    // An int in generation_config, a list in config.json.
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("llama-3-8b.json")).unwrap())
            .unwrap();
    v["eos_token_id"] = json!([128009, 128001]);
    v["bos_token_id"] = serde_json::Value::Null;
    std::fs::write(dir.path().join("config.json"), v.to_string()).unwrap();
    std::fs::write(
        dir.path().join("generation_config.json"),
        r#"{"bos_token_id": 128000, "eos_token_id": 128008}"#,
    )
    .unwrap();
    let c = ModelConfig::from_dir(dir.path()).unwrap();
    assert_eq!(c.eos_token_ids, ids(&[128009, 128001, 128008]));
    assert_eq!(
        c.bos_token_id,
        Some(TokenId(128000)),
        "BOS filled from generation_config"
    );
}

#[test]
fn to_hf_json_round_trips() {
    for name in [
        "llama-2-7b.json",
        "llama-3.1-8b-instruct.json",
        "llama-3.2-1b.json",
        "smollm-135m.json",
    ] {
        let c = fixture_config(name);
        let back = ModelConfig::from_json_value(&c.to_hf_json()).unwrap();
        assert_eq!(back, c, "{name}");
    }
    let tiny = iree_llm::preset::Preset::Tiny.config();
    assert_eq!(
        ModelConfig::from_json_value(&tiny.to_hf_json()).unwrap(),
        tiny
    );
}

#[test]
fn rope_inv_freq_applies_llama3_scaling_by_wavelength() {
    let c = fixture_config("llama-3.1-8b-instruct.json");
    let f = c.rope_inv_freq();
    assert_eq!(f.len(), 64);
    // Highest frequency (wavelength 2*pi < 8192/4): unchanged, theta^0 = 1.
    assert_eq!(f[0], 1.0);
    // Lowest frequency (wavelength far above 8192): divided by the factor 8.
    let raw_last = 500000f64.powf(-126.0 / 128.0);
    assert!((f[63] - raw_last / 8.0).abs() <= 1e-15 * raw_last);
    // Without scaling, plain theta^(-2i/d).
    let plain = fixture_config("llama-3-8b.json").rope_inv_freq();
    for (i, v) in plain.iter().enumerate() {
        let want = 500000f64.powf(-(2.0 * i as f64) / 128.0);
        assert!((v - want).abs() <= 1e-15 * want, "i={i}");
    }
    // Entries in the smoothed band lie strictly between raw/factor and raw.
    let smoothed: Vec<usize> = (0..64)
        .filter(|&i| {
            let raw = 500000f64.powf(-(2.0 * i as f64) / 128.0);
            f[i] < raw && f[i] > raw / 8.0
        })
        .collect();
    assert!(!smoothed.is_empty(), "some frequencies are interpolated");
}

fn with(base: &str, edit: impl FnOnce(&mut serde_json::Value)) -> Result<ModelConfig, ConfigError> {
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture(base)).unwrap()).unwrap();
    edit(&mut v);
    ModelConfig::from_json_value(&v)
}

fn err_of(r: Result<ModelConfig, ConfigError>) -> String {
    r.expect_err("config should be rejected").to_string()
}

#[test]
fn attention_and_mlp_biases_are_rejected_by_name() {
    let e = err_of(with("llama-3.1-8b-instruct.json", |v| {
        v["attention_bias"] = json!(true)
    }));
    assert!(e.contains("attention_bias"), "{e}");
    let e = err_of(with("llama-3.1-8b-instruct.json", |v| {
        v["mlp_bias"] = json!(true)
    }));
    assert!(e.contains("mlp_bias"), "{e}");
}

#[test]
fn unknown_rope_types_are_rejected_by_name() {
    let e = err_of(with("llama-3.1-8b-instruct.json", |v| {
        v["rope_scaling"] = json!({"rope_type": "yarn", "factor": 4.0})
    }));
    assert!(
        e.contains("rope_scaling.rope_type") && e.contains("yarn"),
        "{e}"
    );
    // The legacy `type` key too.
    let e = err_of(with("llama-2-7b.json", |v| {
        v["rope_scaling"] = json!({"type": "linear", "factor": 2.0})
    }));
    assert!(
        e.contains("rope_scaling.type") && e.contains("linear"),
        "{e}"
    );
    let e = err_of(with("llama-3.2-1b-instruct-rope-parameters.json", |v| {
        v["rope_parameters"]["rope_type"] = json!("dynamic")
    }));
    assert!(
        e.contains("rope_parameters.rope_type") && e.contains("dynamic"),
        "{e}"
    );
}

#[test]
fn incomplete_llama3_scaling_names_the_missing_field() {
    let e = err_of(with("llama-3.1-8b-instruct.json", |v| {
        v["rope_scaling"]
            .as_object_mut()
            .unwrap()
            .remove("low_freq_factor");
    }));
    assert!(e.contains("rope_scaling.low_freq_factor"), "{e}");
    let e = err_of(with("llama-3.2-1b-instruct-rope-parameters.json", |v| {
        v["rope_parameters"]
            .as_object_mut()
            .unwrap()
            .remove("original_max_position_embeddings");
    }));
    assert!(
        e.contains("rope_parameters.original_max_position_embeddings"),
        "{e}"
    );
}

#[test]
fn non_llama_architectures_are_rejected() {
    let e = err_of(with("llama-3-8b.json", |v| {
        v["architectures"] = json!(["MistralForCausalLM"]);
        v["model_type"] = json!("mistral");
    }));
    assert!(
        e.contains("architectures") && e.contains("MistralForCausalLM"),
        "{e}"
    );
    let e = err_of(with("llama-3-8b.json", |v| {
        v.as_object_mut().unwrap().remove("architectures");
        v["model_type"] = json!("qwen2");
    }));
    assert!(e.contains("model_type") && e.contains("qwen2"), "{e}");
}

#[test]
fn other_unsupported_or_invalid_fields_are_named() {
    let e = err_of(with("llama-3-8b.json", |v| v["hidden_act"] = json!("gelu")));
    assert!(e.contains("hidden_act"), "{e}");
    let e = err_of(with("llama-3-8b.json", |v| {
        v["quantization_config"] = json!({"quant_method": "gptq"})
    }));
    assert!(e.contains("quantization_config"), "{e}");
    let e = err_of(with("llama-3-8b.json", |v| {
        v.as_object_mut().unwrap().remove("hidden_size");
    }));
    assert!(e.contains("hidden_size") && e.contains("missing"), "{e}");
    let e = err_of(with("llama-3-8b.json", |v| {
        v["num_key_value_heads"] = json!(5)
    }));
    assert!(e.contains("num_key_value_heads"), "{e}");
    let e = err_of(with("llama-3-8b.json", |v| v["vocab_size"] = json!("big")));
    assert!(e.contains("vocab_size"), "{e}");
    let e = err_of(with("llama-3-8b.json", |v| {
        v["eos_token_id"] = json!(["x"])
    }));
    assert!(e.contains("eos_token_id"), "{e}");
    let e = err_of(with("llama-3-8b.json", |v| {
        v["eos_token_id"] = json!(200000)
    }));
    assert!(e.contains("eos_token_id") && e.contains("vocab"), "{e}");
    let e = err_of(with("smollm-135m.json", |v| {
        v["num_attention_heads"] = json!(7)
    }));
    assert!(e.contains("head_dim"), "{e}");
    let e = err_of(with("llama-3-8b.json", |v| v["head_dim"] = json!(63)));
    assert!(e.contains("head_dim"), "{e}");
}

#[test]
fn missing_config_file_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let e = ModelConfig::from_dir(dir.path()).unwrap_err().to_string();
    assert!(e.contains("config.json"), "{e}");
    std::fs::write(dir.path().join("config.json"), "{not json").unwrap();
    let e = ModelConfig::from_dir(dir.path()).unwrap_err().to_string();
    assert!(e.contains("config.json") && e.contains("JSON"), "{e}");
}
