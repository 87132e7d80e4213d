//! Reading a GGUF file (versions 2 and 3, little-endian): the header, the
//! metadata key/value pairs and the tensor records are parsed eagerly; the
//! tensor data stays in a read-only memory map and is sliced on demand.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::GgufError;
use super::dequant::{self, DequantError};
use super::types::GgmlType;

/// `GGUF` read as a little-endian u32.
pub const MAGIC: u32 = 0x4655_4747;
/// Data alignment when `general.alignment` is absent.
pub const DEFAULT_ALIGNMENT: u64 = 32;

/// One metadata value.
#[derive(Clone, Debug, PartialEq)]
pub enum MetaValue {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
    Bool(bool),
    Str(String),
    Array(Vec<MetaValue>),
}

impl MetaValue {
    /// The GGUF value-type id of this value.
    pub fn type_id(&self) -> u32 {
        match self {
            MetaValue::U8(_) => 0,
            MetaValue::I8(_) => 1,
            MetaValue::U16(_) => 2,
            MetaValue::I16(_) => 3,
            MetaValue::U32(_) => 4,
            MetaValue::I32(_) => 5,
            MetaValue::F32(_) => 6,
            MetaValue::Bool(_) => 7,
            MetaValue::Str(_) => 8,
            MetaValue::Array(_) => 9,
            MetaValue::U64(_) => 10,
            MetaValue::I64(_) => 11,
            MetaValue::F64(_) => 12,
        }
    }

    /// A non-negative integer of any width.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            MetaValue::U8(v) => Some(v.into()),
            MetaValue::U16(v) => Some(v.into()),
            MetaValue::U32(v) => Some(v.into()),
            MetaValue::U64(v) => Some(v),
            MetaValue::I8(v) => u64::try_from(v).ok(),
            MetaValue::I16(v) => u64::try_from(v).ok(),
            MetaValue::I32(v) => u64::try_from(v).ok(),
            MetaValue::I64(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    /// A number of any type. An f32 is widened through its shortest decimal
    /// form, so an `rms_norm_eps` stored as f32 1e-5 reads as 1e-5, not
    /// 9.99999974e-6 (converters write the f64 config value rounded to f32).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            MetaValue::F32(v) => format!("{v}").parse().ok(),
            MetaValue::F64(v) => Some(v),
            _ => self
                .as_u64()
                .map(|v| v as f64)
                .or_else(|| self.as_i64().map(|v| v as f64)),
        }
    }

    fn as_i64(&self) -> Option<i64> {
        match *self {
            MetaValue::I8(v) => Some(v.into()),
            MetaValue::I16(v) => Some(v.into()),
            MetaValue::I32(v) => Some(v.into()),
            MetaValue::I64(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            MetaValue::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            MetaValue::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[MetaValue]> {
        match self {
            MetaValue::Array(a) => Some(a),
            _ => None,
        }
    }
}

/// One tensor record.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorInfo {
    pub name: String,
    /// GGML order: `dims[0]` is the fastest-varying (the row length); the
    /// row-major (PyTorch) shape is this reversed.
    pub dims: Vec<u64>,
    pub ty: GgmlType,
    /// Byte offset from the start of the data section.
    pub offset: u64,
}

impl TensorInfo {
    pub fn num_elements(&self) -> usize {
        self.dims.iter().product::<u64>() as usize
    }

    /// The row-major shape (outermost dimension first), as Hugging Face writes it.
    pub fn shape(&self) -> Vec<usize> {
        self.dims.iter().rev().map(|&d| d as usize).collect()
    }
}

/// A GGUF file, memory-mapped.
pub struct GgufFile {
    path: PathBuf,
    map: Mmap,
    version: u32,
    metadata: BTreeMap<String, MetaValue>,
    tensors: Vec<TensorInfo>,
    by_name: HashMap<String, usize>,
    data_start: usize,
}

impl std::fmt::Debug for GgufFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GgufFile")
            .field("path", &self.path)
            .field("version", &self.version)
            .field("metadata", &self.metadata.len())
            .field("tensors", &self.tensors.len())
            .finish()
    }
}

