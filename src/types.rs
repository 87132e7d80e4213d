//! Small value types shared across the crate: token ids, slot ids, request ids
//! and device URIs. They exist so that a slot index is never passed where a
//! token id is expected, and so device names are validated in one place.

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
    fn unknown_drivers_are_rejected_with_the_list_of_known_ones() {
        let err = DeviceUri::parse("vulkan").unwrap_err().to_string();
        assert!(
            err.contains("vulkan") && err.contains("local-task"),
            "{err}"
        );
    }
}
