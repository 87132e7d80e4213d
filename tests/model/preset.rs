//! Built-in presets: names, synthesized directories that round-trip through
//! the loaders, determinism, caching, and the numeric health of the random
//! weights (real logit spread, stable activations).

use std::path::Path;

use iree_llm::TokenId;
use iree_llm::config::ModelConfig;
use iree_llm::preset::{self, Preset, materialize, synth, synth_config};
use iree_llm::reference::{Reference, argmax};
use iree_llm::tokenizer::Tokenizer;
use iree_llm::weights::{DType, Weights};

use crate::common::{std_dev, tiny_dir, top2_margin};

#[test]
fn presets_are_found_by_name_and_unknown_names_list_the_valid_ones() {
    assert_eq!(Preset::from_name("tiny").unwrap(), Preset::Tiny);
    assert_eq!(
        Preset::from_name("Llama-3.2-1B").unwrap(),
        Preset::Llama32_1B
    );
    let e = Preset::from_name("gpt2").unwrap_err().to_string();
    assert!(
        e.contains("gpt2") && e.contains("tiny") && e.contains("llama-3.2-1b"),
        "{e}"
    );
}

#[test]
fn tiny_exercises_gqa_untied_embeddings_and_llama3_rope() {
    let c = Preset::Tiny.config();
    c.validate().unwrap();
    assert_eq!(
        (
            c.vocab_size,
            c.hidden_size,
            c.intermediate_size,
            c.num_hidden_layers
        ),
        (512, 64, 128, 2)
    );
    assert_eq!(
        (c.num_attention_heads, c.num_key_value_heads, c.head_dim),
        (4, 2, 16)
    );
    assert!(!c.tie_word_embeddings);
    // All three llama3 regimes occur: kept, interpolated, divided by factor.
    let s = c.rope_scaling.unwrap();
    let scaled = c.rope_inv_freq();
    let plain = ModelConfig {
        rope_scaling: None,
        ..c.clone()
    }
    .rope_inv_freq();
    let kept = (0..8).filter(|&i| scaled[i] == plain[i]).count();
    let divided = (0..8)
        .filter(|&i| (scaled[i] - plain[i] / s.factor).abs() < 1e-18)
        .count();
    assert!(
        kept > 0 && divided > 0 && kept + divided < 8,
        "kept {kept}, divided {divided}"
    );
}

#[test]
fn llama_3_2_1b_preset_has_the_real_models_shapes() {
    let c = Preset::Llama32_1B.config();
    c.validate().unwrap();
    assert_eq!(
        (c.vocab_size, c.hidden_size, c.intermediate_size),
        (128256, 2048, 8192)
    );
    assert_eq!(
        (
            c.num_hidden_layers,
            c.num_attention_heads,
            c.num_key_value_heads,
            c.head_dim
        ),
        (16, 32, 8, 64)
    );
    assert_eq!(c.rope_theta, 500000.0);
    let s = c.rope_scaling.unwrap();
    assert_eq!(
        (
            s.factor,
            s.low_freq_factor,
            s.high_freq_factor,
            s.original_max_position_embeddings
        ),
        (32.0, 1.0, 4.0, 8192)
    );
    assert!(c.tie_word_embeddings);
    assert_eq!((c.rms_norm_eps, c.max_position_embeddings), (1e-5, 131072));
    assert_eq!(c.bos_token_id, Some(TokenId(128000)));
    assert_eq!(
        c.eos_token_ids,
        vec![TokenId(128001), TokenId(128008), TokenId(128009)]
    );
    assert_eq!(Preset::Llama32_1B.default_dtype(), DType::BF16);
}

#[test]
fn synthesized_tiny_round_trips_through_every_loader() {
    let dir = tiny_dir(DType::F32);
    for f in [
        "config.json",
        "generation_config.json",
        "model.safetensors",
        "tokenizer.json",
        "tokenizer_config.json",
    ] {
        assert!(dir.path().join(f).exists(), "{f}");
    }
    let cfg = ModelConfig::from_dir(dir.path()).unwrap();
    assert_eq!(cfg, Preset::Tiny.config());
    let w = Weights::open(dir.path(), &cfg).unwrap();
    let r = Reference::new(&cfg, &w).unwrap();
    let tok = Tokenizer::from_dir(dir.path()).unwrap();
    let prompt = tok
        .encode("hello world, this is the tiny model", true)
        .unwrap();
    assert_eq!(prompt[0], cfg.bos_token_id.unwrap());
    let out = r.greedy(&prompt, 8).unwrap();
    assert_eq!(out.len(), 8);
    assert!(out.iter().all(|t| t.index() < cfg.vocab_size));
    // Decoding random output gives text (regular tokens are mostly multi-byte).
    let text = tok.decode(&out).unwrap();
    assert!(!text.is_empty());
    let cfg_json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("config.json")).unwrap())
            .unwrap();
    assert_eq!(cfg_json["torch_dtype"], "float32");
    assert_eq!(cfg_json["architectures"][0], "LlamaForCausalLM");
}

