//! Small value types shared across the crate: token ids, slot ids, request ids,
//! device URIs and the element-type vocabulary ([`DType`]). They exist so that
//! a slot index is never passed where a token id is expected, and so device
//! and element-type names are spelled and validated in one place.

use std::fmt;

/// A token id in the model's vocabulary.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct TokenId(pub u32);

impl TokenId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for TokenId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<u32> for TokenId {
    fn from(v: u32) -> Self {
        TokenId(v)
    }
}

/// Index of a batch slot (a row of the ragged decode graph and its KV cache).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SlotId(pub usize);

impl fmt::Display for SlotId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Identifier the engine hands out for each submitted request.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct RequestId(pub u64);

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The element type of a tensor, wherever it lives: stored weights, graph
/// values and arguments, manifests and device buffers. Every spelling of an
/// element type (MLIR, safetensors, transformers, the C shim) converts from or
/// to this one enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DType {
    F32,
    F16,
    BF16,
    I32,
    /// Signed bytes: the values of block-quantized weights on the device.
    I8,
    /// Booleans: the masks and predicates inside graphs.
    I1,
}

impl DType {
    /// The element types weights may be stored in (and `--dtype` accepts).
    pub const WEIGHTS: [DType; 3] = [DType::F32, DType::F16, DType::BF16];

    /// Bytes per element (an `i1` takes a byte when stored).
    pub fn size_bytes(self) -> usize {
        match self {
            DType::F32 | DType::I32 => 4,
            DType::F16 | DType::BF16 => 2,
            DType::I8 | DType::I1 => 1,
        }
    }

    /// The lower-case name, which is also MLIR's spelling: `f32`, `bf16`, `i1`.
    pub fn name(self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::I32 => "i32",
            DType::I8 => "i8",
            DType::I1 => "i1",
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F16 | DType::BF16)
    }

    /// The name safetensors headers use: `F32`, `BF16`, `I32`, `BOOL`.
    pub fn safetensors_name(self) -> &'static str {
        match self {
            DType::F32 => "F32",
            DType::F16 => "F16",
            DType::BF16 => "BF16",
            DType::I32 => "I32",
            DType::I8 => "I8",
            DType::I1 => "BOOL",
        }
    }

    /// The element type of a safetensors dtype, if it is one of ours.
    pub fn from_safetensors(d: safetensors::Dtype) -> Option<Self> {
        match d {
            safetensors::Dtype::F32 => Some(DType::F32),
            safetensors::Dtype::F16 => Some(DType::F16),
            safetensors::Dtype::BF16 => Some(DType::BF16),
            safetensors::Dtype::I32 => Some(DType::I32),
            safetensors::Dtype::BOOL => Some(DType::I1),
            _ => None,
        }
    }

    /// The name transformers uses in `config.json` (`torch_dtype`).
    pub fn torch_name(self) -> &'static str {
        match self {
            DType::F32 => "float32",
            DType::F16 => "float16",
            DType::BF16 => "bfloat16",
            DType::I32 => "int32",
            DType::I8 => "int8",
            DType::I1 => "bool",
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name given for a weight dtype is not one.
#[derive(Debug, thiserror::Error)]
#[error("unknown dtype '{0}': use f32, f16 or bf16")]
pub struct UnknownDType(pub String);

/// Parses a weight dtype as people write it: `bf16`, `bfloat16`, `F32`, `fp16`.
impl std::str::FromStr for DType {
    type Err = UnknownDType;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "f32" | "float32" | "fp32" => Ok(DType::F32),
            "f16" | "float16" | "fp16" | "half" => Ok(DType::F16),
            "bf16" | "bfloat16" => Ok(DType::BF16),
            _ => Err(UnknownDType(s.to_string())),
        }
    }
}

/// How a block-quantized matrix lives on the device, named after the GGUF
/// type it keeps exactly: every 32 consecutive values of a row share an f16
/// scale `d` (and, for Q4_1, an f16 offset `m`).
/// - `Q8_0`: `q` holds one i8 per value; `w = q * d`.
/// - `Q4_0`, `Q4_1`: `w = (nibble - 8) * d` and `w = nibble * d + m`. `q`
///   holds either the file's own 16 bytes per block ("packed": value `j` in
///   the low nibble of byte `j`, value `j + 16` in its high nibble) or one
///   byte per value ("widened": Q4_0's `nibble - 8`, Q4_1's `nibble`).
///
/// Graphs that call the hand-written CPU kernel take the packed form, which
/// halves the bytes a decode step reads (the kernel unpacks in registers);
/// portable graphs take the widened form, because IREE 3.13's code for the
/// unpacking ran at half the speed of its fused i8 dequantization on AVX2
/// (docs/performance.md). The shape of `q` says which form a graph takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockFormat {
    Q8_0,
    Q4_0,
    Q4_1,
}

/// Values per block of a [`BlockFormat`].
pub const BLOCK: i64 = 32;

