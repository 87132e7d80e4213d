//! The f64 reference forward pass: its pieces against hand-computed values,
//! KV-cache consistency, and grouped-query attention semantics.

use iree_llm::TokenId;
use iree_llm::config::ModelConfig;
use iree_llm::preset::{Preset, synth_config};
use iree_llm::reference::{Reference, apply_rope, argmax, inv_freq, rms_norm, silu};
use iree_llm::weights::{DType, Weights};

use crate::common::{RawTensor, read_safetensors, tiny_dir, write_safetensors};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn rms_norm_matches_a_hand_computation() {
    // x = [1, 2, 3, 4]: mean square = 30/4 = 7.5; eps 0.5 -> 1/sqrt(8) each.
    let out = rms_norm(&[1.0, 2.0, 3.0, 4.0], &[1.0, 0.5, 2.0, -1.0], 0.5);
    let s = 1.0 / 8f64.sqrt();
    let want = [1.0 * s, 2.0 * 0.5 * s, 3.0 * 2.0 * s, -4.0 * s];
    for (o, w) in out.iter().zip(want) {
        assert!(close(*o, w, 1e-15), "{out:?}");
    }
}

#[test]
fn rope_rotates_half_pairs_as_transformers_does() {
    // head_dim 4: pairs are (x0, x2) and (x1, x3), not (x0, x1).
    let freqs = [1.0, 0.01];
    let mut x = [1.0, 2.0, 3.0, 4.0];
    apply_rope(&mut x, 3, &freqs);
    let (c0, s0) = (3f64.cos(), 3f64.sin());
    let (c1, s1) = (0.03f64.cos(), 0.03f64.sin());
    let want = [
        1.0 * c0 - 3.0 * s0,
        2.0 * c1 - 4.0 * s1,
        3.0 * c0 + 1.0 * s0,
        4.0 * c1 + 2.0 * s1,
    ];
    for (o, w) in x.iter().zip(want) {
        assert!(close(*o, w, 1e-15), "{x:?} vs {want:?}");
    }
    // Position 0 is the identity.
    let mut y = [1.0, 2.0, 3.0, 4.0];
    apply_rope(&mut y, 0, &freqs);
    assert_eq!(y, [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn inverse_frequencies_match_hand_values_and_the_config() {
    // head_dim 4, theta 100: [1, 100^-0.5] = [1, 0.1].
    let mut cfg = Preset::Tiny.config();
    cfg.head_dim = 4;
    cfg.rope_theta = 100.0;
    cfg.rope_scaling = None;
    let f = inv_freq(&cfg);
    assert!(close(f[0], 1.0, 1e-15) && close(f[1], 0.1, 1e-15), "{f:?}");

    // llama3 scaling, original context 64, low 1, high 4, factor 8 on
    // head_dim 16, theta 1e4: wavelengths 2*pi*10^(i/2).
    let cfg = Preset::Tiny.config();
    let f = inv_freq(&cfg);
    let raw = |i: i32| 10f64.powf(-(i as f64) / 2.0);
    assert!(close(f[0], raw(0), 1e-15), "wavelength 6.3 < 16: kept");
    // i = 1: wavelength 19.87 is between 16 and 64: smooth = (64/19.87 - 1)/3.
    let wl = std::f64::consts::TAU / raw(1);
    let smooth = (64.0 / wl - 1.0) / 3.0;
    assert!(close(
        f[1],
        (1.0 - smooth) * raw(1) / 8.0 + smooth * raw(1),
        1e-14
    ));
    for i in 3..8 {
        assert!(
            close(f[i as usize], raw(i) / 8.0, 1e-14),
            "i={i}: wavelength > 64: divided"
        );
    }
    // The reference's own computation agrees with the config's (used by the emitter).
    for name in [
        "llama-3.1-8b-instruct.json",
        "llama-3.2-1b.json",
        "tinyllama-1.1b-chat.json",
    ] {
        let c = crate::common::fixture_config(name);
        for (a, b) in inv_freq(&c).iter().zip(c.rope_inv_freq()) {
            assert!(close(*a, b, 1e-14), "{name}: {a} vs {b}");
        }
    }
}

#[test]
fn silu_and_argmax_basics() {
    assert_eq!(silu(0.0), 0.0);
    assert!(close(silu(1.0), 1.0 / (1.0 + (-1f64).exp()), 1e-16));
    assert!(close(silu(-2.0), -2.0 / (1.0 + 2f64.exp()), 1e-16));
    assert_eq!(
        argmax(&[1.0, 3.0, 3.0, -1.0]),
        TokenId(1),
        "lowest id wins ties"
    );
}

fn tiny_reference(dtype: DType) -> (tempfile::TempDir, Reference) {
    let dir = tiny_dir(dtype);
    let cfg = ModelConfig::from_dir(dir.path()).unwrap();
    let r = Reference::new(&cfg, &Weights::open(dir.path(), &cfg).unwrap()).unwrap();
    (dir, r)
}

#[test]
fn prefill_equals_feeding_tokens_one_at_a_time() {
    let (_dir, r) = tiny_reference(DType::F32);
    let prompt: Vec<TokenId> = [501, 17, 300, 42, 42, 499, 0, 255, 260, 100, 7, 8]
        .map(TokenId)
        .to_vec();

    let mut whole = r.new_sequence();
    let a = whole.forward(&r, &prompt).unwrap();
    let mut single = r.new_sequence();
    let mut b = Vec::new();
    for &t in &prompt {
        b = single.forward(&r, &[t]).unwrap();
    }
    let mut chunked = r.new_sequence();
    chunked.forward(&r, &prompt[..5]).unwrap();
    let c = chunked.forward(&r, &prompt[5..]).unwrap();
    assert_eq!(whole.len(), prompt.len());
    for i in 0..a.len() {
        assert!(
            close(a[i], b[i], 1e-12) && close(a[i], c[i], 1e-12),
            "logit {i}: {} {} {}",
            a[i],
            b[i],
            c[i]
        );
    }
    // Continuing after a prefill equals a fresh prefill of the longer prompt.
    let next = whole.forward(&r, &[TokenId(3)]).unwrap();
    let mut longer = prompt.clone();
    longer.push(TokenId(3));
    let fresh = r.logits(&longer).unwrap();
    for i in 0..next.len() {
        assert!(close(next[i], fresh[i], 1e-12));
    }
    // Greedy is argmax after each step.
    let g = r.greedy(&prompt, 3).unwrap();
    assert_eq!(g[0], argmax(&a));
}

#[test]
fn position_matters_and_causality_holds() {
    let (_dir, r) = tiny_reference(DType::F32);
    // The logits of a prefix are unaffected by what follows it.
    let mut s = r.new_sequence();
    let first = s.forward(&r, &[TokenId(501), TokenId(9)]).unwrap();
    let again = r.logits(&[TokenId(501), TokenId(9)]).unwrap();
    assert_eq!(first, again);
    // Swapping two earlier tokens changes the result (attention is positional).
    let x = r
        .logits(&[TokenId(501), TokenId(30), TokenId(40), TokenId(9)])
        .unwrap();
    let y = r
        .logits(&[TokenId(501), TokenId(40), TokenId(30), TokenId(9)])
        .unwrap();
    let diff = x
        .iter()
        .zip(&y)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    assert!(diff > 1e-3, "{diff}");
}

#[test]
fn errors_name_the_problem() {
    let (_dir, r) = tiny_reference(DType::F32);
    let e = r.logits(&[TokenId(512)]).unwrap_err().to_string();
    assert!(e.contains("512") && e.contains("vocab"), "{e}");
    assert!(r.logits(&[]).is_err());
}

#[test]
fn bf16_weights_are_used_exactly() {
    // A bf16 model and the f32 model made from its exact values give
    // identical logits: conversion loses nothing.
    let dir16 = tiny_dir(DType::BF16);
    let dir32 = tempfile::tempdir().unwrap();
    for f in ["config.json", "generation_config.json"] {
        std::fs::copy(dir16.path().join(f), dir32.path().join(f)).unwrap();
    }
    let tensors: Vec<RawTensor> = read_safetensors(&dir16.path().join("model.safetensors"))
        .into_iter()
        .map(|t| RawTensor {
            data: t
                .data
                .chunks_exact(2)
                .flat_map(|c| {
                    half::bf16::from_le_bytes([c[0], c[1]])
                        .to_f32()
                        .to_le_bytes()
                })
                .collect(),
            dtype: safetensors::Dtype::F32,
            ..t
        })
        .collect();
    write_safetensors(&dir32.path().join("model.safetensors"), &tensors);
    let cfg = ModelConfig::from_dir(dir16.path()).unwrap();
    let r16 = Reference::new(&cfg, &Weights::open(dir16.path(), &cfg).unwrap()).unwrap();
    let r32 = Reference::new(&cfg, &Weights::open(dir32.path(), &cfg).unwrap()).unwrap();
    let p = [TokenId(501), TokenId(77), TokenId(78)];
    assert_eq!(r16.logits(&p).unwrap(), r32.logits(&p).unwrap());
}

/// A GQA model equals the multi-head model whose K/V projections repeat each
/// KV head for its group of query heads (`repeat_kv`: query head h reads KV
/// head h / group, as in transformers).
#[test]
fn grouped_query_attention_repeats_kv_heads_per_group() {
    let gqa = Preset::Tiny.config(); // 4 query heads, 2 KV heads
    let mha = ModelConfig {
        num_key_value_heads: 4,
        ..gqa.clone()
    };
    let gdir = tempfile::tempdir().unwrap();
    synth_config(&gqa, 9, DType::F32, gdir.path()).unwrap();
    let mdir = tempfile::tempdir().unwrap();
    synth_config(&mha, 9, DType::F32, mdir.path()).unwrap();
    let d = gqa.head_dim;
    let row_bytes = gqa.hidden_size * 4;
    let tensors: Vec<RawTensor> = read_safetensors(&gdir.path().join("model.safetensors"))
        .into_iter()
        .map(|t| {
            if t.name.ends_with("k_proj.weight") || t.name.ends_with("v_proj.weight") {
                let mut data = Vec::new();
                for h in 0..4 {
                    let kv = h / 2;
                    data.extend_from_slice(&t.data[kv * d * row_bytes..(kv + 1) * d * row_bytes]);
                }
                RawTensor {
                    shape: vec![4 * d, gqa.hidden_size],
                    data,
                    ..t
                }
            } else {
                t
            }
        })
        .collect();
    write_safetensors(&mdir.path().join("model.safetensors"), &tensors);
    let rg = Reference::new(&gqa, &Weights::open(gdir.path(), &gqa).unwrap()).unwrap();
    let rm = Reference::new(&mha, &Weights::open(mdir.path(), &mha).unwrap()).unwrap();
    let p: Vec<TokenId> = [501, 5, 6, 7, 300, 301].map(TokenId).to_vec();
    let (a, b) = (rg.logits(&p).unwrap(), rm.logits(&p).unwrap());
    for i in 0..a.len() {
        assert!(close(a[i], b[i], 1e-12), "logit {i}: {} vs {}", a[i], b[i]);
    }
}
