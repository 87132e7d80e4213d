//! Model weights: memory-mapped safetensors files (`model.safetensors`, or the
//! shards listed in `model.safetensors.index.json`), checked against the
//! tensor names and shapes a [`ModelConfig`] implies ([`checkpoint::tensors`]), with exact conversion of
//! f32 / f16 / bf16 data to f32 or f64.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use serde_json::Value;

use crate::checkpoint;
use crate::config::ModelConfig;

pub use crate::types::{DType, UnknownDType};

/// Why weights could not be opened or read.
#[derive(Debug, thiserror::Error)]
pub enum WeightsError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "no weights in {dir}: expected model.safetensors or model.safetensors.index.json \
         (only safetensors checkpoints are supported; convert .bin/.pth files first)"
    )]
    NoWeights { dir: PathBuf },
    #[error("{path} is not a valid safetensors shard index: {reason}")]
    BadIndex { path: PathBuf, reason: String },
    #[error("{path} is not a valid safetensors file: {reason}")]
    BadFile { path: PathBuf, reason: String },
    #[error(
        "tensor `{tensor}` is missing from {location}; the checkpoint does not match config.json"
    )]
    MissingTensor { tensor: String, location: String },
    #[error("tensor `{tensor}` in {file} has shape {found:?} but config.json implies {expected:?}")]
    ShapeMismatch {
        tensor: String,
        file: PathBuf,
        expected: Vec<usize>,
        found: Vec<usize>,
    },
    #[error(
        "tensor `{tensor}` in {file} has dtype {found}; only F32, F16 and BF16 weights are supported"
    )]
    UnsupportedDType {
        tensor: String,
        file: PathBuf,
        found: String,
    },
    #[error(
        "tensor `{tensor}` has dtype {found} but `{first}` has {expected}; \
         convert the checkpoint to a single dtype"
    )]
    MixedDType {
        tensor: String,
        first: String,
        expected: DType,
        found: DType,
    },
    #[error("tensor `{0}` is not one of this model's weights")]
    UnknownTensor(String),
    #[error(transparent)]
    Gguf(#[from] crate::gguf::GgufError),
}

/// The bytes behind a [`Weights`]' tensors: a mapped safetensors file, or
/// tensors dequantized from a GGUF file.
enum Backing {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Backing {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Backing::Mapped(m) => m,
            Backing::Owned(v) => v,
        }
    }
}

/// A borrowed view of one tensor's raw little-endian bytes.
#[derive(Clone, Copy, Debug)]
pub struct TensorView<'a> {
    pub name: &'a str,
    pub dtype: DType,
    pub shape: &'a [usize],
    pub data: &'a [u8],
}

impl TensorView<'_> {
    pub fn num_elements(&self) -> usize {
        self.shape.iter().product()
    }

    /// The values as f32 (exact for every float dtype).
    pub fn to_f32(&self) -> Vec<f32> {
        let d = self.data;
        match self.dtype {
            DType::I32 => d
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f32)
                .collect(),
            DType::I8 => d.iter().map(|&b| f32::from(b as i8)).collect(),
            DType::I1 => d.iter().map(|&b| f32::from(u8::from(b != 0))).collect(),
            DType::F32 => d
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
            DType::F16 => d
                .chunks_exact(2)
                .map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f32())
                .collect(),
            DType::BF16 => d
                .chunks_exact(2)
                .map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f32())
                .collect(),
        }
    }

    /// The values as f64 (exact for every supported dtype).
    pub fn to_f64(&self) -> Vec<f64> {
        let d = self.data;
        match self.dtype {
            DType::I32 => d
                .chunks_exact(4)
                .map(|c| f64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                .collect(),
            DType::I8 => d.iter().map(|&b| f64::from(b as i8)).collect(),
            DType::I1 => d.iter().map(|&b| f64::from(u8::from(b != 0))).collect(),
            DType::F32 => d
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
                .collect(),
            DType::F16 => d
                .chunks_exact(2)
                .map(|c| half::f16::from_le_bytes([c[0], c[1]]).to_f64())
                .collect(),
            DType::BF16 => d
                .chunks_exact(2)
                .map(|c| half::bf16::from_le_bytes([c[0], c[1]]).to_f64())
                .collect(),
        }
    }
}