impl BlockFormat {
    /// The argument suffixes and element types of one matrix in this format.
    pub fn parts(self) -> &'static [(&'static str, DType)] {
        match self {
            BlockFormat::Q8_0 | BlockFormat::Q4_0 => &[("q", DType::I8), ("d", DType::F16)],
            BlockFormat::Q4_1 => &[("q", DType::I8), ("d", DType::F16), ("m", DType::F16)],
        }
    }

    /// Bytes of `q` per block: one per value, or for the 4-bit formats
    /// when `packed` two values per byte.
    pub fn q_bytes(self, packed: bool) -> i64 {
        if packed && self.is_4bit() {
            BLOCK / 2
        } else {
            BLOCK
        }
    }

    pub fn is_4bit(self) -> bool {
        matches!(self, BlockFormat::Q4_0 | BlockFormat::Q4_1)
    }

    /// Whether the matrix has offsets `m`.
    pub fn has_offset(self) -> bool {
        self == BlockFormat::Q4_1
    }

    /// The format's code in the kernel's calls (csrc/kernels/x86_64_matmul.c).
    pub fn kernel_code(self) -> i64 {
        match self {
            BlockFormat::Q8_0 => 0,
            BlockFormat::Q4_0 => 1,
            BlockFormat::Q4_1 => 2,
        }
    }
}

/// An IREE device URI such as `local-task`, `local-sync`, `cuda`, `cuda://0`
/// or `metal`. The driver part (before `://`) selects the compiler target.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DeviceUri(String);

/// The compiler target family a device needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceKind {
    /// `local-task` and `local-sync`: llvm-cpu code for this host.
    Cpu,
    Cuda,
    Metal,
}

impl DeviceKind {
    pub fn name(self) -> &'static str {
        match self {
            DeviceKind::Cpu => "cpu",
            DeviceKind::Cuda => "cuda",
            DeviceKind::Metal => "metal",
        }
    }
}

/// A device URI was malformed or names a driver this project cannot target.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown device '{0}': use local-task, local-sync, cuda (or cuda://N) or metal; \
     `iree-llm devices` lists what this build can open"
)]
pub struct UnknownDevice(pub String);

impl DeviceUri {
    pub fn parse(s: &str) -> Result<Self, UnknownDevice> {
        let s = s.trim();
        let driver = s.split("://").next().unwrap_or("");
        match driver {
            "local-task" | "local-sync" | "cuda" | "metal" => Ok(DeviceUri(s.to_string())),
            _ => Err(UnknownDevice(s.to_string())),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The HAL driver name, e.g. `cuda` for `cuda://0`.
    pub fn driver(&self) -> &str {
        self.0.split("://").next().unwrap_or(&self.0)
    }

    pub fn kind(&self) -> DeviceKind {
        match self.driver() {
            "cuda" => DeviceKind::Cuda,
            "metal" => DeviceKind::Metal,
            _ => DeviceKind::Cpu,
        }
    }
}

impl std::str::FromStr for DeviceUri {
    type Err = UnknownDevice;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DeviceUri::parse(s)
    }
}

impl fmt::Display for DeviceUri {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_uris_map_to_compiler_targets() {
        assert_eq!(
            DeviceUri::parse("local-task").unwrap().kind(),
            DeviceKind::Cpu
        );
        assert_eq!(
            DeviceUri::parse("local-sync").unwrap().kind(),
            DeviceKind::Cpu
        );
        assert_eq!(
            DeviceUri::parse("cuda://0").unwrap().kind(),
            DeviceKind::Cuda
        );
        assert_eq!(DeviceUri::parse("cuda://0").unwrap().driver(), "cuda");
        assert_eq!(DeviceUri::parse("metal").unwrap().kind(), DeviceKind::Metal);
    }

    #[test]
    fn every_spelling_of_an_element_type_names_the_same_one() {
        for d in [DType::F32, DType::F16, DType::BF16, DType::I32, DType::I1] {
            let st: safetensors::Dtype =
                serde_json::from_value(serde_json::json!(d.safetensors_name())).unwrap();
            assert_eq!(DType::from_safetensors(st), Some(d));
            assert_eq!(serde_json::to_value(d).unwrap(), d.name());
        }
        for d in DType::WEIGHTS {
            assert_eq!(d.name().parse::<DType>().unwrap(), d);
            assert_eq!(d.torch_name().parse::<DType>().unwrap(), d);
        }
        assert_eq!(DType::BF16.size_bytes(), 2);
        assert!("i32".parse::<DType>().is_err(), "i32 is not a weight dtype");
    }

    #[test]
    fn unknown_drivers_are_rejected_with_the_list_of_known_ones() {
        let err = DeviceUri::parse("vulkan").unwrap_err().to_string();
        assert!(
            err.contains("vulkan") && err.contains("local-task"),
            "{err}"
        );
    }
}
