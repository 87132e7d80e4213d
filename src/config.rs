//! Model hyper-parameters: parsing and validating a Hugging Face Llama-family
//! `config.json` (plus `generation_config.json`) into a [`ModelConfig`], the
//! RoPE inverse frequencies the graphs need, and writing a config back out in
//! Hugging Face form for synthesized models.
//!
//! Both spellings of the RoPE settings are accepted: the older top-level
//! `rope_theta` / `rope_scaling`, and the `rope_parameters` object written by
//! recent transformers releases. Anything this project cannot run faithfully
//! (biases, other activations, unknown RoPE types, quantized checkpoints,
//! non-Llama architectures) is rejected with an error naming the field.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::types::TokenId;

/// The Llama 3.1 style RoPE frequency scaling (`rope_type: "llama3"`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Llama3RopeScaling {
    pub factor: f64,
    pub low_freq_factor: f64,
    pub high_freq_factor: f64,
    pub original_max_position_embeddings: usize,
}

/// Validated hyper-parameters of a Llama-family decoder.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelConfig {
    pub vocab_size: usize,
    pub hidden_size: usize,
    pub intermediate_size: usize,
    pub num_hidden_layers: usize,
    pub num_attention_heads: usize,
    pub num_key_value_heads: usize,
    /// Per-head dimension: `head_dim` from the config, else hidden / heads.
    pub head_dim: usize,
    pub rms_norm_eps: f64,
    pub rope_theta: f64,
    pub rope_scaling: Option<Llama3RopeScaling>,
    pub max_position_embeddings: usize,
    pub tie_word_embeddings: bool,
    pub bos_token_id: Option<TokenId>,
    /// Every id that ends generation: the config's and generation_config's merged, in order, without duplicates.
    pub eos_token_ids: Vec<TokenId>,
}

/// Why a model configuration could not be read or is not supported.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "cannot read {path}: {source}; point --model at a Hugging Face model directory that contains config.json"
    )]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not valid JSON: {source}")]
    Json {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("config.json is missing the required field `{field}`")]
    Missing { field: String },
    #[error("config.json field `{field}` is invalid: {reason}")]
    Invalid { field: String, reason: String },
    #[error("config.json field `{field}` = {value} is not supported: {hint}")]
    Unsupported {
        field: String,
        value: String,
        hint: String,
    },
    #[error(transparent)]
    Gguf(Box<crate::gguf::GgufError>),
}

impl ConfigError {
    fn invalid(field: &str, reason: impl Into<String>) -> Self {
        ConfigError::Invalid {
            field: field.to_string(),
            reason: reason.into(),
        }
    }
    fn unsupported(field: &str, value: &Value, hint: impl Into<String>) -> Self {
        ConfigError::Unsupported {
            field: field.to_string(),
            value: value.to_string(),
            hint: hint.into(),
        }
    }
}

/// Architectures whose checkpoints have the Llama layout and semantics.
const SUPPORTED_ARCHITECTURES: &[&str] = &["LlamaForCausalLM"];

impl ModelConfig {
    /// Reads `dir/config.json` and, when present, `dir/generation_config.json`
    /// (whose `eos_token_id` ids are merged in, and whose `bos_token_id` is
    /// used when config.json has none).
    ///
    /// A `.gguf` file in place of `dir` gives the config its metadata describes
    /// (see [`crate::gguf::model_config`]), so every `--model` path takes GGUF.
    pub fn from_dir(dir: &Path) -> Result<Self, ConfigError> {
        if crate::gguf::is_gguf_path(dir) && dir.is_file() {
            let gguf = |e| ConfigError::Gguf(Box::new(e));
            let file = crate::gguf::GgufFile::open(dir).map_err(gguf)?;
            return crate::gguf::model_config(&file).map_err(gguf);
        }
        let path = dir.join("config.json");
        let text = read_text(&path)?;
        let value: Value =
            serde_json::from_str(&text).map_err(|source| ConfigError::Json { path, source })?;
        let mut cfg = Self::from_json_value(&value)?;

        let gen_path = dir.join("generation_config.json");
        if gen_path.exists() {
            let text = read_text(&gen_path)?;
            let generation: Value =
                serde_json::from_str(&text).map_err(|source| ConfigError::Json {
                    path: gen_path.clone(),
                    source,
                })?;
            cfg.merge_generation_config(&generation)?;
        }
        Ok(cfg)
    }