#[derive(Debug)]
struct Entry {
    dtype: DType,
    shape: Vec<usize>,
    bytes: Bytes,
}

/// Where an [`Entry`]'s bytes are.
#[derive(Debug)]
enum Bytes {
    /// An absolute byte range within file `file`.
    InFile {
        file: usize,
        start: usize,
        end: usize,
    },
    /// A GGUF matrix kept in device blocks ([`Weights::blocks`]):
    /// dequantized from them on first use only, so that a quantized model
    /// does not hold 4 bytes per weight on the host beside its blocks
    /// (the device reads the blocks; the dense values are for portable
    /// graphs, the f64 reference and conversions).
    FromBlocks(std::sync::OnceLock<Vec<u8>>),
}

/// The weights of one model, memory-mapped. Only the tensors the config
/// implies are indexed (extra tensors in the files are ignored, and so is a
/// `lm_head.weight` when embeddings are tied).
pub struct Weights {
    files: Vec<(PathBuf, Backing)>,
    entries: HashMap<String, Entry>,
    order: Vec<String>,
    dtype: DType,
    /// A quantized GGUF's Q8_0/Q4_0/Q4_1 matrices as the device can keep
    /// them, besides their dequantized values in `entries`.
    blocks: HashMap<String, crate::gguf::BlockTensor>,
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Weights")
            .field(
                "files",
                &self.files.iter().map(|(p, _)| p).collect::<Vec<_>>(),
            )
            .field("tensors", &self.order.len())
            .field("dtype", &self.dtype)
            .finish()
    }
}

impl Weights {
    /// Opens and memory-maps the safetensors weights in `dir`, checking that
    /// every expected tensor exists with the right shape and that all share
    /// one supported dtype. A `.gguf` file in place of `dir` is read with
    /// [`Weights::open_gguf`].
    pub fn open(dir: &Path, cfg: &ModelConfig) -> Result<Self, WeightsError> {
        if crate::gguf::is_gguf_path(dir) && dir.is_file() {
            return Self::open_gguf(dir, cfg);
        }
        let index_path = dir.join("model.safetensors.index.json");
        let single_path = dir.join("model.safetensors");
        // tensor name -> file name (from the index), or None for a single file.
        let (file_names, weight_map): (Vec<String>, Option<HashMap<String, String>>) =
            if index_path.exists() {
                let map = read_index(&index_path)?;
                let mut names: Vec<String> = map.values().cloned().collect::<Vec<_>>();
                names.sort();
                names.dedup();
                (names, Some(map))
            } else if single_path.exists() {
                (vec!["model.safetensors".to_string()], None)
            } else {
                return Err(WeightsError::NoWeights {
                    dir: dir.to_path_buf(),
                });
            };

        let mut files = Vec::with_capacity(file_names.len());
        let mut headers: Vec<Header> = Vec::new();
        for name in &file_names {
            let path = dir.join(name);
            let file = File::open(&path).map_err(|source| WeightsError::Io {
                path: path.clone(),
                source,
            })?;
            // One of the crate's three unsafe sites, with runtime::sys (the
            // FFI) and the sampler's AVX2 dispatch (sampler/kernels.rs).
            // SAFETY: the file is opened read-only; as with every mmap-based
            // loader, it must not be truncated while the model is in use.
            #[allow(unsafe_code)]
            let mmap = unsafe { Mmap::map(&file) }.map_err(|source| WeightsError::Io {
                path: path.clone(),
                source,
            })?;
            let header = parse_header(&path, &mmap)?;
            headers.push(header);
            files.push((path, Backing::Mapped(mmap)));
        }

        let mut entries = HashMap::new();
        let mut order = Vec::new();
        let mut first: Option<(String, DType)> = None;
        for (name, shape) in checkpoint::tensors(cfg) {
            let file_idx = match &weight_map {
                None => 0,
                Some(map) => {
                    let Some(fname) = map.get(&name) else {
                        return Err(WeightsError::MissingTensor {
                            tensor: name,
                            location: index_path.display().to_string(),
                        });
                    };
                    file_names
                        .iter()
                        .position(|n| n == fname)
                        .expect("file listed")
                }
            };
            let path = &files[file_idx].0;
            let Some((st_dtype, found_shape, start, end)) = headers[file_idx].get(&name) else {
                return Err(WeightsError::MissingTensor {
                    tensor: name,
                    location: path.display().to_string(),
                });
            };
            let Some(dtype) = DType::from_safetensors(*st_dtype).filter(|d| d.is_float()) else {
                return Err(WeightsError::UnsupportedDType {
                    tensor: name,
                    file: path.clone(),
                    found: format!("{st_dtype:?}"),
                });
            };
            if *found_shape != shape {
                return Err(WeightsError::ShapeMismatch {
                    tensor: name,
                    file: path.clone(),
                    expected: shape,
                    found: found_shape.clone(),
                });
            }
            match &first {
                None => first = Some((name.clone(), dtype)),
                Some((first_name, expected)) if *expected != dtype => {
                    return Err(WeightsError::MixedDType {
                        tensor: name,
                        first: first_name.clone(),
                        expected: *expected,
                        found: dtype,
                    });
                }
                Some(_) => {}
            }
            entries.insert(
                name.clone(),
                Entry {
                    dtype,
                    shape,
                    bytes: Bytes::InFile {
                        file: file_idx,
                        start: *start,
                        end: *end,
                    },
                },
            );
            order.push(name);
        }
        let dtype = first
            .map(|(_, d)| d)
            .expect("at least the embedding is expected");
        Ok(Weights {
            files,
            entries,
            order,
            dtype,
            blocks: HashMap::new(),
        })
    }

