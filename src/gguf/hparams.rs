//! A [`ModelConfig`] from a GGUF file's `llama.*` metadata, tokenizer ids and
//! tensor shapes: the same config the Hugging Face path builds from
//! config.json, so everything downstream is shared.

use crate::config::{Llama3RopeScaling, ModelConfig};
use crate::types::TokenId;

use super::reader::{GgufFile, MetaValue};
use super::{GgufError, names};

/// Builds and validates the config of a `llama` GGUF file.
pub fn model_config(file: &GgufFile) -> Result<ModelConfig, GgufError> {
    let arch = file
        .get("general.architecture")
        .and_then(MetaValue::as_str)
        .ok_or_else(|| missing(file, "general.architecture"))?;
    if arch != "llama" {
        return Err(GgufError::Architecture {
            path: file.path().to_path_buf(),
            arch: arch.to_string(),
        });
    }
    let int = |key: &str| -> Result<Option<usize>, GgufError> {
        match file.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_u64()
                .map(|n| Some(n as usize))
                .ok_or_else(|| wrong(file, key, "an unsigned integer", v)),
        }
    };
    let req = |key: &str| int(key)?.ok_or_else(|| missing(file, key));
    let float = |key: &str| -> Result<Option<f64>, GgufError> {
        match file.get(key) {
            None => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| wrong(file, key, "a number", v)),
        }
    };

    let hidden_size = req("llama.embedding_length")?;
    let num_attention_heads = req("llama.attention.head_count")?;
    let num_key_value_heads = int("llama.attention.head_count_kv")?.unwrap_or(num_attention_heads);
    let head_dim = match int("llama.attention.key_length")? {
        Some(d) => d,
        None if num_attention_heads > 0 => hidden_size / num_attention_heads,
        None => 0,
    };
    if let Some(v) = int("llama.attention.value_length")?
        && v != head_dim
    {
        return Err(unsupported(
            "llama.attention.value_length",
            v,
            format!("differs from the key length {head_dim}; Llama attention needs them equal"),
        ));
    }
    if let Some(rot) = int("llama.rope.dimension_count")?
        && rot != head_dim
    {
        return Err(unsupported(
            "llama.rope.dimension_count",
            rot,
            format!("partial rotary embeddings are not implemented (head_dim is {head_dim})"),
        ));
    }
    if file
        .get("llama.expert_count")
        .and_then(MetaValue::as_u64)
        .unwrap_or(0)
        > 0
    {
        return Err(unsupported(
            "llama.expert_count",
            file.get("llama.expert_count")
                .and_then(MetaValue::as_u64)
                .unwrap_or(0),
            "mixture-of-experts Llama models are not implemented",
        ));
    }

    // The embedding's shape is authoritative for the vocabulary; the
    // metadata key is optional in older files.
    let embd = file
        .tensor_info("token_embd.weight")
        .ok_or_else(|| GgufError::MissingTensor {
            path: file.path().to_path_buf(),
            name: "token_embd.weight".into(),
        })?;
    let vocab_size = embd.dims.get(1).copied().unwrap_or(0) as usize;

    let (rope_theta, rope_scaling) = rope(file, head_dim, float("llama.rope.freq_base")?)?;

    let token = |key: &str| -> Result<Option<TokenId>, GgufError> {
        Ok(int(key)?.map(|id| TokenId(id as u32)))
    };
    let mut eos_token_ids = Vec::new();
    for key in [
        "tokenizer.ggml.eos_token_id",
        "tokenizer.ggml.eom_token_id",
        "tokenizer.ggml.eot_token_id",
    ] {
        if let Some(id) = token(key)?
            && !eos_token_ids.contains(&id)
        {
            eos_token_ids.push(id);
        }
    }

    let cfg = ModelConfig {
        vocab_size,
        hidden_size,
        intermediate_size: req("llama.feed_forward_length")?,
        num_hidden_layers: req("llama.block_count")?,
        num_attention_heads,
        num_key_value_heads,
        head_dim,
        rms_norm_eps: float("llama.attention.layer_norm_rms_epsilon")?.unwrap_or(1e-5),
        rope_theta,
        rope_scaling,
        max_position_embeddings: int("llama.context_length")?.unwrap_or(2048),
        tie_word_embeddings: file.tensor_info("output.weight").is_none(),
        bos_token_id: token("tokenizer.ggml.bos_token_id")?,
        eos_token_ids,
    };
    cfg.validate().map_err(GgufError::Config)?;
    check_tensors(file, &cfg)?;
    Ok(cfg)
}

