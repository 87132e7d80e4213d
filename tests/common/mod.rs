//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use iree_llm::compile::{Compiler, ModuleCache, Target};
use iree_llm::types::DeviceKind;

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

pub fn compiler() -> Compiler {
    Compiler::locate().expect("iree-compile must be installed (scripts/bootstrap.sh)")
}

/// The shared module cache of the test suite (under target/, so `cargo clean`
/// resets it). Hits are safe: the key covers text, flags and compiler version.
pub fn test_cache() -> ModuleCache {
    ModuleCache::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("module-cache"))
}

/// Compiles a fixture for the CPU (cached) and returns the module path.
pub fn cpu_module(fixture_name: &str) -> PathBuf {
    let mlir = std::fs::read_to_string(fixture(fixture_name)).unwrap();
    let stem = fixture_name.trim_end_matches(".mlir");
    test_cache()
        .get_or_compile(&compiler(), &Target::new(DeviceKind::Cpu), stem, &mlir)
        .unwrap()
        .path
}
