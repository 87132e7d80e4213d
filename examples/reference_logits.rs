//! Prints the f64 reference model's last-token logits and greedy continuation
//! for a model directory (or preset name) and comma-separated token ids, as
//! JSON, e.g. to compare against another implementation:
//!
//! ```text
//! cargo run --release --example reference_logits -- tiny 501,17,300 [n_greedy] [cache_dir]
//! ```
//!
//! A model argument that is not a directory is synthesized as a preset under
//! `cache_dir` (default `target/presets`).

use std::path::PathBuf;

use iree_llm::TokenId;
use iree_llm::config::ModelConfig;
use iree_llm::preset::resolve_model;
use iree_llm::reference::Reference;
use iree_llm::weights::Weights;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        return Err(
            "usage: reference_logits MODEL_DIR_OR_PRESET IDS [N_GREEDY] [CACHE_DIR]".into(),
        );
    }
    let cache = PathBuf::from(args.get(3).map(String::as_str).unwrap_or("target/presets"));
    let dir = resolve_model(&args[0], &cache)?;
    let ids: Vec<TokenId> = args[1]
        .split(',')
        .map(|s| s.trim().parse::<u32>().map(TokenId))
        .collect::<Result<_, _>>()?;
    let n: usize = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(0);
    let cfg = ModelConfig::from_dir(&dir)?;
    let weights = Weights::open(&dir, &cfg)?;
    let r = Reference::new(&cfg, &weights)?;
    let logits = r.logits(&ids)?;
    let greedy = r.greedy(&ids, n)?;
    let out = serde_json::json!({
        "model_dir": dir,
        "logits": logits,
        "greedy": greedy,
    });
    println!("{out}");
    Ok(())
}