    /// Parses the text of a `config.json`.
    pub fn from_json_str(s: &str) -> Result<Self, ConfigError> {
        let value: Value = serde_json::from_str(s).map_err(|source| ConfigError::Json {
            path: PathBuf::from("config.json"),
            source,
        })?;
        Self::from_json_value(&value)
    }

    /// Parses an already-decoded `config.json`.
    pub fn from_json_value(v: &Value) -> Result<Self, ConfigError> {
        let obj = v
            .as_object()
            .ok_or_else(|| ConfigError::invalid("(top level)", "expected a JSON object"))?;
        check_architecture(obj)?;
        check_unsupported_features(obj)?;

        let vocab_size = req_usize(obj, "vocab_size")?;
        let hidden_size = req_usize(obj, "hidden_size")?;
        let intermediate_size = req_usize(obj, "intermediate_size")?;
        let num_hidden_layers = req_usize(obj, "num_hidden_layers")?;
        let num_attention_heads = req_usize(obj, "num_attention_heads")?;
        let num_key_value_heads =
            opt_usize(obj, "num_key_value_heads")?.unwrap_or(num_attention_heads);
        let head_dim = match opt_usize(obj, "head_dim")? {
            Some(d) => d,
            None => {
                if hidden_size % num_attention_heads != 0 {
                    return Err(ConfigError::invalid(
                        "head_dim",
                        format!(
                            "absent, and hidden_size {hidden_size} is not divisible by \
                             num_attention_heads {num_attention_heads}; add an explicit head_dim"
                        ),
                    ));
                }
                hidden_size / num_attention_heads
            }
        };
        let rms_norm_eps = opt_f64(obj, "rms_norm_eps")?.unwrap_or(1e-6);
        let max_position_embeddings = opt_usize(obj, "max_position_embeddings")?.unwrap_or(2048);
        let tie_word_embeddings = opt_bool(obj, "tie_word_embeddings")?.unwrap_or(false);
        let bos_token_id = opt_token_ids(obj, "bos_token_id")?.and_then(|ids| ids.first().copied());
        let eos_token_ids = opt_token_ids(obj, "eos_token_id")?.unwrap_or_default();
        let (rope_theta, rope_scaling) = parse_rope(obj)?;

        let cfg = ModelConfig {
            vocab_size,
            hidden_size,
            intermediate_size,
            num_hidden_layers,
            num_attention_heads,
            num_key_value_heads,
            head_dim,
            rms_norm_eps,
            rope_theta,
            rope_scaling,
            max_position_embeddings,
            tie_word_embeddings,
            bos_token_id,
            eos_token_ids: dedup(eos_token_ids),
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// Merges a decoded `generation_config.json`: its EOS ids are appended
    /// (without duplicates) and its BOS id fills a missing one.
    pub fn merge_generation_config(&mut self, generation: &Value) -> Result<(), ConfigError> {
        let Some(obj) = generation.as_object() else {
            return Err(ConfigError::invalid(
                "generation_config.json",
                "expected a JSON object",
            ));
        };
        let in_gen = |e: ConfigError| match e {
            ConfigError::Invalid { field, reason } => ConfigError::Invalid {
                field: format!("generation_config.json: {field}"),
                reason,
            },
            other => other,
        };
        if let Some(ids) = opt_token_ids(obj, "eos_token_id").map_err(in_gen)? {
            let mut all = std::mem::take(&mut self.eos_token_ids);
            all.extend(ids);
            self.eos_token_ids = dedup(all);
        }
        if self.bos_token_id.is_none() {
            self.bos_token_id = opt_token_ids(obj, "bos_token_id")
                .map_err(in_gen)?
                .and_then(|ids| ids.first().copied());
        }
        self.validate()
    }

    /// Checks the relations between fields that every consumer relies on.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for (field, v) in [
            ("vocab_size", self.vocab_size),
            ("hidden_size", self.hidden_size),
            ("intermediate_size", self.intermediate_size),
            ("num_hidden_layers", self.num_hidden_layers),
            ("num_attention_heads", self.num_attention_heads),
            ("num_key_value_heads", self.num_key_value_heads),
            ("head_dim", self.head_dim),
            ("max_position_embeddings", self.max_position_embeddings),
        ] {
            if v == 0 {
                return Err(ConfigError::invalid(field, "must be greater than 0"));
            }
        }
        if !self
            .num_attention_heads
            .is_multiple_of(self.num_key_value_heads)
        {
            return Err(ConfigError::invalid(
                "num_key_value_heads",
                format!(
                    "{} does not divide num_attention_heads {}",
                    self.num_key_value_heads, self.num_attention_heads
                ),
            ));
        }
        if !self.head_dim.is_multiple_of(2) {
            return Err(ConfigError::invalid(
                "head_dim",
                format!(
                    "{} is odd; rotary embeddings need an even head_dim",
                    self.head_dim
                ),
            ));
        }
        if !(self.rms_norm_eps.is_finite() && self.rms_norm_eps > 0.0) {
            return Err(ConfigError::invalid(
                "rms_norm_eps",
                format!("{} must be a positive number", self.rms_norm_eps),
            ));
        }
        if !(self.rope_theta.is_finite() && self.rope_theta > 1.0) {
            return Err(ConfigError::invalid(
                "rope_theta",
                format!("{} must be a number greater than 1", self.rope_theta),
            ));
        }
        if let Some(s) = &self.rope_scaling {
            if !(s.factor.is_finite() && s.factor >= 1.0) {
                return Err(ConfigError::invalid(
                    "rope_scaling.factor",
                    format!("{} must be >= 1", s.factor),
                ));
            }
            if !(s.low_freq_factor > 0.0 && s.high_freq_factor > s.low_freq_factor) {
                return Err(ConfigError::invalid(
                    "rope_scaling.high_freq_factor",
                    format!(
                        "need 0 < low_freq_factor ({}) < high_freq_factor ({})",
                        s.low_freq_factor, s.high_freq_factor
                    ),
                ));
            }
            if s.original_max_position_embeddings == 0 {
                return Err(ConfigError::invalid(
                    "rope_scaling.original_max_position_embeddings",
                    "must be greater than 0",
                ));
            }
        }
        let vocab = self.vocab_size;
        if let Some(b) = self.bos_token_id
            && b.index() >= vocab
        {
            return Err(ConfigError::invalid(
                "bos_token_id",
                format!("{b} is outside the vocabulary (vocab_size {vocab})"),
            ));
        }
        if let Some(e) = self.eos_token_ids.iter().find(|e| e.index() >= vocab) {
            return Err(ConfigError::invalid(
                "eos_token_id",
                format!("{e} is outside the vocabulary (vocab_size {vocab})"),
            ));
        }
        Ok(())
    }

