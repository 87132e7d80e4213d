//! GGUF checkpoints, llama.cpp's single-file format: reading a `llama` file
//! into the crate's [`ModelConfig`] and Hugging Face-layout f32 tensors
//! (dequantized, Q/K rows un-permuted), and writing a Hugging Face model
//! directory out as a GGUF file that llama.cpp loads, its matrices in a float
//! type or quantized to Q8_0, Q4_0 or Q4_1 blocks ([`quantize`]).
//!
//! The container parser and the dequantizers are this crate's own: of the
//! crates for the format, `ggus` reads only version 3 and its `ggml-quants`
//! leaves every K-quant dequantizer unimplemented, `gguf-rs-lib` / `gguf-rs`
//! have no dequantizers, and `candle-core`'s (complete) ones come with a
//! whole tensor framework to compile. Both halves are small, and every type's
//! dequantization is tested against the PyPI `gguf` package's numpy
//! reference (tests/gguf.rs, fixtures from scripts/gguf_fixtures.py).

mod blocks;
mod dequant;
mod hparams;
mod names;
mod quant;
mod reader;
mod types;
mod writer;

use std::path::{Path, PathBuf};

pub use blocks::BlockTensor;
pub use dequant::{DequantError, byte_len, dequantize};
pub use hparams::model_config;
pub use names::{gguf_name, hf_name, permute_rows, rope_permuted_heads, unpermute_rows};
pub use quant::{Quant, QuantError, quantize};
pub use reader::{GgufFile, MetaValue, TensorInfo};
pub use types::{BlockLayout, GgmlType};
pub use writer::{GgufWriter, TensorData, convert_hf_dir, export_hf_dir, export_hf_dir_quantized};

use crate::config::{ConfigError, ModelConfig};
use crate::weights::DType;

/// Why a GGUF file could not be read, understood or written.
#[derive(Debug, thiserror::Error)]
pub enum GgufError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a GGUF file (it does not start with `GGUF`)")]
    NotGguf { path: PathBuf },
    #[error(
        "{path} is GGUF version {version}; iree-llm reads versions 2 and 3 in little-endian \
         byte order (re-convert older or big-endian files with a current llama.cpp)"
    )]
    Version { path: PathBuf, version: u32 },
    #[error("{path} is damaged: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    #[error(
        "{path} holds a `{arch}` model; only the `llama` architecture (general.architecture) \
         is supported"
    )]
    Architecture { path: PathBuf, arch: String },
    #[error("{path} lacks the metadata key `{key}` that a llama GGUF needs")]
    MissingKey { path: PathBuf, key: String },
    #[error("{path}: metadata `{key}` should be {expected}, found {found}")]
    WrongType {
        path: PathBuf,
        key: String,
        expected: String,
        found: String,
    },
    #[error("GGUF metadata `{key}` = {value} is not supported: {hint}")]
    Unsupported {
        key: String,
        value: String,
        hint: String,
    },
    #[error("{path} lacks the tensor `{name}`")]
    MissingTensor { path: PathBuf, name: String },
    #[error("tensor `{name}` has shape {found:?}, the metadata implies {expected:?}")]
    Shape {
        name: String,
        expected: Vec<usize>,
        found: Vec<usize>,
    },
    #[error("{path}: tensor `{name}`: {source}")]
    Tensor {
        path: PathBuf,
        name: String,
        #[source]
        source: DequantError,
    },
    #[error("the GGUF metadata describes an invalid model: {0}")]
    Config(#[source] ConfigError),
    #[error("cannot export to GGUF: {0}")]
    Export(String),
    #[error("tensor `{name}` cannot be quantized: {source}")]
    Quantize {
        name: String,
        #[source]
        source: QuantError,
    },
    #[error("weights cannot be loaded as {0}: use f32, f16 or bf16")]
    NotAWeightDType(DType),
}

/// Whether `path` names a GGUF file (by its extension).
pub fn is_gguf_path(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gguf"))
}

/// A `llama` GGUF checkpoint: the mapped file and the config it implies.
#[derive(Debug)]
pub struct GgufModel {
    file: GgufFile,
    config: ModelConfig,
}

