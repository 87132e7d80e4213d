//! Writes a model directory with deterministic random weights, for a preset
//! or for any Llama `config.json`:
//!
//! ```text
//! cargo run --release --example synth_model -- tiny OUT_DIR [f32|f16|bf16] [seed]
//! cargo run --release --example synth_model -- path/to/config.json OUT_DIR bf16 7
//! ```

use std::path::Path;

use iree_llm::config::ModelConfig;
use iree_llm::preset::{Preset, synth_config};
use iree_llm::weights::DType;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        return Err("usage: synth_model PRESET_OR_CONFIG_JSON OUT_DIR [DTYPE] [SEED]".into());
    }
    let (config, default_seed, default_dtype) = match Preset::from_name(&args[0]) {
        Ok(p) => (p.config(), p.seed(), p.default_dtype()),
        Err(_) => (
            ModelConfig::from_json_str(&std::fs::read_to_string(&args[0])?)?,
            0,
            DType::F32,
        ),
    };
    let dtype = match args.get(2) {
        Some(d) => d.parse()?,
        None => default_dtype,
    };
    let seed = match args.get(3) {
        Some(s) => s.parse()?,
        None => default_seed,
    };
    synth_config(&config, seed, dtype, Path::new(&args[1]))?;
    println!("{}", args[1]);
    Ok(())
}