    /// Query heads per key/value head (the GQA group size).
    pub fn num_queries_per_kv(&self) -> usize {
        self.num_attention_heads / self.num_key_value_heads
    }

    /// Number of parameters (counting a tied embedding once).
    pub fn num_parameters(&self) -> usize {
        let (h, i, d) = (self.hidden_size, self.intermediate_size, self.head_dim);
        let q = self.num_attention_heads * d;
        let kv = self.num_key_value_heads * d;
        let per_layer = 2 * h + h * q + 2 * h * kv + q * h + 3 * h * i;
        let head = if self.tie_word_embeddings {
            0
        } else {
            self.vocab_size * h
        };
        self.vocab_size * h + self.num_hidden_layers * per_layer + h + head
    }

    /// RoPE tables for positions `0..capacity`, `[capacity, head_dim / 2]`
    /// each: `cos(p * inv_freq[i])` and `sin(...)`, computed in f64 and
    /// rounded once to f32.
    pub fn rope_tables(&self, capacity: usize) -> (Vec<f32>, Vec<f32>) {
        let inv_freq = self.rope_inv_freq();
        let mut cos = Vec::with_capacity(capacity * inv_freq.len());
        let mut sin = Vec::with_capacity(capacity * inv_freq.len());
        for p in 0..capacity {
            for f in &inv_freq {
                let angle = p as f64 * f;
                cos.push(angle.cos() as f32);
                sin.push(angle.sin() as f32);
            }
        }
        (cos, sin)
    }