#[test]
fn variants_synthesize_and_run() {
    let base = Preset::Tiny.config();
    let variants = [
        (
            "tied",
            ModelConfig {
                tie_word_embeddings: true,
                ..base.clone()
            },
            DType::F32,
        ),
        (
            "no rope scaling",
            ModelConfig {
                rope_scaling: None,
                rope_theta: 500000.0,
                ..base.clone()
            },
            DType::F32,
        ),
        ("bf16", base.clone(), DType::BF16),
        (
            "f16 multi-head",
            ModelConfig {
                num_key_value_heads: 4,
                ..base.clone()
            },
            DType::F16,
        ),
        (
            "one kv head",
            ModelConfig {
                num_key_value_heads: 1,
                num_hidden_layers: 1,
                ..base.clone()
            },
            DType::F32,
        ),
    ];
    for (what, cfg, dtype) in variants {
        let dir = tempfile::tempdir().unwrap();
        synth_config(&cfg, 42, dtype, dir.path()).unwrap();
        let loaded = ModelConfig::from_dir(dir.path()).unwrap();
        assert_eq!(loaded, cfg, "{what}");
        let w = Weights::open(dir.path(), &loaded).unwrap();
        assert_eq!(w.dtype(), dtype, "{what}");
        let r = Reference::new(&loaded, &w).unwrap();
        let logits = r.logits(&[TokenId(501), TokenId(300), TokenId(7)]).unwrap();
        assert!(
            std_dev(&logits) > 1.0,
            "{what}: logits std {}",
            std_dev(&logits)
        );
        assert!(logits.iter().all(|v| v.is_finite()), "{what}");
    }
}

#[test]
fn a_config_without_room_for_the_special_tokens_is_rejected_by_field() {
    let cfg = ModelConfig {
        bos_token_id: None,
        ..Preset::Tiny.config()
    };
    let e = synth_config(&cfg, 1, DType::F32, tempfile::tempdir().unwrap().path())
        .unwrap_err()
        .to_string();
    assert!(e.contains("bos_token_id"), "{e}");
    let cfg = ModelConfig {
        bos_token_id: Some(TokenId(505)),
        ..Preset::Tiny.config()
    };
    let e = synth_config(&cfg, 1, DType::F32, tempfile::tempdir().unwrap().path())
        .unwrap_err()
        .to_string();
    assert!(e.contains("bos_token_id"), "{e}");
    let cfg = ModelConfig {
        eos_token_ids: vec![TokenId(3)],
        ..Preset::Tiny.config()
    };
    let e = synth_config(&cfg, 1, DType::F32, tempfile::tempdir().unwrap().path())
        .unwrap_err()
        .to_string();
    assert!(e.contains("eos_token_id"), "{e}");
}

fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().into_string().unwrap(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn synthesis_is_deterministic_and_seeded() {
    let a = tiny_dir(DType::BF16);
    let b = tiny_dir(DType::BF16);
    let (fa, fb) = (files_of(a.path()), files_of(b.path()));
    assert_eq!(fa.len(), 5);
    for ((na, da), (nb, db)) in fa.iter().zip(&fb) {
        assert_eq!(na, nb);
        assert!(da == db, "{na} differs between two runs");
    }
    // A different seed gives different weights (and the same other files).
    let c = tempfile::tempdir().unwrap();
    synth_config(
        &Preset::Tiny.config(),
        Preset::Tiny.seed() + 1,
        DType::BF16,
        c.path(),
    )
    .unwrap();
    let fc = files_of(c.path());
    for ((n, x), (_, y)) in fa.iter().zip(&fc) {
        assert_eq!(x == y, n != "model.safetensors", "{n}");
    }
}

#[test]
fn materialize_writes_once_and_reuses_the_directory() {
    let root = tempfile::tempdir().unwrap();
    let p = materialize(Preset::Tiny, root.path()).unwrap();
    assert_eq!(
        p,
        root.path()
            .join(preset::cache_dir_name(Preset::Tiny, DType::F32))
    );
    let stamp = std::fs::metadata(p.join("model.safetensors"))
        .unwrap()
        .modified()
        .unwrap();
    let again = materialize(Preset::Tiny, root.path()).unwrap();
    assert_eq!(again, p);
    assert_eq!(
        std::fs::metadata(p.join("model.safetensors"))
            .unwrap()
            .modified()
            .unwrap(),
        stamp
    );
    // Only the final directory is left behind.
    let entries: Vec<_> = std::fs::read_dir(root.path()).unwrap().collect();
    assert_eq!(entries.len(), 1);
    // --model accepts a directory or a preset name.
    assert_eq!(preset::resolve_model("tiny", root.path()).unwrap(), p);
    assert_eq!(
        preset::resolve_model(p.to_str().unwrap(), root.path()).unwrap(),
        p
    );
    let e = preset::resolve_model("/no/such/model", root.path())
        .unwrap_err()
        .to_string();
    assert!(e.contains("/no/such/model") && e.contains("tiny"), "{e}");
}

#[test]
fn concurrent_materialize_calls_agree() {
    let root = tempfile::tempdir().unwrap();
    let paths: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..3)
            .map(|_| s.spawn(|| materialize(Preset::Tiny, root.path()).unwrap()))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(paths.windows(2).all(|w| w[0] == w[1]));
    let cfg = ModelConfig::from_dir(&paths[0]).unwrap();
    Weights::open(&paths[0], &cfg).unwrap();
    assert_eq!(std::fs::read_dir(root.path()).unwrap().count(), 1);
}