    /// Reads a GGUF checkpoint: each tensor dequantized (Q/K rows restored
    /// to Hugging Face order) into host memory in the file's native dtype
    /// (see [`crate::gguf::GgufModel::native_dtype`]), except its Q8_0, Q4_0
    /// and Q4_1 matrices, which are held in device blocks
    /// ([`Weights::blocks`]) and dequantized from them only when
    /// [`Weights::tensor`] first asks; the file itself stays mapped only
    /// while this runs.
    pub fn open_gguf(path: &Path, cfg: &ModelConfig) -> Result<Self, WeightsError> {
        let model = crate::gguf::GgufModel::open(path)?;
        if model.config() != cfg {
            return Err(WeightsError::BadFile {
                path: path.to_path_buf(),
                reason: "its metadata describes another model than the config given".into(),
            });
        }
        let dtype = model.native_dtype();
        let mut data = Vec::new();
        let mut entries = HashMap::new();
        let mut order = Vec::new();
        let mut blocks = HashMap::new();
        for (name, shape) in checkpoint::tensors(cfg) {
            let bytes = if let Some(b) = model.tensor_blocks(&name)? {
                blocks.insert(name.clone(), b);
                Bytes::FromBlocks(std::sync::OnceLock::new())
            } else {
                let bytes = model.tensor_bytes(&name, dtype)?;
                let start = data.len();
                data.extend_from_slice(&bytes);
                Bytes::InFile {
                    file: 0,
                    start,
                    end: data.len(),
                }
            };
            entries.insert(
                name.clone(),
                Entry {
                    dtype,
                    shape,
                    bytes,
                },
            );
            order.push(name);
        }
        Ok(Weights {
            files: vec![(path.to_path_buf(), Backing::Owned(data))],
            entries,
            order,
            dtype,
            blocks,
        })
    }

    /// The matrices held in device blocks, with their formats (empty unless
    /// read from a GGUF with Q8_0, Q4_0 or Q4_1 matrices).
    pub fn block_formats(&self) -> std::collections::BTreeMap<String, crate::types::BlockFormat> {
        self.blocks
            .iter()
            .map(|(name, b)| (name.clone(), b.format))
            .collect()
    }

    /// The matrix `name` in device blocks, if it is held so.
    pub fn blocks(&self, name: &str) -> Option<&crate::gguf::BlockTensor> {
        self.blocks.get(name)
    }

    /// The dtype every weight tensor is stored in.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The weight tensor names in canonical order (see [`checkpoint::tensors`]).
    pub fn names(&self) -> &[String] {
        &self.order
    }

    /// The safetensors files backing these weights.
    pub fn files(&self) -> Vec<&Path> {
        self.files.iter().map(|(p, _)| p.as_path()).collect()
    }