    /// RoPE inverse frequencies, `head_dim / 2` entries, with the llama3
    /// frequency scaling applied when configured (as transformers'
    /// `_compute_llama3_parameters`, in f64).
    pub fn rope_inv_freq(&self) -> Vec<f64> {
        let d = self.head_dim as f64;
        let base: Vec<f64> = (0..self.head_dim / 2)
            .map(|i| 1.0 / self.rope_theta.powf((2 * i) as f64 / d))
            .collect();
        let Some(s) = self.rope_scaling else {
            return base;
        };
        let old_ctx = s.original_max_position_embeddings as f64;
        let low_freq_wavelen = old_ctx / s.low_freq_factor;
        let high_freq_wavelen = old_ctx / s.high_freq_factor;
        base.into_iter()
            .map(|f| {
                let wavelen = 2.0 * std::f64::consts::PI / f;
                if wavelen < high_freq_wavelen {
                    f
                } else if wavelen > low_freq_wavelen {
                    f / s.factor
                } else {
                    let smooth = (old_ctx / wavelen - s.low_freq_factor)
                        / (s.high_freq_factor - s.low_freq_factor);
                    (1.0 - smooth) * f / s.factor + smooth * f
                }
            })
            .collect()
    }

    /// The config in Hugging Face `config.json` form (older, widely readable
    /// `rope_theta` / `rope_scaling` spelling). `from_json_value` of the result
    /// gives back an equal config.
    pub fn to_hf_json(&self) -> Value {
        let rope_scaling = match &self.rope_scaling {
            None => Value::Null,
            Some(s) => json!({
                "rope_type": "llama3",
                "factor": s.factor,
                "low_freq_factor": s.low_freq_factor,
                "high_freq_factor": s.high_freq_factor,
                "original_max_position_embeddings": s.original_max_position_embeddings,
            }),
        };
        let eos = match self.eos_token_ids.as_slice() {
            [] => Value::Null,
            [one] => json!(one.0),
            many => json!(many.iter().map(|t| t.0).collect::<Vec<_>>()),
        };
        json!({
            "architectures": ["LlamaForCausalLM"],
            "model_type": "llama",
            "attention_bias": false,
            "attention_dropout": 0.0,
            "mlp_bias": false,
            "hidden_act": "silu",
            "initializer_range": 0.02,
            "pretraining_tp": 1,
            "use_cache": true,
            "vocab_size": self.vocab_size,
            "hidden_size": self.hidden_size,
            "intermediate_size": self.intermediate_size,
            "num_hidden_layers": self.num_hidden_layers,
            "num_attention_heads": self.num_attention_heads,
            "num_key_value_heads": self.num_key_value_heads,
            "head_dim": self.head_dim,
            "rms_norm_eps": self.rms_norm_eps,
            "rope_theta": self.rope_theta,
            "rope_scaling": rope_scaling,
            "max_position_embeddings": self.max_position_embeddings,
            "tie_word_embeddings": self.tie_word_embeddings,
            "bos_token_id": self.bos_token_id.map(|t| t.0),
            "eos_token_id": eos,
        })
    }
}