/// The random weights must behave like a model: logits with real spread and
/// clear top-1 margins, hidden states that stay in scale through the layers,
/// and attention that is neither uniform nor one-hot.
#[test]
fn tiny_logits_have_real_spread_and_activations_stay_in_scale() {
    let dir = tiny_dir(DType::F32);
    let cfg = ModelConfig::from_dir(dir.path()).unwrap();
    let r = Reference::new(&cfg, &Weights::open(dir.path(), &cfg).unwrap()).unwrap();
    let tok = Tokenizer::from_dir(dir.path()).unwrap();
    let prompt = tok
        .encode(
            "The quick brown fox jumps over the lazy dog. Once upon a time",
            true,
        )
        .unwrap();
    assert!(prompt.len() >= 10);

    let mut seq = r.new_sequence();
    let mut stds = Vec::new();
    let mut margins = Vec::new();
    for &t in &prompt {
        let (logits, trace) = seq.forward_traced(&r, &[t]).unwrap();
        if seq.len() == prompt.len() {
            eprintln!(
                "last token: hidden RMS {:.3?}, attention score std {:.3?}",
                trace.hidden_rms, trace.attn_score_std
            );
        }
        stds.push(std_dev(&logits));
        margins.push(top2_margin(&logits));
        // Residual RMS changes by a bounded factor per layer.
        for w in trace.hidden_rms.windows(2) {
            let ratio = w[1] / w[0];
            assert!(
                (0.7..2.0).contains(&ratio),
                "hidden RMS ratio {ratio} in {:?}",
                trace.hidden_rms
            );
        }
        if seq.len() > 4 {
            for s in &trace.attn_score_std {
                assert!((0.5..6.0).contains(s), "attention score std {s}");
            }
        }
    }
    let min_std = stds.iter().cloned().fold(f64::INFINITY, f64::min);
    let mut sorted = margins.clone();
    sorted.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median_margin = sorted[sorted.len() / 2];
    eprintln!(
        "logit std min {min_std:.3}, mean {:.3}; top-1 margin median {median_margin:.3}, min {:.4}",
        stds.iter().sum::<f64>() / stds.len() as f64,
        sorted[0]
    );
    assert!(min_std >= 1.0, "logit std {min_std}");
    assert!(median_margin > 0.1, "median top-1 margin {median_margin}");

    // Greedy generation does not collapse to one token immediately, and
    // different prompts lead to different continuations.
    let a = r.greedy(&prompt, 12).unwrap();
    let b = r
        .greedy(&tok.encode("Hello there", true).unwrap(), 12)
        .unwrap();
    assert_ne!(a, b);
    let distinct: std::collections::BTreeSet<_> = a.iter().collect();
    assert!(distinct.len() >= 2, "{a:?}");
    assert_eq!(a[0], argmax(&r.logits(&prompt).unwrap()));
}

#[test]
fn synth_writes_the_preset() {
    let dir = tempfile::tempdir().unwrap();
    synth(Preset::Tiny, DType::F16, dir.path()).unwrap();
    let cfg = ModelConfig::from_dir(dir.path()).unwrap();
    assert_eq!(Weights::open(dir.path(), &cfg).unwrap().dtype(), DType::F16);
}
