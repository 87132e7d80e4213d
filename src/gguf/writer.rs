//! Writing GGUF version 3: a small writer (metadata, tensor records, aligned
//! data written tensor by tensor, so large models are never held whole), and
//! [`export_hf_dir`], which writes a Hugging Face Llama directory as the file
//! llama.cpp's converter would produce: `llama.*` hyperparameters, the byte-level
//! BPE tokenizer (`gpt2` model, `gpt-2` pre-tokenizer) with its special tokens
//! and chat template, Q/K rows permuted, norms in f32, matrices in the chosen
//! dtype or quantized to Q8_0 / Q4_0 / Q4_1 blocks.

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::Path;

use half::{bf16, f16};
use serde_json::Value;

use super::names::{gguf_name, permute_rows, rope_permuted_heads};
use super::quant::{Quant, quantize};
use super::reader::{DEFAULT_ALIGNMENT, MAGIC, MetaValue};
use super::types::GgmlType;
use super::{GgufError, dequant};
use crate::config::ModelConfig;
use crate::tokenizer::TokenizerConfig;
use crate::weights::{DType, Weights};

/// A tensor record to write: its GGUF name, GGML dims (row length first) and type.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorData {
    pub name: String,
    pub dims: Vec<u64>,
    pub ty: GgmlType,
}

/// Collects metadata and tensor records, then writes the file in one pass.
#[derive(Debug, Default)]
pub struct GgufWriter {
    metadata: Vec<(String, MetaValue)>,
    tensors: Vec<TensorData>,
}

impl GgufWriter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) a metadata entry.
    pub fn meta(&mut self, key: &str, value: MetaValue) -> &mut Self {
        self.metadata.retain(|(k, _)| k != key);
        self.metadata.push((key.to_string(), value));
        self
    }

    pub fn tensor(&mut self, name: &str, dims: Vec<u64>, ty: GgmlType) -> &mut Self {
        self.tensors.push(TensorData {
            name: name.to_string(),
            dims,
            ty,
        });
        self
    }

    /// Writes the file; `data` is asked for each tensor's bytes in order.
    pub fn write(
        &self,
        path: &Path,
        mut data: impl FnMut(&TensorData) -> Result<Vec<u8>, GgufError>,
    ) -> Result<(), GgufError> {
        let io = |source| GgufError::Io {
            path: path.to_path_buf(),
            source,
        };
        let align = DEFAULT_ALIGNMENT;
        let mut out = BufWriter::new(File::create(path).map_err(io)?);
        let mut head = Vec::new();
        head.extend(MAGIC.to_le_bytes());
        head.extend(3u32.to_le_bytes());
        head.extend((self.tensors.len() as u64).to_le_bytes());
        head.extend((self.metadata.len() as u64).to_le_bytes());
        for (k, v) in &self.metadata {
            put_str(&mut head, k);
            head.extend(v.type_id().to_le_bytes());
            put_value(&mut head, v);
        }
        let mut sizes = Vec::with_capacity(self.tensors.len());
        let mut offset = 0u64;
        for t in &self.tensors {
            let n = t.dims.iter().product::<u64>() as usize;
            let len = dequant::byte_len(t.ty, n).map_err(|e| GgufError::Tensor {
                path: path.to_path_buf(),
                name: t.name.clone(),
                source: e,
            })? as u64;
            put_str(&mut head, &t.name);
            head.extend((t.dims.len() as u32).to_le_bytes());
            for d in &t.dims {
                head.extend(d.to_le_bytes());
            }
            head.extend(t.ty.0.to_le_bytes());
            head.extend(offset.to_le_bytes());
            sizes.push(len);
            offset = (offset + len).div_ceil(align) * align;
        }
        pad_to(&mut head, align);
        out.write_all(&head).map_err(io)?;
        for (t, &len) in self.tensors.iter().zip(&sizes) {
            let mut bytes = data(t)?;
            if bytes.len() as u64 != len {
                return Err(GgufError::Export(format!(
                    "tensor `{}` has {} bytes, its type and dims need {len}",
                    t.name,
                    bytes.len()
                )));
            }
            pad_to(&mut bytes, align);
            out.write_all(&bytes).map_err(io)?;
        }
        out.flush().map_err(io)
    }
}

fn pad_to(buf: &mut Vec<u8>, align: u64) {
    let len = buf.len() as u64;
    buf.resize((len.div_ceil(align) * align) as usize, 0);
}

