//! The `iree-llm` command line: parses arguments with clap and hands each
//! subcommand to the module that owns the work. This file keeps the entry
//! point, the dispatch and what the runners share; cli/args.rs holds the
//! clap types, cli/commands.rs the runners.

mod args;
mod commands;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use crate::config::ModelConfig;
use crate::runtime;

pub use args::{
    BenchArgs, CarryArgs, Cli, Command, GenerateArgs, GraphBenchArgs, ServeArgs, SynthFormat,
};
use commands::{bench, compile, convert, devices, emit, generate, graph_bench, serve, synth};

/// Progress bars on stderr for slow loading steps.
pub struct Bars {
    bar: std::cell::RefCell<Option<indicatif::ProgressBar>>,
}

impl Bars {
    pub fn new() -> Self {
        Bars {
            bar: std::cell::RefCell::new(None),
        }
    }
}

impl Default for Bars {
    fn default() -> Self {
        Self::new()
    }
}

impl crate::model::LoadProgress for Bars {
    fn begin(&self, stage: &str, total: u64) {
        let style = if stage.contains("upload") {
            "{msg:>18} [{bar:30}] {bytes}/{total_bytes} {elapsed}"
        } else {
            "{msg:>18} [{bar:30}] {pos}/{len} {elapsed}"
        };
        let bar = indicatif::ProgressBar::new(total).with_message(stage.to_string());
        bar.set_style(
            indicatif::ProgressStyle::with_template(style)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        *self.bar.borrow_mut() = Some(bar);
    }
    fn advance(&self, n: u64) {
        if let Some(b) = self.bar.borrow().as_ref() {
            b.inc(n);
        }
    }
    fn end(&self) {
        if let Some(b) = self.bar.borrow_mut().take() {
            b.finish_and_clear();
        }
    }
}

/// The context capacity used when none is given.
pub const DEFAULT_CONTEXT: i64 = 2048;

/// Resolves `--model` to a directory, materializing presets in the cache.
pub fn resolve_model_dir(spec: &str) -> Result<PathBuf, CliError> {
    Ok(crate::preset::resolve_model(
        spec,
        &crate::compile::cache_root().join("presets"),
    )?)
}

/// The context to use: the requested one, else the model's maximum capped
/// at [`DEFAULT_CONTEXT`].
pub fn context_for(config: &ModelConfig, requested: Option<i64>) -> i64 {
    requested.unwrap_or((config.max_position_embeddings as i64).min(DEFAULT_CONTEXT))
}

/// Top-level error: whatever a subcommand reports, shown as its message.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Runtime(#[from] runtime::RuntimeError),
    #[error(transparent)]
    Compile(#[from] crate::compile::CompileError),
    #[error(transparent)]
    Resolve(#[from] crate::preset::ResolveError),
    #[error(transparent)]
    Synth(#[from] crate::preset::SynthError),
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Emit(#[from] crate::emit::EmitError),
    #[error(transparent)]
    Model(#[from] crate::model::ModelError),
    #[error(transparent)]
    Bench(#[from] crate::bench::BenchError),
    #[error(transparent)]
    Tokenizer(#[from] crate::tokenizer::TokenizerError),
    #[error(transparent)]
    Submit(#[from] crate::engine::SubmitError),
    #[error("{0}")]
    Usage(String),
    #[error("generation failed: {0}")]
    Generation(String),
    #[error(transparent)]
    Serve(#[from] crate::serve::ServeError),
    #[error(transparent)]
    Gguf(#[from] crate::gguf::GgufError),
    #[error(transparent)]
    Chat(#[from] crate::serve::chat::ChatError),
}

pub fn main() -> ExitCode {
    init_tracing();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("IREE_LLM_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Devices => devices(),
        Command::Serve(args) => serve(args),
        Command::Compile {
            input,
            device,
            output,
            cuda_arch,
        } => compile(&input, &device, &output, cuda_arch),
        Command::Emit {
            model,
            out,
            batch,
            context,
            weights,
            kernels,
            device,
        } => emit(&model, &out, &batch, context, weights, kernels, &device),
        Command::GraphBench(args) => graph_bench(args),
        Command::Generate(args) => generate(args),
        Command::Bench(args) => bench(args),
        Command::Synth {
            preset,
            out,
            dtype,
            format,
            quant,
        } => synth(preset, &out, dtype, format, quant),
        Command::Convert {
            model,
            out,
            dtype,
            quant,
        } => convert(&model, &out, dtype, quant),
    }
}