fn read_text(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn dedup(ids: Vec<TokenId>) -> Vec<TokenId> {
    let mut out: Vec<TokenId> = Vec::with_capacity(ids.len());
    for id in ids {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

fn check_architecture(obj: &Map<String, Value>) -> Result<(), ConfigError> {
    match obj.get("architectures") {
        Some(Value::Array(archs)) if !archs.is_empty() => {
            let ok = archs.iter().any(|a| {
                a.as_str()
                    .is_some_and(|s| SUPPORTED_ARCHITECTURES.contains(&s))
            });
            if !ok {
                return Err(ConfigError::unsupported(
                    "architectures",
                    &Value::Array(archs.clone()),
                    "only LlamaForCausalLM (Llama 2/3/3.1/3.2, TinyLlama, SmolLM and other \
                     Llama-architecture models) can be served",
                ));
            }
            Ok(())
        }
        Some(Value::Array(_)) | Some(Value::Null) | None => match obj.get("model_type") {
            Some(Value::String(t)) if t == "llama" => Ok(()),
            Some(other) => Err(ConfigError::unsupported(
                "model_type",
                other,
                "only Llama-architecture models (model_type \"llama\") can be served",
            )),
            None => Err(ConfigError::Missing {
                field: "architectures (or model_type)".into(),
            }),
        },
        Some(other) => Err(ConfigError::invalid(
            "architectures",
            format!("expected a list of class names, found {other}"),
        )),
    }
}

fn check_unsupported_features(obj: &Map<String, Value>) -> Result<(), ConfigError> {
    for field in ["attention_bias", "mlp_bias"] {
        if let Some(v) = obj.get(field)
            && v.as_bool() == Some(true)
        {
            return Err(ConfigError::unsupported(
                field,
                v,
                "biases in the attention/MLP projections are not implemented; only \
                 bias-free Llama checkpoints are supported",
            ));
        }
    }
    if let Some(v) = obj.get("hidden_act")
        && v.as_str() != Some("silu")
    {
        return Err(ConfigError::unsupported(
            "hidden_act",
            v,
            "only the SiLU-gated MLP (\"silu\") of Llama is implemented",
        ));
    }
    if let Some(v) = obj.get("quantization_config")
        && !v.is_null()
    {
        return Err(ConfigError::unsupported(
            "quantization_config",
            &json!("{...}"),
            "quantized checkpoints are not supported; use an f32, f16 or bf16 checkpoint",
        ));
    }
    Ok(())
}

fn parse_rope(obj: &Map<String, Value>) -> Result<(f64, Option<Llama3RopeScaling>), ConfigError> {
    // Newer transformers: everything inside `rope_parameters`.
    if let Some(params) = obj.get("rope_parameters")
        && !params.is_null()
    {
        let p = params.as_object().ok_or_else(|| {
            ConfigError::invalid(
                "rope_parameters",
                "expected an object like {\"rope_type\": \"default\", \"rope_theta\": 10000.0}",
            )
        })?;
        let theta = match p.get("rope_theta") {
            Some(v) if !v.is_null() => as_f64(v, "rope_parameters.rope_theta")?,
            // Fall back to a top-level rope_theta, then the Llama default.
            _ => opt_f64(obj, "rope_theta")?.unwrap_or(10000.0),
        };
        let scaling = parse_scaling(p, "rope_parameters")?;
        return Ok((theta, scaling));
    }
    let theta = opt_f64(obj, "rope_theta")?.unwrap_or(10000.0);
    let scaling = match obj.get("rope_scaling") {
        None | Some(Value::Null) => None,
        Some(Value::Object(s)) => parse_scaling(s, "rope_scaling")?,
        Some(other) => {
            return Err(ConfigError::invalid(
                "rope_scaling",
                format!("expected an object or null, found {other}"),
            ));
        }
    };
    Ok((theta, scaling))
}

fn parse_scaling(
    s: &Map<String, Value>,
    prefix: &str,
) -> Result<Option<Llama3RopeScaling>, ConfigError> {
    let type_field = if s.contains_key("rope_type") {
        "rope_type"
    } else {
        "type"
    };
    let rope_type = match s.get(type_field) {
        Some(Value::String(t)) => t.as_str(),
        None | Some(Value::Null) => "default",
        Some(other) => {
            return Err(ConfigError::invalid(
                &format!("{prefix}.{type_field}"),
                format!("expected a string, found {other}"),
            ));
        }
    };
    match rope_type {
        "default" => Ok(None),
        "llama3" => {
            let f = |name: &str| -> Result<f64, ConfigError> {
                let field = format!("{prefix}.{name}");
                match s.get(name) {
                    Some(v) if !v.is_null() => as_f64(v, &field),
                    _ => Err(ConfigError::Missing { field }),
                }
            };
            let original = {
                let field = format!("{prefix}.original_max_position_embeddings");
                match s.get("original_max_position_embeddings") {
                    Some(v) if !v.is_null() => as_usize(v, &field)?,
                    _ => return Err(ConfigError::Missing { field }),
                }
            };
            Ok(Some(Llama3RopeScaling {
                factor: f("factor")?,
                low_freq_factor: f("low_freq_factor")?,
                high_freq_factor: f("high_freq_factor")?,
                original_max_position_embeddings: original,
            }))
        }
        other => Err(ConfigError::unsupported(
            &format!("{prefix}.{type_field}"),
            &json!(other),
            "only the \"default\" and \"llama3\" RoPE types are implemented",
        )),
    }
}

fn as_usize(v: &Value, field: &str) -> Result<usize, ConfigError> {
    if let Some(n) = v.as_u64() {
        return usize::try_from(n).map_err(|_| ConfigError::invalid(field, "too large"));
    }
    // Accept integral floats such as 8192.0, which some exporters write.
    if let Some(f) = v.as_f64()
        && f >= 0.0
        && f.fract() == 0.0
        && f < 1e15
    {
        return Ok(f as usize);
    }
    Err(ConfigError::invalid(
        field,
        format!("expected a non-negative integer, found {v}"),
    ))
}

fn as_f64(v: &Value, field: &str) -> Result<f64, ConfigError> {
    v.as_f64()
        .ok_or_else(|| ConfigError::invalid(field, format!("expected a number, found {v}")))
}

fn req_usize(obj: &Map<String, Value>, field: &str) -> Result<usize, ConfigError> {
    opt_usize(obj, field)?.ok_or_else(|| ConfigError::Missing {
        field: field.to_string(),
    })
}

fn opt_usize(obj: &Map<String, Value>, field: &str) -> Result<Option<usize>, ConfigError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => as_usize(v, field).map(Some),
    }
}

fn opt_f64(obj: &Map<String, Value>, field: &str) -> Result<Option<f64>, ConfigError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => as_f64(v, field).map(Some),
    }
}

fn opt_bool(obj: &Map<String, Value>, field: &str) -> Result<Option<bool>, ConfigError> {
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(v) => Err(ConfigError::invalid(
            field,
            format!("expected true or false, found {v}"),
        )),
    }
}

/// An id field that may be an int, a list of ints, or null.
fn opt_token_ids(
    obj: &Map<String, Value>,
    field: &str,
) -> Result<Option<Vec<TokenId>>, ConfigError> {
    let one = |v: &Value| -> Result<TokenId, ConfigError> {
        v.as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(TokenId)
            .ok_or_else(|| {
                ConfigError::invalid(field, format!("expected a token id (integer), found {v}"))
            })
    };
    match obj.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(one)
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(v) => Ok(Some(vec![one(v)?])),
    }
}