fn put_str(buf: &mut Vec<u8>, s: &str) {
    buf.extend((s.len() as u64).to_le_bytes());
    buf.extend(s.as_bytes());
}

fn put_value(buf: &mut Vec<u8>, v: &MetaValue) {
    match v {
        MetaValue::U8(x) => buf.push(*x),
        MetaValue::I8(x) => buf.push(*x as u8),
        MetaValue::U16(x) => buf.extend(x.to_le_bytes()),
        MetaValue::I16(x) => buf.extend(x.to_le_bytes()),
        MetaValue::U32(x) => buf.extend(x.to_le_bytes()),
        MetaValue::I32(x) => buf.extend(x.to_le_bytes()),
        MetaValue::U64(x) => buf.extend(x.to_le_bytes()),
        MetaValue::I64(x) => buf.extend(x.to_le_bytes()),
        MetaValue::F32(x) => buf.extend(x.to_le_bytes()),
        MetaValue::F64(x) => buf.extend(x.to_le_bytes()),
        MetaValue::Bool(x) => buf.push(*x as u8),
        MetaValue::Str(s) => put_str(buf, s),
        MetaValue::Array(items) => {
            // An empty array is written as an array of u32 (any type would do).
            let elem = items.first().map_or(4, MetaValue::type_id);
            buf.extend(elem.to_le_bytes());
            buf.extend((items.len() as u64).to_le_bytes());
            for it in items {
                put_value(buf, it);
            }
        }
    }
}

/// llama.cpp's `general.file_type` for a model stored mostly in `dtype`.
fn file_type(dtype: DType) -> u32 {
    match dtype {
        DType::F32 => 0,
        DType::F16 => 1,
        DType::BF16 => 32,
        // Weights only ever hold float tensors (`Weights::open` refuses others).
        DType::I32 | DType::I8 | DType::I1 => unreachable!("{dtype:?} is not a weight dtype"),
    }
}

fn ggml_type(dtype: DType) -> GgmlType {
    match dtype {
        DType::F32 => GgmlType::F32,
        DType::F16 => GgmlType::F16,
        DType::BF16 => GgmlType::BF16,
        DType::I32 | DType::I8 | DType::I1 => unreachable!("{dtype:?} is not a weight dtype"),
    }
}

/// Writes the Hugging Face Llama model in `dir` (config.json, safetensors,
/// tokenizer.json, tokenizer_config.json) as a GGUF file at `out`, matrices in
/// `dtype` and 1-D tensors in f32 (as llama.cpp's converter does).
pub fn export_hf_dir(dir: &Path, dtype: DType, out: &Path) -> Result<(), GgufError> {
    export(dir, dtype, None, out)
}

/// [`export_hf_dir`] with every matrix (the embedding too) quantized to
/// `quant` blocks from its `dtype` values, as llama.cpp's `llama-quantize`
/// lays them out; 1-D tensors stay f32.
pub fn export_hf_dir_quantized(
    dir: &Path,
    dtype: DType,
    quant: Quant,
    out: &Path,
) -> Result<(), GgufError> {
    export(dir, dtype, Some(quant), out)
}

/// `iree-llm convert`: the Hugging Face Llama model in `dir` as a GGUF file
/// at `out`, every matrix quantized to `quant` blocks when given, else in
/// `dtype` (default: the checkpoint's own, so nothing is rounded). Returns
/// the dtype the matrices were read as.
pub fn convert_hf_dir(
    dir: &Path,
    dtype: Option<DType>,
    quant: Option<Quant>,
    out: &Path,
) -> Result<DType, GgufError> {
    let dtype = match dtype {
        Some(d) => d,
        None => {
            let cfg = ModelConfig::from_dir(dir).map_err(GgufError::Config)?;
            Weights::open(dir, &cfg)
                .map_err(|e| GgufError::Export(e.to_string()))?
                .dtype()
        }
    };
    export(dir, dtype, quant, out)?;
    Ok(dtype)
}

