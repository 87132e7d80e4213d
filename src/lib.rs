//! iree-llm: serve Llama-family language models through StableHLO and IREE.
//!
//! Data flows one way through the modules:
//! `config` (+ `checkpoint`, its tensor list) + `weights` -> `emit` (StableHLO graphs) -> `compile` (IREE modules)
//! -> `runtime` (device sessions) -> `model` (a model resident on a device)
//! -> `engine` (continuous batching, with the host `sampler`) -> `serve`
//! (OpenAI-compatible HTTP) and `cli`.
//!
//! Unsafe code is denied crate-wide. The exceptions, each a single narrow
//! site with its safety argument: `runtime::sys` (the FFI to the C shim),
//! the read-only memory map of weight files in `weights`, and the call into
//! the AVX2 copies of the sampler's kernels after checking the CPU has AVX2.
#![deny(unsafe_code)]

pub mod bandwidth;
pub mod bench;
pub mod checkpoint;
pub mod cli;
pub mod compile;
pub mod config;
pub mod emit;
pub mod engine;
pub mod files;
pub mod fit;
pub mod gguf;
pub mod model;
pub mod preset;
pub mod reference;
pub mod runtime;
pub mod sampler;
pub mod serve;
pub mod tokenizer;
pub mod types;
pub mod weights;

pub use types::{DType, DeviceKind, DeviceUri, RequestId, SlotId, TokenId};