impl GgufFile {
    /// Maps `path` and parses its header, metadata and tensor records.
    pub fn open(path: &Path) -> Result<Self, GgufError> {
        let io = |source| GgufError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        // Safety: the map is read-only and private to this value; like the
        // safetensors mmap in crate::weights, it assumes nobody truncates the
        // model file while it is being served.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let mut r = Cursor {
            bytes: &map,
            pos: 0,
            path,
        };
        let magic = r.u32()?;
        if magic != MAGIC {
            return Err(GgufError::NotGguf {
                path: path.to_path_buf(),
            });
        }
        let version = r.u32()?;
        if !(2..=3).contains(&version) {
            return Err(GgufError::Version {
                path: path.to_path_buf(),
                version,
            });
        }
        let tensor_count = r.u64()?;
        let kv_count = r.u64()?;
        let mut metadata = BTreeMap::new();
        for _ in 0..kv_count {
            let key = r.string()?;
            let ty = r.u32()?;
            let value = r.value(ty, &key)?;
            metadata.insert(key, value);
        }
        let mut tensors = Vec::with_capacity(tensor_count.min(1 << 16) as usize);
        let mut by_name = HashMap::new();
        for _ in 0..tensor_count {
            let name = r.string()?;
            let n_dims = r.u32()?;
            if n_dims > 8 {
                return Err(r.corrupt(format!("tensor `{name}` claims {n_dims} dimensions")));
            }
            let dims = (0..n_dims)
                .map(|_| r.u64())
                .collect::<Result<Vec<_>, _>>()?;
            let ty = GgmlType(r.u32()?);
            let offset = r.u64()?;
            by_name.insert(name.clone(), tensors.len());
            tensors.push(TensorInfo {
                name,
                dims,
                ty,
                offset,
            });
        }
        let alignment = match metadata.get("general.alignment") {
            None => DEFAULT_ALIGNMENT,
            Some(v) => match v.as_u64() {
                Some(a) if a > 0 && a.is_power_of_two() => a,
                _ => {
                    return Err(r.corrupt(format!("general.alignment {v:?} is not a power of two")));
                }
            },
        };
        let data_start = (r.pos as u64).div_ceil(alignment) * alignment;
        Ok(GgufFile {
            path: path.to_path_buf(),
            version,
            metadata,
            tensors,
            by_name,
            data_start: data_start as usize,
            map,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn version(&self) -> u32 {
        self.version
    }

    pub fn metadata(&self) -> &BTreeMap<String, MetaValue> {
        &self.metadata
    }

    pub fn get(&self, key: &str) -> Option<&MetaValue> {
        self.metadata.get(key)
    }

    pub fn tensors(&self) -> &[TensorInfo] {
        &self.tensors
    }

    pub fn tensor_info(&self, name: &str) -> Option<&TensorInfo> {
        self.by_name.get(name).map(|&i| &self.tensors[i])
    }

    /// The raw bytes of tensor `name`, borrowed from the map.
    pub fn tensor_bytes(&self, name: &str) -> Result<(&TensorInfo, &[u8]), GgufError> {
        let info = self
            .tensor_info(name)
            .ok_or_else(|| GgufError::MissingTensor {
                path: self.path.clone(),
                name: name.to_string(),
            })?;
        let len = dequant::byte_len(info.ty, info.num_elements())
            .map_err(|e| self.tensor_err(info, e))?;
        let start = self.data_start + info.offset as usize;
        let bytes = self
            .map
            .get(start..start + len)
            .ok_or_else(|| GgufError::Corrupt {
                path: self.path.clone(),
                reason: format!("tensor `{name}` runs past the end of the file"),
            })?;
        Ok((info, bytes))
    }

    /// Tensor `name` dequantized to f32, in GGML element order (rows of `dims[0]`).
    pub fn tensor_f32(&self, name: &str) -> Result<Vec<f32>, GgufError> {
        let (info, bytes) = self.tensor_bytes(name)?;
        dequant::dequantize(info.ty, bytes, info.num_elements())
            .map_err(|e| self.tensor_err(info, e))
    }

    fn tensor_err(&self, info: &TensorInfo, source: DequantError) -> GgufError {
        GgufError::Tensor {
            path: self.path.clone(),
            name: info.name.clone(),
            source,
        }
    }
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    path: &'a Path,
}

impl Cursor<'_> {
    fn corrupt(&self, reason: String) -> GgufError {
        GgufError::Corrupt {
            path: self.path.to_path_buf(),
            reason,
        }
    }

    fn take(&mut self, n: usize) -> Result<&[u8], GgufError> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end {
            Some(end) => {
                let s = &self.bytes[self.pos..end];
                self.pos = end;
                Ok(s)
            }
            None => Err(self.corrupt(format!(
                "the header ends early (wanted {n} bytes at offset {})",
                self.pos
            ))),
        }
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], GgufError> {
        Ok(self.take(N)?.try_into().expect("take returns N bytes"))
    }

    fn u32(&mut self) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    fn string(&mut self) -> Result<String, GgufError> {
        let len = self.u64()?;
        let bytes = self.take(usize::try_from(len).unwrap_or(usize::MAX))?;
        // Tokenizer vocabularies hold byte pieces that are not always valid
        // UTF-8 (llama.cpp itself treats them as bytes); keep them lossily.
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }

    fn value(&mut self, ty: u32, key: &str) -> Result<MetaValue, GgufError> {
        Ok(match ty {
            0 => MetaValue::U8(self.array::<1>()?[0]),
            1 => MetaValue::I8(self.array::<1>()?[0] as i8),
            2 => MetaValue::U16(u16::from_le_bytes(self.array()?)),
            3 => MetaValue::I16(i16::from_le_bytes(self.array()?)),
            4 => MetaValue::U32(self.u32()?),
            5 => MetaValue::I32(i32::from_le_bytes(self.array()?)),
            6 => MetaValue::F32(f32::from_le_bytes(self.array()?)),
            7 => MetaValue::Bool(self.array::<1>()?[0] != 0),
            8 => MetaValue::Str(self.string()?),
            9 => {
                let elem = self.u32()?;
                let n = self.u64()?;
                // Each element takes at least one byte: reject counts the file cannot hold.
                if n > (self.bytes.len() - self.pos) as u64 {
                    return Err(self.corrupt(format!("array `{key}` claims {n} elements")));
                }
                let mut items = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    items.push(self.value(elem, key)?);
                }
                MetaValue::Array(items)
            }
            10 => MetaValue::U64(self.u64()?),
            11 => MetaValue::I64(i64::from_le_bytes(self.array()?)),
            12 => MetaValue::F64(f64::from_le_bytes(self.array()?)),
            other => {
                return Err(
                    self.corrupt(format!("metadata `{key}` has unknown value type {other}"))
                );
            }
        })
    }
}