    /// Total bytes of all weight tensors.
    pub fn total_bytes(&self) -> usize {
        self.entries
            .values()
            .map(|e| e.shape.iter().product::<usize>() * e.dtype.size_bytes())
            .sum()
    }

    /// Bytes these weights hold in host memory now: the tensors read or
    /// dequantized so far, and the device blocks.
    pub fn host_bytes(&self) -> usize {
        let files: usize = self
            .files
            .iter()
            .filter(|(_, b)| matches!(b, Backing::Owned(_)))
            .map(|(_, b)| b.len())
            .sum();
        let dequantized: usize = self
            .entries
            .values()
            .filter_map(|e| match &e.bytes {
                Bytes::FromBlocks(cell) => cell.get().map(Vec::len),
                Bytes::InFile { .. } => None,
            })
            .sum();
        let blocks: usize = self
            .blocks
            .values()
            .map(|b| b.q.len() + b.d.len() + b.m.as_ref().map_or(0, Vec::len))
            .sum();
        files + dequantized + blocks
    }

    /// A view of one tensor's raw bytes (a block matrix's are dequantized
    /// on the first call and kept).
    pub fn tensor(&self, name: &str) -> Result<TensorView<'_>, WeightsError> {
        let (key, e) = self
            .entries
            .get_key_value(name)
            .ok_or_else(|| WeightsError::UnknownTensor(name.to_string()))?;
        let data = match &e.bytes {
            Bytes::InFile { file, start, end } => &self.files[*file].1[*start..*end],
            Bytes::FromBlocks(cell) => match cell.get() {
                Some(bytes) => bytes,
                None => {
                    let blocks = &self.blocks[key];
                    let bytes = crate::gguf::float_bytes(&blocks.to_f32(), e.dtype)?;
                    cell.get_or_init(|| bytes)
                }
            },
        };
        Ok(TensorView {
            name: key,
            dtype: e.dtype,
            shape: &e.shape,
            data,
        })
    }

    /// The tensor's values as f32 (exact).
    pub fn to_f32(&self, name: &str) -> Result<Vec<f32>, WeightsError> {
        Ok(self.tensor(name)?.to_f32())
    }

    /// The tensor's values as f64 (exact).
    pub fn to_f64(&self, name: &str) -> Result<Vec<f64>, WeightsError> {
        Ok(self.tensor(name)?.to_f64())
    }
}

fn read_index(path: &Path) -> Result<HashMap<String, String>, WeightsError> {
    let text = std::fs::read_to_string(path).map_err(|source| WeightsError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let bad = |reason: String| WeightsError::BadIndex {
        path: path.to_path_buf(),
        reason,
    };
    let v: Value = serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let map = v
        .get("weight_map")
        .and_then(Value::as_object)
        .ok_or_else(|| bad("missing the `weight_map` object".into()))?;
    let mut out = HashMap::with_capacity(map.len());
    for (k, f) in map {
        let f = f
            .as_str()
            .ok_or_else(|| bad(format!("weight_map entry `{k}` is not a file name")))?;
        if f.contains('/') || f.contains('\\') || f.starts_with('.') {
            return Err(bad(format!(
                "weight_map entry `{k}` names `{f}`, which is not a file in the model directory"
            )));
        }
        out.insert(k.clone(), f.to_string());
    }
    Ok(out)
}

/// Per file: tensor name -> (dtype, shape, absolute start, absolute end).
type Header = HashMap<String, (safetensors::Dtype, Vec<usize>, usize, usize)>;

fn parse_header(path: &Path, bytes: &[u8]) -> Result<Header, WeightsError> {
    let (header_len, metadata) =
        safetensors::SafeTensors::read_metadata(bytes).map_err(|e| WeightsError::BadFile {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
    let base = 8 + header_len;
    let mut out = HashMap::new();
    let tensors: BTreeMap<String, _> = metadata.tensors().into_iter().collect();
    for (name, info) in tensors {
        let (s, e) = info.data_offsets;
        let (start, end) = (base + s, base + e);
        if end > bytes.len() || start > end {
            return Err(WeightsError::BadFile {
                path: path.to_path_buf(),
                reason: format!("tensor `{name}` data lies outside the file"),
            });
        }
        out.insert(name, (info.dtype, info.shape.clone(), start, end));
    }
    Ok(out)
}
