//! iree-llm: serve Llama-family language models through StableHLO and IREE.
//!
//! Data flows one way through the modules:
//! `config` + `weights` -> `emit` (StableHLO graphs) -> `compile` (IREE modules)
//! -> `runtime` (device sessions) -> `engine` (continuous batching, with the host
//! `sampler`) -> `serve` (OpenAI-compatible HTTP) and `cli`.

pub mod runtime;
pub mod sampler;
pub mod types;

pub use types::{DeviceKind, DeviceUri, RequestId, SlotId, TokenId};
