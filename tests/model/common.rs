//! Helpers shared by the model tests.

use std::path::{Path, PathBuf};

use iree_llm::config::ModelConfig;
use iree_llm::preset::{Preset, synth};
use iree_llm::weights::DType;

/// Path of a fixture config.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/model/fixtures")
        .join(name)
}

pub fn fixture_config(name: &str) -> ModelConfig {
    let text = std::fs::read_to_string(fixture(name)).unwrap();
    ModelConfig::from_json_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A fresh directory holding the `tiny` preset in `dtype`.
pub fn tiny_dir(dtype: DType) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    synth(Preset::Tiny, dtype, dir.path()).unwrap();
    dir
}

/// A tensor to write with [`write_safetensors`].
pub struct RawTensor {
    pub name: String,
    pub dtype: safetensors::Dtype,
    pub shape: Vec<usize>,
    pub data: Vec<u8>,
}

/// Reads every tensor of a safetensors file.
pub fn read_safetensors(path: &Path) -> Vec<RawTensor> {
    let bytes = std::fs::read(path).unwrap();
    let st = safetensors::SafeTensors::deserialize(&bytes).unwrap();
    let mut out: Vec<RawTensor> = st
        .tensors()
        .into_iter()
        .map(|(name, v)| RawTensor {
            name,
            dtype: v.dtype(),
            shape: v.shape().to_vec(),
            data: v.data().to_vec(),
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

pub fn write_safetensors(path: &Path, tensors: &[RawTensor]) {
    let views: Vec<(String, safetensors::tensor::TensorView<'_>)> = tensors
        .iter()
        .map(|t| {
            (
                t.name.clone(),
                safetensors::tensor::TensorView::new(t.dtype, t.shape.clone(), &t.data).unwrap(),
            )
        })
        .collect();
    let meta = Some(std::collections::HashMap::from([(
        "format".to_string(),
        "pt".to_string(),
    )]));
    safetensors::serialize_to_file(views, meta, path).unwrap();
}

pub fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// Standard deviation of a sample.
pub fn std_dev(x: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    (x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n).sqrt()
}

/// Largest minus second-largest value.
pub fn top2_margin(x: &[f64]) -> f64 {
    let mut sorted = x.to_vec();
    sorted.sort_by(|a, b| b.partial_cmp(a).unwrap());
    sorted[0] - sorted[1]
}