/// Every tensor the config implies exists with the right shape.
fn check_tensors(file: &GgufFile, cfg: &ModelConfig) -> Result<(), GgufError> {
    for (hf, shape) in crate::checkpoint::tensors(cfg) {
        let name = names::gguf_name(&hf).expect("every Llama tensor has a GGUF name");
        let info = file
            .tensor_info(&name)
            .ok_or_else(|| GgufError::MissingTensor {
                path: file.path().to_path_buf(),
                name: name.clone(),
            })?;
        if info.shape() != shape {
            return Err(GgufError::Shape {
                name,
                expected: shape,
                found: info.shape(),
            });
        }
    }
    Ok(())
}

/// Rope base and scaling. llama.cpp describes linear/YaRN scaling in
/// `llama.rope.scaling.*`; Llama 3.1's frequency scaling is instead baked into a
/// `rope_freqs.weight` tensor of per-frequency divisors, which is accepted when it
/// equals the llama3 rule for some factor (the published low/high factors 1 and 4).
fn rope(
    file: &GgufFile,
    head_dim: usize,
    freq_base: Option<f64>,
) -> Result<(f64, Option<Llama3RopeScaling>), GgufError> {
    let theta = freq_base.unwrap_or(10000.0);
    let kind = file
        .get("llama.rope.scaling.type")
        .and_then(MetaValue::as_str);
    match kind {
        None | Some("none") => {}
        Some(other) => {
            let factor = file
                .get("llama.rope.scaling.factor")
                .and_then(MetaValue::as_f64);
            // A factor of 1 (or none) is no scaling whatever the type says.
            if factor.is_some_and(|f| f != 1.0) {
                return Err(unsupported(
                    "llama.rope.scaling.type",
                    other,
                    "only unscaled RoPE and Llama 3.1 style frequency scaling (rope_freqs) are \
                     implemented",
                ));
            }
        }
    }
    let Some(info) = file.tensor_info("rope_freqs.weight") else {
        return Ok((theta, None));
    };
    let found = file.tensor_f32(&info.name.clone())?;
    if found.len() != head_dim / 2 {
        return Err(GgufError::Shape {
            name: "rope_freqs.weight".into(),
            expected: vec![head_dim / 2],
            found: info.shape(),
        });
    }
    let factor = found.iter().copied().fold(1.0f32, f32::max) as f64;
    if factor == 1.0 {
        return Ok((theta, None));
    }
    let original = file
        .get("llama.rope.scaling.original_context_length")
        .and_then(MetaValue::as_u64)
        .map(|n| n as usize)
        .unwrap_or(8192);
    let scaling = Llama3RopeScaling {
        factor,
        low_freq_factor: 1.0,
        high_freq_factor: 4.0,
        original_max_position_embeddings: original,
    };
    // Compare the divisors that scaling implies with the file's.
    let probe = ModelConfig {
        vocab_size: 1,
        hidden_size: head_dim,
        intermediate_size: 1,
        num_hidden_layers: 1,
        num_attention_heads: 1,
        num_key_value_heads: 1,
        head_dim,
        rms_norm_eps: 1e-5,
        rope_theta: theta,
        rope_scaling: None,
        max_position_embeddings: original,
        tie_word_embeddings: true,
        bos_token_id: None,
        eos_token_ids: vec![],
    };
    let base = probe.rope_inv_freq();
    let scaled = ModelConfig {
        rope_scaling: Some(scaling),
        ..probe
    }
    .rope_inv_freq();
    let matches = base
        .iter()
        .zip(&scaled)
        .zip(&found)
        .all(|((b, s), &f)| ((b / s) - f as f64).abs() <= 1e-3 * f as f64);
    if !matches {
        return Err(unsupported(
            "rope_freqs.weight",
            format!("max divisor {factor}"),
            "these per-frequency RoPE divisors do not follow Llama 3.1's rule (low/high \
             frequency factors 1 and 4); other schemes are not implemented",
        ));
    }
    Ok((theta, Some(scaling)))
}

fn missing(file: &GgufFile, key: &str) -> GgufError {
    GgufError::MissingKey {
        path: file.path().to_path_buf(),
        key: key.to_string(),
    }
}

fn wrong(file: &GgufFile, key: &str, expected: &str, found: &MetaValue) -> GgufError {
    GgufError::WrongType {
        path: file.path().to_path_buf(),
        key: key.to_string(),
        expected: expected.to_string(),
        found: format!("{found:?}"),
    }
}

fn unsupported(key: &str, value: impl std::fmt::Display, hint: impl Into<String>) -> GgufError {
    GgufError::Unsupported {
        key: key.to_string(),
        value: value.to_string(),
        hint: hint.into(),
    }
}
