//! Specification tests for the model-loading side: configs of real model
//! families, safetensors weights, built-in presets, the tokenizer wrapper and
//! the f64 reference forward pass. One test binary, so the crate links once.

mod common;
mod config;
mod preset;
mod reference;
mod tokenizer;
mod weights;