fn export(dir: &Path, dtype: DType, quant: Option<Quant>, out: &Path) -> Result<(), GgufError> {
    let cfg = ModelConfig::from_dir(dir).map_err(GgufError::Config)?;
    let weights = Weights::open(dir, &cfg).map_err(|e| GgufError::Export(e.to_string()))?;
    let mut w = GgufWriter::new();
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".into());
    let file_type = quant.map_or_else(|| file_type(dtype), Quant::file_type);
    hparams_meta(&mut w, &cfg, &name, file_type);
    tokenizer_meta(&mut w, &cfg, dir)?;

    let rope_divisors = rope_divisors(&cfg);
    if let Some(d) = &rope_divisors {
        w.tensor("rope_freqs.weight", vec![d.len() as u64], GgmlType::F32);
    }
    for (hf, shape) in crate::checkpoint::tensors(&cfg) {
        let g = gguf_name(&hf).expect("every Llama tensor has a GGUF name");
        let ty = match (shape.len(), quant) {
            (1, _) => GgmlType::F32,
            (_, Some(q)) => q.ggml_type(),
            (_, None) => ggml_type(dtype),
        };
        w.tensor(&g, shape.iter().rev().map(|&d| d as u64).collect(), ty);
    }
    let hf_of = |g: &str| super::names::hf_name(g).expect("written names map back");
    let tmp = out.with_extension("gguf.part");
    w.write(&tmp, |t| {
        if t.name == "rope_freqs.weight" {
            let d = rope_divisors.as_deref().expect("only written when present");
            return Ok(d.iter().flat_map(|x| x.to_le_bytes()).collect());
        }
        let hf = hf_of(&t.name);
        let mut values = weights
            .to_f32(&hf)
            .map_err(|e| GgufError::Export(e.to_string()))?;
        if let Some(heads) =
            rope_permuted_heads(&hf, cfg.num_attention_heads, cfg.num_key_value_heads)
        {
            values = permute_rows(&values, heads, t.dims[0] as usize);
        }
        Ok(match t.ty {
            GgmlType::F16 => values
                .iter()
                .flat_map(|&x| f16::from_f32(x).to_le_bytes())
                .collect(),
            GgmlType::BF16 => values
                .iter()
                .flat_map(|&x| bf16::from_f32(x).to_le_bytes())
                .collect(),
            GgmlType::F32 => values.iter().flat_map(|x| x.to_le_bytes()).collect(),
            _ => {
                let q = quant.expect("only matrices of a quantized export have block types");
                quantize(q, &values).map_err(|source| GgufError::Quantize {
                    name: t.name.clone(),
                    source,
                })?
            }
        })
    })?;
    fs::rename(&tmp, out).map_err(|source| GgufError::Io {
        path: out.to_path_buf(),
        source,
    })
}

fn hparams_meta(w: &mut GgufWriter, cfg: &ModelConfig, name: &str, file_type: u32) {
    let u32v = |n: usize| MetaValue::U32(n as u32);
    w.meta("general.architecture", MetaValue::Str("llama".into()))
        .meta("general.type", MetaValue::Str("model".into()))
        .meta("general.name", MetaValue::Str(name.into()))
        .meta("general.file_type", MetaValue::U32(file_type))
        .meta("general.quantization_version", MetaValue::U32(2))
        .meta("llama.vocab_size", u32v(cfg.vocab_size))
        .meta("llama.context_length", u32v(cfg.max_position_embeddings))
        .meta("llama.embedding_length", u32v(cfg.hidden_size))
        .meta("llama.block_count", u32v(cfg.num_hidden_layers))
        .meta("llama.feed_forward_length", u32v(cfg.intermediate_size))
        .meta("llama.attention.head_count", u32v(cfg.num_attention_heads))
        .meta(
            "llama.attention.head_count_kv",
            u32v(cfg.num_key_value_heads),
        )
        .meta("llama.attention.key_length", u32v(cfg.head_dim))
        .meta("llama.attention.value_length", u32v(cfg.head_dim))
        .meta("llama.rope.dimension_count", u32v(cfg.head_dim))
        .meta(
            "llama.rope.freq_base",
            MetaValue::F32(cfg.rope_theta as f32),
        )
        .meta(
            "llama.attention.layer_norm_rms_epsilon",
            MetaValue::F32(cfg.rms_norm_eps as f32),
        );
    if let Some(s) = &cfg.rope_scaling {
        // The divisors go in rope_freqs.weight; the original context makes
        // the llama3 parameters recoverable on reading.
        w.meta(
            "llama.rope.scaling.original_context_length",
            u32v(s.original_max_position_embeddings),
        );
    }
}

/// Llama 3.1 RoPE scaling as llama.cpp stores it: per-frequency divisors.
fn rope_divisors(cfg: &ModelConfig) -> Option<Vec<f32>> {
    cfg.rope_scaling?;
    let scaled = cfg.rope_inv_freq();
    let base = ModelConfig {
        rope_scaling: None,
        ..cfg.clone()
    }
    .rope_inv_freq();
    Some(
        base.iter()
            .zip(&scaled)
            .map(|(b, s)| (b / s) as f32)
            .collect(),
    )
}