impl GgufModel {
    /// Opens `path`, checks the architecture, builds the config and checks
    /// that every tensor the config implies is present with the right shape.
    pub fn open(path: &Path) -> Result<Self, GgufError> {
        let file = GgufFile::open(path)?;
        let config = model_config(&file)?;
        Ok(GgufModel { file, config })
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    pub fn file(&self) -> &GgufFile {
        &self.file
    }

    /// The stored type of the tensor behind a Hugging Face name.
    pub fn stored_type(&self, hf: &str) -> Result<GgmlType, GgufError> {
        Ok(self.info(hf)?.ty)
    }

    /// The tensor with Hugging Face name `hf`, dequantized to f32 in Hugging
    /// Face layout (row-major, Q/K rows in split-half rotary order).
    pub fn tensor_f32(&self, hf: &str) -> Result<Vec<f32>, GgufError> {
        let info = self.info(hf)?;
        let data = self.file.tensor_f32(&info.name)?;
        let cfg = &self.config;
        Ok(
            match rope_permuted_heads(hf, cfg.num_attention_heads, cfg.num_key_value_heads) {
                Some(heads) => unpermute_rows(&data, heads, info.dims[0] as usize),
                None => data,
            },
        )
    }

    /// Tensor `hf` in device blocks (Q/K rows in Hugging Face order) if it
    /// is a Q8_0, Q4_0 or Q4_1 matrix; `None` for any other tensor.
    pub fn tensor_blocks(&self, hf: &str) -> Result<Option<BlockTensor>, GgufError> {
        let info = self.info(hf)?;
        if info.dims.len() != 2 {
            return Ok(None);
        }
        let (info, data) = self.file.tensor_bytes(&info.name.clone())?;
        let (cols, rows) = (info.dims[0] as usize, info.dims[1] as usize);
        let Some(blocks) = BlockTensor::from_ggml(info.ty, data, rows, cols) else {
            return Ok(None);
        };
        let cfg = &self.config;
        Ok(Some(
            match rope_permuted_heads(hf, cfg.num_attention_heads, cfg.num_key_value_heads) {
                Some(heads) => blocks.unpermute_rows(heads),
                None => blocks,
            },
        ))
    }

    /// The dtype the weights keep on the host and device: the file's float
    /// type when every matrix has the same one, else f32, which holds every
    /// dequantized value exactly (llama.cpp forms them in f32).
    pub fn native_dtype(&self) -> DType {
        let mut types = self
            .file
            .tensors()
            .iter()
            .filter(|t| t.dims.len() == 2)
            .map(|t| t.ty);
        let first = types.next();
        if types.any(|t| Some(t) != first) {
            return DType::F32;
        }
        match first {
            Some(GgmlType::F16) => DType::F16,
            Some(GgmlType::BF16) => DType::BF16,
            _ => DType::F32,
        }
    }

    /// Tensor `hf` (as [`GgufModel::tensor_f32`]) as little-endian `dtype` bytes.
    pub fn tensor_bytes(&self, hf: &str, dtype: DType) -> Result<Vec<u8>, GgufError> {
        float_bytes(&self.tensor_f32(hf)?, dtype)
    }

    fn info(&self, hf: &str) -> Result<&TensorInfo, GgufError> {
        let name = gguf_name(hf).unwrap_or_else(|| hf.to_string());
        self.file
            .tensor_info(&name)
            .ok_or_else(|| GgufError::MissingTensor {
                path: self.file.path().to_path_buf(),
                name,
            })
    }
}

/// Dequantized values as little-endian `dtype` bytes (a float dtype).
pub fn float_bytes(values: &[f32], dtype: DType) -> Result<Vec<u8>, GgufError> {
    Ok(match dtype {
        DType::F32 => values.iter().flat_map(|x| x.to_le_bytes()).collect(),
        DType::F16 => values
            .iter()
            .flat_map(|&x| half::f16::from_f32(x).to_le_bytes())
            .collect(),
        DType::BF16 => values
            .iter()
            .flat_map(|&x| half::bf16::from_f32(x).to_le_bytes())
            .collect(),
        DType::I32 | DType::I8 | DType::I1 => return Err(GgufError::NotAWeightDType(dtype)),
    })
}