/// llama.cpp's token types.
const TOKEN_NORMAL: i32 = 1;
const TOKEN_CONTROL: i32 = 3;
const TOKEN_USER_DEFINED: i32 = 4;

fn tokenizer_meta(w: &mut GgufWriter, cfg: &ModelConfig, dir: &Path) -> Result<(), GgufError> {
    let path = dir.join("tokenizer.json");
    let text = fs::read_to_string(&path).map_err(|source| GgufError::Io {
        path: path.clone(),
        source,
    })?;
    let tok: Value = serde_json::from_str(&text)
        .map_err(|e| GgufError::Export(format!("{}: {e}", path.display())))?;
    let model = &tok["model"];
    if model["type"].as_str() != Some("BPE") {
        return Err(GgufError::Export(format!(
            "{}: only byte-level BPE tokenizers are exported (found model type {})",
            path.display(),
            model["type"]
        )));
    }
    let mut tokens: Vec<Option<String>> = vec![None; cfg.vocab_size];
    let mut types = vec![TOKEN_NORMAL; cfg.vocab_size];
    let mut place = |id: u64, text: &str| -> Result<(), GgufError> {
        let slot = tokens.get_mut(id as usize).ok_or_else(|| {
            GgufError::Export(format!(
                "token id {id} is outside vocab_size {}",
                cfg.vocab_size
            ))
        })?;
        *slot = Some(text.to_string());
        Ok(())
    };
    for (text, id) in model["vocab"].as_object().into_iter().flatten() {
        place(id.as_u64().unwrap_or(u64::MAX), text)?;
    }
    for added in tok["added_tokens"].as_array().into_iter().flatten() {
        let id = added["id"].as_u64().unwrap_or(u64::MAX);
        place(id, added["content"].as_str().unwrap_or_default())?;
        types[id as usize] = if added["special"].as_bool() == Some(true) {
            TOKEN_CONTROL
        } else {
            TOKEN_USER_DEFINED
        };
    }
    let tokens = tokens
        .into_iter()
        .enumerate()
        .map(|(id, t)| {
            t.map(MetaValue::Str).ok_or_else(|| {
                GgufError::Export(format!("{}: no token has id {id}", path.display()))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let merges = model["merges"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| match m {
            Value::String(s) => MetaValue::Str(s.clone()),
            // Newer tokenizers.json spell a merge as a pair.
            Value::Array(p) => MetaValue::Str(format!(
                "{} {}",
                p.first().and_then(Value::as_str).unwrap_or_default(),
                p.get(1).and_then(Value::as_str).unwrap_or_default()
            )),
            other => MetaValue::Str(other.to_string()),
        })
        .collect();
    w.meta("tokenizer.ggml.model", MetaValue::Str("gpt2".into()))
        .meta("tokenizer.ggml.pre", MetaValue::Str("gpt-2".into()))
        .meta("tokenizer.ggml.tokens", MetaValue::Array(tokens))
        .meta(
            "tokenizer.ggml.token_type",
            MetaValue::Array(types.into_iter().map(MetaValue::I32).collect()),
        )
        .meta("tokenizer.ggml.merges", MetaValue::Array(merges));
    if let Some(b) = cfg.bos_token_id {
        w.meta("tokenizer.ggml.bos_token_id", MetaValue::U32(b.0));
    }
    // GGUF has one slot for each kind of end token; the config's first three
    // ids fill end-of-sequence, end-of-message and end-of-turn.
    for (key, id) in ["eos", "eom", "eot"].iter().zip(&cfg.eos_token_ids) {
        w.meta(
            &format!("tokenizer.ggml.{key}_token_id"),
            MetaValue::U32(id.0),
        );
    }
    let tc = TokenizerConfig::from_dir(dir)
        .map_err(|e| GgufError::Export(e.to_string()))?
        .unwrap_or_default();
    let add_bos = tc.add_bos_token.unwrap_or_else(|| {
        // Without the flag, the post-processor says whether BOS is prepended.
        tok["post_processor"].to_string().contains("SpecialToken") && cfg.bos_token_id.is_some()
    });
    w.meta("tokenizer.ggml.add_bos_token", MetaValue::Bool(add_bos))
        .meta("tokenizer.ggml.add_space_prefix", MetaValue::Bool(false));
    if let Some(t) = tc.chat_template {
        w.meta("tokenizer.chat_template", MetaValue::Str(t));
    }
    Ok(())
}
