//! The `iree-llm` command line: parses arguments with clap and hands each
//! subcommand to the module that owns the work.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::compile::{Compiler, Target};
use crate::config::ModelConfig;
use crate::emit::{EmitPlan, LlamaShape};
use crate::preset::Preset;
use crate::runtime::{self, Instance};
use crate::types::DType;
use crate::types::DeviceUri;

#[derive(Parser, Debug)]
#[command(
    name = "iree-llm",
    version,
    about = "Serve Llama-family models through StableHLO and IREE"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// List the HAL drivers compiled into this build and which devices open now.
    Devices,
    /// Serve one model over an OpenAI-compatible HTTP API (see docs/serving.md).
    Serve(ServeArgs),
    /// Compile one StableHLO MLIR file to an IREE module (.vmfb).
    Compile {
        /// Input .mlir file.
        input: PathBuf,
        /// Device to compile for: local-task, local-sync, cuda, metal.
        #[arg(long, default_value = "local-task")]
        device: DeviceUri,
        /// Output .vmfb path.
        #[arg(short, long)]
        output: PathBuf,
        /// CUDA architecture (default sm_80, which also runs on Hopper).
        #[arg(long)]
        cuda_arch: Option<String>,
    },
    /// Write the StableHLO graphs of a model and their manifest to a directory.
    Emit {
        /// A preset name (tiny, llama-3.2-1b) or a Hugging Face model directory.
        #[arg(long)]
        model: String,
        /// Output directory (created if needed).
        #[arg(long)]
        out: PathBuf,
        /// Batch sizes of the ragged decode graphs.
        #[arg(long, value_delimiter = ',', default_value = "4,8")]
        batch: Vec<i64>,
        /// Context capacity per slot in tokens (default: the model's maximum, at most 2048).
        #[arg(long)]
        context: Option<i64>,
        /// Weights on the device: native (the checkpoint's dtype, widened
        /// inside the graphs) or f32.
        #[arg(long, default_value = "native")]
        weights: crate::model::DeviceWeights,
        /// Hand-written kernels the graphs call for a quantized file's block
        /// matrices and for bf16 weights: portable (StableHLO only, lowers for every target),
        /// x86-64 (AVX2; 4-bit values stay packed; the kernel object is
        /// written next to the graphs; compile with
        /// --iree-hal-executable-object-search-path=OUT), x86-64-q8 (the
        /// same, with activations rounded to 8 bits per block of 32 as
        /// llama.cpp does, every product over block weights laid out 16
        /// rows side by side, through AVX512-VNNI or AVX2, whichever this
        /// CPU has: faster, not exact) or x86-64-bf16 (bf16
        /// weights times activations rounded to bf16 with AVX512-BF16;
        /// faster, not exact; the modules run only on such CPUs).
        #[arg(long, default_value = "portable")]
        kernels: crate::emit::Kernels,
        /// Device the graphs are for: the forms of products and attention
        /// are the ones iree-llm compiles for it (local-task and local-sync:
        /// the CPU's; cuda: a hand-written kernel for few-row products,
        /// prompts as bf16 terms for the matrix units, decode attention as
        /// matrix-vector products).
        #[arg(long, default_value = "local-task")]
        device: DeviceUri,
    },
    /// Generate text from a prompt, streaming it to stdout.
    Generate(GenerateArgs),
    /// Greedy parity and speed: the batch engine against the single-sequence
    /// argmax path, and optionally across devices.
    Bench(BenchArgs),
    /// Time the graphs of a model on a device: compile, prefill, decode step, peak memory.
    GraphBench(GraphBenchArgs),
    /// Write a built-in preset as a Hugging Face model directory or a GGUF file.
    Synth {
        /// tiny or llama-3.2-1b.
        #[arg(long)]
        preset: Preset,
        /// Output directory (hf) or file (gguf).
        #[arg(long)]
        out: PathBuf,
        /// Weight dtype: f32, f16 or bf16 (default: the preset's).
        #[arg(long)]
        dtype: Option<DType>,
        /// hf: a Hugging Face model directory; gguf: one GGUF file that llama.cpp loads.
        #[arg(long, value_enum, default_value = "hf")]
        format: SynthFormat,
        /// With --format gguf: quantize every matrix (the embedding too) to
        /// q8_0, q4_0 or q4_1 blocks, as llama.cpp's llama-quantize would.
        #[arg(long, value_enum)]
        quant: Option<crate::gguf::Quant>,
    },
    /// Write a Hugging Face model directory (or a preset) as one GGUF file,
    /// its matrices quantized with --quant: the 8-bit kernels then read Q8_0
    /// blocks where a bf16 checkpoint would stream twice the bytes.
    Convert {
        /// A Hugging Face model directory or a preset name (tiny, llama-3.2-1b).
        #[arg(long)]
        model: String,
        /// The GGUF file to write (its name must end in .gguf).
        #[arg(long)]
        out: PathBuf,
        /// Without --quant: the matrices' dtype, f32, f16 or bf16 (default:
        /// the checkpoint's own, so nothing is rounded).
        #[arg(long)]
        dtype: Option<DType>,
        /// Quantize every matrix (the embedding too) to q8_0, q4_0 or q4_1
        /// blocks, as llama.cpp's llama-quantize would.
        #[arg(long, value_enum)]
        quant: Option<crate::gguf::Quant>,
    },
}

/// Arguments of `iree-llm serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// A preset name (tiny, llama-3.2-1b) or a Hugging Face model directory.
    #[arg(long)]
    pub model: String,
    #[arg(long, default_value = "local-task")]
    pub device: DeviceUri,
    /// Slots of the continuous-batching engine: 4 or 8.
    #[arg(long, default_value_t = 4, value_parser = parse_batch)]
    pub batch: usize,
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Require `Authorization: Bearer KEY` on the /v1 endpoints (not empty).
    #[arg(long, value_parser = parse_api_key)]
    pub api_key: Option<String>,
    /// Context capacity per slot in tokens (default: the model's maximum, at most 2048).
    #[arg(long)]
    pub context: Option<i64>,
    /// Most requests waiting for a slot; more are answered 429 (at least 1).
    #[arg(long, default_value_t = 256, value_parser = parse_positive)]
    pub max_queue: usize,
    /// Most prompt tokens prefilled per engine step while other slots
    /// generate (the largest prefill chunk): a generating request waits for
    /// at most one such chunk between two tokens.
    #[arg(long, default_value_t = crate::emit::DEFAULT_MAX_CHUNK, value_parser = parse_positive)]
    pub max_chunk: usize,
    #[command(flatten)]
    pub carry: CarryArgs,
    /// Weights on the device: native (the checkpoint's dtype, widened
    /// inside the graphs) or f32.
    #[arg(long, default_value = "native")]
    pub weights: crate::model::DeviceWeights,
    /// Seconds a client has to send a request's head (also bounds an idle
    /// connection waiting for its next request).
    #[arg(long, default_value = "10", value_parser = parse_seconds)]
    pub header_timeout: Duration,
    /// Seconds a client has to send a request's whole body.
    #[arg(long, default_value = "30", value_parser = parse_seconds)]
    pub body_timeout: Duration,
    /// Seconds an idle keep-alive connection stays open.
    #[arg(long, default_value = "5", value_parser = parse_seconds)]
    pub keep_alive_timeout: Duration,
    /// Connections open at once; more wait until one closes.
    #[arg(long, default_value_t = 512, value_parser = parse_positive)]
    pub max_connections: usize,
    /// Seconds running requests may go on after SIGTERM/Ctrl-C before they
    /// are cancelled (0: at once).
    #[arg(long, default_value = "30", value_parser = parse_drain_seconds)]
    pub drain_timeout: Duration,
    /// Host names served besides localhost, 127.x and [::1] (comma-separated;
    /// `*`: any). Default: loopback names when bound to loopback, else any.
    #[arg(long, value_delimiter = ',')]
    pub allowed_hosts: Option<Vec<String>>,
}

fn parse_api_key(s: &str) -> Result<String, String> {
    if s.trim().is_empty() {
        return Err("the API key is empty, which would lock every client out; \
                    give a key, or leave out --api-key to serve without one"
            .into());
    }
    Ok(s.to_string())
}

fn parse_positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(0) => Err("must be at least 1 (0 would refuse every request)".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(format!("not a count: {e}")),
    }
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match parse_drain_seconds(s)? {
        d if d.is_zero() => Err("must be more than 0 seconds".into()),
        d => Ok(d),
    }
}

fn parse_drain_seconds(s: &str) -> Result<Duration, String> {
    s.parse::<f64>()
        .ok()
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .ok_or_else(|| format!("not a number of seconds: {s}"))
}

/// How the batch engine of `serve` and `bench` admits prompts while slots
/// generate.
#[derive(clap::Args, Debug)]
pub struct CarryArgs {
    /// While slots generate, prefill prompts in small chunks that ride in
    /// the running slots' decode calls (one call for both) instead of in
    /// calls of their own; compiles a decode+chunk graph per carried chunk
    /// size and window at startup.
    #[arg(long)]
    pub carry_chunks: bool,
    /// The largest chunk a decode call carries with --carry-chunks.
    #[arg(long, default_value_t = crate::emit::DEFAULT_CARRIED_CHUNK, value_parser = parse_positive)]
    pub carried_chunk: usize,
    /// With --carry-chunks, the default: one cache slot more than the
    /// batch, which the next prompt is prefilled into while every slot
    /// generates, so that a slot that ends starts the next request at once.
    /// Given after --no-spare-slot, it wins.
    #[arg(long, requires = "carry_chunks", overrides_with = "no_spare_slot")]
    spare_slot: bool,
    /// With --carry-chunks: no spare slot (one slot's cache less, and the
    /// decode graphs over the batch's slots only).
    #[arg(long, requires = "carry_chunks", overrides_with = "spare_slot")]
    no_spare_slot: bool,
    /// Prefill every prompt whole. By default a prompt that starts with
    /// what a free slot's cache still holds (an earlier turn of the same
    /// conversation, a shared system prompt) goes into that slot and is
    /// prefilled from where they differ.
    #[arg(long)]
    pub no_prefix_reuse: bool,
}

impl CarryArgs {
    /// Whether the engine takes the spare slot (it uses one only when it
    /// carries chunks): unless `--no-spare-slot` was the last word.
    pub fn spare_slot(&self) -> bool {
        !self.no_spare_slot
    }
}

/// Arguments of `iree-llm bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[arg(long)]
    pub model: String,
    #[arg(long, default_value = "local-task")]
    pub device: DeviceUri,
    /// Run on several devices and compare their token streams, e.g.
    /// local-task,local-sync,cuda (the first is the baseline).
    #[arg(long, value_delimiter = ',')]
    pub devices: Option<Vec<DeviceUri>>,
    /// Slots of the batch engine (4 or 8).
    #[arg(long, default_value_t = 4)]
    pub batch: usize,
    #[arg(long, default_value_t = 16)]
    pub requests: usize,
    /// The largest max_tokens of a request (caps vary between K/2 and K).
    #[arg(long, default_value_t = 32)]
    pub max_tokens: usize,
    /// Context capacity (default: enough for the longest request, rounded up to a power of two).
    #[arg(long)]
    pub context: Option<i64>,
    /// Skip the single-sequence parity run.
    #[arg(long)]
    pub no_parity: bool,
    /// Most prompt tokens prefilled per engine step while other slots
    /// generate (the largest prefill chunk).
    #[arg(long, default_value_t = crate::emit::DEFAULT_MAX_CHUNK, value_parser = parse_positive)]
    pub max_chunk: usize,
    #[command(flatten)]
    pub carry: CarryArgs,
    /// Every prompt starts with the same this many tokens, as a chat
    /// template's system prompt does (what prefix reuse saves).
    #[arg(long, default_value_t = 0)]
    pub shared_prefix: usize,
    /// Weights on the device: native (the checkpoint's dtype, widened
    /// inside the graphs) or f32.
    #[arg(long, default_value = "native")]
    pub weights: crate::model::DeviceWeights,
}

/// Arguments of `iree-llm graph-bench`.
#[derive(clap::Args, Debug)]
pub struct GraphBenchArgs {
    #[arg(long)]
    pub model: String,
    #[arg(long, default_value = "local-task")]
    pub device: DeviceUri,
    /// Context capacity per slot.
    #[arg(long, default_value_t = 2048)]
    pub context: i64,
    #[arg(long, value_delimiter = ',', default_value = "4,8")]
    pub batch: Vec<i64>,
    /// Prompt lengths to time prefill for; `--prefill` with no lengths
    /// times decode alone (and loads no prompt graphs).
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "16,256")]
    pub prefill: Vec<usize>,
    /// Timed repetitions of each measurement (the median is reported).
    #[arg(long, default_value_t = 5)]
    pub iterations: usize,
    /// Position of every row in the decode measurement.
    #[arg(long, default_value_t = 128)]
    pub position: usize,
    /// Weights on the device: native (the checkpoint's dtype, widened
    /// inside the graphs) or f32.
    #[arg(long, default_value = "native")]
    pub weights: crate::model::DeviceWeights,
    /// Also time a decode step sampled on the host (logits read back)
    /// against one sampled on the device (token ids read back).
    #[arg(long)]
    pub sampling: bool,
    /// Memory bandwidth in GB/s for the decode floors instead of the
    /// built-in probe, which reads host memory: on a GPU give the device's
    /// measured figure (scripts/torch_compare.sh --device cuda does).
    /// Without it, steps on a GPU are printed with no floor.
    #[arg(long, value_parser = parse_gbps)]
    pub bandwidth_gbps: Option<f64>,
    /// Also time a decode step carrying a prompt's chunk of each of these
    /// sizes against a plain step (what `--carry-chunks` costs running
    /// slots), e.g. 8,16.
    #[arg(long, value_delimiter = ',')]
    pub carry: Vec<usize>,
}

fn parse_gbps(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        Ok(_) => Err("must be a bandwidth above 0 GB/s".into()),
        Err(e) => Err(format!("not a number of GB/s: {e}")),
    }
}

/// Arguments of `iree-llm generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// A preset name (tiny, smollm2-135m, llama-3.2-1b), a Hugging Face model
    /// directory or a .gguf file.
    #[arg(long)]
    pub model: String,
    /// The prompt text (encoded with the model's tokenizer), continued as is.
    #[arg(
        long,
        required_unless_present_any = ["prompt_ids", "chat"],
        conflicts_with_all = ["prompt_ids", "chat"]
    )]
    pub prompt: Option<String>,
    /// The prompt as token ids, e.g. 1,2,3 (no tokenizer needed).
    #[arg(long, value_delimiter = ',', conflicts_with = "chat")]
    pub prompt_ids: Option<Vec<u32>>,
    /// A user message, rendered with the model's chat template (as the server
    /// does); the reply ends at the model's end-of-turn token.
    #[arg(long)]
    pub chat: Option<String>,
    /// A system message before --chat's user message.
    #[arg(long, requires = "chat")]
    pub system: Option<String>,
    /// Write the generated token ids (space-separated) instead of their text,
    /// e.g. to compare greedy streams with another engine.
    #[arg(long)]
    pub ids: bool,
    #[arg(long, default_value = "local-task")]
    pub device: DeviceUri,
    /// 0 (the default) decodes greedily.
    #[arg(long, default_value_t = 0.0)]
    pub temperature: f32,
    /// Keep the k most likely tokens (0 = off).
    #[arg(long, default_value_t = 0)]
    pub top_k: usize,
    /// Keep the smallest set of tokens whose probability reaches p (1 = off).
    #[arg(long, default_value_t = 1.0)]
    pub top_p: f32,
    /// Keep tokens at least min_p times as likely as the most likely (0 = off).
    #[arg(long, default_value_t = 0.0)]
    pub min_p: f32,
    /// Seed of the random draws; printed at the end when not given.
    #[arg(long)]
    pub seed: Option<u64>,
    #[arg(long, default_value_t = 64)]
    pub max_tokens: usize,
    /// Context capacity in tokens (default: the model's maximum, at most 2048).
    #[arg(long)]
    pub context: Option<i64>,
    /// Weights on the device: native (the checkpoint's dtype, widened
    /// inside the graphs) or f32.
    #[arg(long, default_value = "native")]
    pub weights: crate::model::DeviceWeights,
}

fn parse_batch(s: &str) -> Result<usize, String> {
    match s {
        "4" => Ok(4),
        "8" => Ok(8),
        _ => Err(format!("the batch must be 4 or 8, got {s}")),
    }
}

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

/// The file layout `iree-llm synth` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SynthFormat {
    Hf,
    Gguf,
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

fn compile(
    input: &std::path::Path,
    device: &DeviceUri,
    output: &std::path::Path,
    cuda_arch: Option<String>,
) -> Result<(), CliError> {
    let compiler = Compiler::locate()?;
    let mut target = Target::new(device.kind());
    if let Some(arch) = cuda_arch {
        target.cuda_arch = arch;
    }
    let start = std::time::Instant::now();
    compiler.compile_file(input, &target, output)?;
    eprintln!(
        "compiled {} for {} in {:.2}s -> {}",
        input.display(),
        target.label(),
        start.elapsed().as_secs_f64(),
        output.display()
    );
    Ok(())
}

fn graph_bench(args: GraphBenchArgs) -> Result<(), CliError> {
    let dir = resolve_model_dir(&args.model)?;
    let opts = crate::bench::GraphBenchOptions {
        device: args.device,
        weights: args.weights,
        capacity: args.context,
        batches: args.batch,
        prefill_lengths: args.prefill,
        iterations: args.iterations.max(1),
        decode_position: args.position,
        sampling: args.sampling,
        bandwidth_gbps: args.bandwidth_gbps,
        carry: args.carry,
    };
    println!(
        "graph-bench: model {}, device {}, context {}",
        args.model, opts.device, args.context
    );
    let report =
        crate::bench::graph_bench(&dir, &opts, &Bars::new(), &mut |line| println!("{line}"))?;
    println!("peak resident memory: {:.2} GiB", report.peak_rss_gib);
    println!("{}", serde_json::to_string(&report).unwrap_or_default());
    Ok(())
}

fn bench(args: BenchArgs) -> Result<(), CliError> {
    let dir = resolve_model_dir(&args.model)?;
    let config = ModelConfig::from_dir(&dir)?;
    let needed = (64 + args.max_tokens).next_power_of_two() as i64;
    let capacity = args
        .context
        .unwrap_or(needed.min(config.max_position_embeddings as i64));
    let opts = crate::bench::EngineBenchOptions {
        devices: args.devices.unwrap_or_else(|| vec![args.device]),
        weights: args.weights,
        batch: args.batch,
        requests: args.requests,
        max_tokens: args.max_tokens,
        capacity,
        single_parity: !args.no_parity,
        max_chunk: args.max_chunk,
        decode_chunks: args.carry.carry_chunks,
        carried_chunk: args.carry.carried_chunk,
        spare_slot: args.carry.spare_slot(),
        prefix_reuse: !args.carry.no_prefix_reuse,
        shared_prefix: args.shared_prefix,
    };
    println!(
        "bench: model {}, batch {}, {} requests, max_tokens {}, context {capacity}",
        args.model, args.batch, args.requests, args.max_tokens
    );
    let line = crate::bench::engine_bench(&dir, &opts, &Bars::new(), &mut |l| println!("{l}"))?;
    println!("{}", serde_json::to_string(&line).unwrap_or_default());
    Ok(())
}

fn synth(
    preset: Preset,
    out: &std::path::Path,
    dtype: Option<DType>,
    format: SynthFormat,
    quant: Option<crate::gguf::Quant>,
) -> Result<(), CliError> {
    let dtype = dtype.unwrap_or(preset.default_dtype());
    match format {
        SynthFormat::Hf if quant.is_some() => {
            return Err(CliError::Usage(
                "--quant writes GGUF blocks; add --format gguf".into(),
            ));
        }
        SynthFormat::Hf => crate::preset::synth(preset, dtype, out)?,
        SynthFormat::Gguf => {
            // Converted from the cached HF directory of the same dtype, so
            // both formats hold the same values.
            let dir = crate::preset::materialize_with(
                preset,
                dtype,
                &crate::compile::cache_root().join("presets"),
            )?;
            match quant {
                Some(q) => crate::gguf::export_hf_dir_quantized(&dir, dtype, q, out)?,
                None => crate::gguf::export_hf_dir(&dir, dtype, out)?,
            }
        }
    }
    let quantized = quant.map_or(String::new(), |q| format!(", matrices in {}", q.name()));
    eprintln!(
        "wrote preset {preset} ({}{quantized}) to {}",
        dtype.name(),
        out.display()
    );
    Ok(())
}

fn convert(
    model: &str,
    out: &std::path::Path,
    dtype: Option<DType>,
    quant: Option<crate::gguf::Quant>,
) -> Result<(), CliError> {
    if !crate::gguf::is_gguf_path(out) {
        return Err(CliError::Usage(format!(
            "--out {}: name the file *.gguf (the other commands recognize GGUF files by that extension)",
            out.display()
        )));
    }
    if dtype.is_some() && quant.is_some() {
        return Err(CliError::Usage(
            "--dtype sets unquantized matrices; with --quant every matrix is in blocks: give one of them"
                .into(),
        ));
    }
    let dir = resolve_model_dir(model)?;
    if !dir.is_dir() {
        return Err(CliError::Usage(format!(
            "--model {model}: already a GGUF file; convert reads a Hugging Face directory \
             (config.json and safetensors) or a preset"
        )));
    }
    let read_as = crate::gguf::convert_hf_dir(&dir, dtype, quant, out)?;
    let form = quant.map_or_else(
        || read_as.name().to_string(),
        |q| format!("matrices in {}", q.name()),
    );
    eprintln!("wrote {} ({form}) to {}", dir.display(), out.display());
    Ok(())
}

fn emit(
    model: &str,
    out: &std::path::Path,
    batch: &[i64],
    context: Option<i64>,
    weights: crate::model::DeviceWeights,
    kernels: crate::emit::Kernels,
    device: &DeviceUri,
) -> Result<(), CliError> {
    let kind = device.kind();
    if kind != crate::types::DeviceKind::Cpu && !kernels.is_portable() {
        return Err(CliError::Usage(format!(
            "--kernels {} links x86-64 code, which runs only on a CPU device; \
             leave --kernels out (portable) for --device {}",
            kernels.describe(),
            device.as_str()
        )));
    }
    let dir = resolve_model_dir(model)?;
    let config = ModelConfig::from_dir(&dir)?;
    // Only native placement needs the checkpoint's dtype and blocks.
    let (stored, blocks) = match weights {
        crate::model::DeviceWeights::F32 => (DType::F32, Default::default()),
        crate::model::DeviceWeights::Native => {
            let w = crate::weights::Weights::open(&dir, &config)
                .map_err(crate::model::ModelError::from)?;
            (w.dtype(), w.block_formats())
        }
    };
    let elem = weights.dtype(stored);
    let mut plan = EmitPlan::new(context_for(&config, context), batch)?
        .with_weights(elem)
        .with_forms_for(kind);
    plan.blocks = blocks;
    plan.kernels = kernels;
    plan.kv_cache = crate::emit::kv_cache_from_env();
    plan.check(&config)?;
    let manifest = crate::emit::write_dir(&LlamaShape::from(&config), &plan, out)?;
    eprintln!(
        "wrote {} graphs and manifest.json to {} (context {}, batches {:?}, prefill buckets {:?})",
        manifest.functions.len(),
        out.display(),
        plan.capacity,
        plan.batches,
        plan.prefill_buckets
    );
    Ok(())
}

/// `iree-llm generate`: one prompt through a one-slot batch engine, streamed to
/// stdout, with a timing line on stderr.
fn generate(args: GenerateArgs) -> Result<(), CliError> {
    use crate::emit::GraphUse;
    use crate::engine::{BatchEngine, BatchOptions, Engine, Request};
    use crate::model::{DeviceModel, LoadOptions};

    let params = crate::sampler::SampleParams {
        temperature: args.temperature,
        top_k: args.top_k,
        top_p: args.top_p,
        min_p: args.min_p,
        seed: args.seed,
    };
    params
        .validate()
        .map_err(crate::engine::SubmitError::from)?;
    let dir = resolve_model_dir(&args.model)?;
    let config = ModelConfig::from_dir(&dir)?;
    let tokenizer = if crate::tokenizer::Tokenizer::exists_in(&dir) {
        Some(crate::tokenizer::Tokenizer::from_dir(&dir)?)
    } else {
        None
    };
    let tokens = match &args.chat {
        Some(user) => chat_tokens(&dir, args.system.as_deref(), user, tokenizer.as_ref())?,
        None => prompt_tokens(&dir, args.prompt, args.prompt_ids, tokenizer.as_ref())?,
    };
    // One slot: a single prompt gains nothing from more, and in portable
    // graphs only one row reads a quantized file's blocks, not their f32 copy.
    let batch = 1;
    let plan = EmitPlan::new(context_for(&config, args.context), &[batch])?;
    plan.check(&config)?;
    let use_ = GraphUse::Prompt {
        batch,
        prompt: tokens.len(),
        max_new: args.max_tokens,
    };
    let mut opts = LoadOptions::for_use(args.device, plan, &use_);
    opts.compile_on_demand = true;
    opts.device_weights = args.weights;
    let instance = crate::runtime::Instance::new()?;
    let model = DeviceModel::load(&instance, &dir, &opts, &Bars::new())?;
    let mut engine = BatchEngine::new(
        model,
        BatchOptions {
            batch: batch as usize,
            max_queue: 1,
            // One request: no slot runs while its prompt is prefilled.
            decode_chunks: false,
            ..Default::default()
        },
    )?;

    let start = std::time::Instant::now();
    engine.submit(Request {
        prompt: tokens.clone(),
        params,
        max_tokens: args.max_tokens,
        stop_tokens: Vec::new(),
        logit: Default::default(),
    })?;
    let text = tokenizer.as_ref().filter(|_| !args.ids);
    let done = stream_to_stdout(&mut engine, text, start)?;
    let elapsed = start.elapsed().as_secs_f64();
    let ttft = done
        .first_token
        .map(|d| d.as_secs_f64() * 1e3)
        .unwrap_or(0.0);
    let decode_rate = if done.generated > 1 {
        (done.generated - 1) as f64 / (elapsed - ttft / 1e3).max(1e-9)
    } else {
        0.0
    };
    eprintln!(
        "[{} prompt tokens, {} generated, finish: {}, seed {}; first token after {ttft:.0} ms, then {decode_rate:.1} tokens/s]",
        tokens.len(),
        done.generated,
        done.reason.as_str(),
        done.seed,
    );
    Ok(())
}

/// The prompt as token ids: given as ids, or text encoded with the model's tokenizer.
fn prompt_tokens(
    dir: &std::path::Path,
    prompt: Option<String>,
    prompt_ids: Option<Vec<u32>>,
    tokenizer: Option<&crate::tokenizer::Tokenizer>,
) -> Result<Vec<crate::TokenId>, CliError> {
    match (prompt, prompt_ids) {
        (_, Some(ids)) => Ok(ids.into_iter().map(crate::TokenId).collect()),
        (Some(text), None) => match tokenizer {
            Some(t) => Ok(t.encode(&text, true)?),
            None => Err(CliError::Usage(format!(
                "{} has no tokenizer.json; give the prompt as --prompt-ids",
                dir.display()
            ))),
        },
        (None, None) => Err(CliError::Usage("give --prompt or --prompt-ids".into())),
    }
}

/// A one-turn chat (optional system message, then `user`) rendered with the
/// model's chat template, or the server's fallback format without one.
fn chat_tokens(
    dir: &std::path::Path,
    system: Option<&str>,
    user: &str,
    tokenizer: Option<&crate::tokenizer::Tokenizer>,
) -> Result<Vec<crate::TokenId>, CliError> {
    use crate::serve::chat::{ChatFormatter, Message};
    let Some(tokenizer) = tokenizer else {
        return Err(CliError::Usage(format!(
            "{} has no tokenizer, so --chat cannot be encoded; give --prompt-ids",
            dir.display()
        )));
    };
    let message = |role: &str, content: &str| Message {
        role: role.into(),
        content: content.into(),
        name: None,
    };
    let mut messages: Vec<Message> = system.map(|s| message("system", s)).into_iter().collect();
    messages.push(message("user", user));
    let prompt = ChatFormatter::new(tokenizer.config())?.render(&messages)?;
    Ok(tokenizer.encode(&prompt.text, prompt.add_special_tokens)?)
}

/// How a streamed generation ended.
struct Streamed {
    reason: crate::engine::FinishReason,
    generated: usize,
    seed: u64,
    first_token: Option<std::time::Duration>,
}

/// Steps `engine` until its one request finishes, writing each token's text
/// (or its id, without a tokenizer) to stdout as it arrives.
fn stream_to_stdout(
    engine: &mut dyn crate::engine::Engine,
    tokenizer: Option<&crate::tokenizer::Tokenizer>,
    start: std::time::Instant,
) -> Result<Streamed, CliError> {
    use crate::engine::Event;
    use std::io::Write;

    let mut decoder = tokenizer.map(|t| t.stream_decoder());
    let mut out = std::io::stdout().lock();
    let mut first_token = None;
    loop {
        for event in engine.step() {
            match event {
                Event::Prefilled { .. } => {}
                Event::Token { token, .. } => {
                    first_token.get_or_insert_with(|| start.elapsed());
                    let text = match decoder.as_mut() {
                        Some(d) => d.step(token)?.unwrap_or_default(),
                        None => format!("{} ", token.0),
                    };
                    let _ = out.write_all(text.as_bytes());
                    let _ = out.flush();
                }
                Event::Finished {
                    reason,
                    generated,
                    seed,
                    message,
                    ..
                } => {
                    if let Some(d) = decoder.as_mut() {
                        let _ = out.write_all(d.finish()?.as_bytes());
                    }
                    let _ = writeln!(out);
                    if let Some(message) = message {
                        return Err(CliError::Generation(message));
                    }
                    return Ok(Streamed {
                        reason,
                        generated,
                        seed,
                        first_token,
                    });
                }
            }
        }
    }
}

/// `iree-llm serve`: loads the model into a batch engine and serves it until
/// Ctrl-C or SIGTERM.
fn serve(args: ServeArgs) -> Result<(), CliError> {
    use crate::serve::{ServeError, ServeOptions, Server};
    let dir = resolve_model_dir(&args.model)?;
    let config = ModelConfig::from_dir(&dir)?;
    let tokenizer = crate::tokenizer::Tokenizer::from_dir(&dir)?;
    let context = context_for(&config, args.context);
    let opts = crate::engine::BatchOptions {
        batch: args.batch,
        max_queue: args.max_queue,
        max_chunk: args.max_chunk,
        decode_chunks: args.carry.carry_chunks,
        carried_chunk: args.carry.carried_chunk,
        spare_slot: args.carry.spare_slot(),
    };
    let plan = EmitPlan::new(context, &[args.batch as i64])?;
    let mut load = crate::model::LoadOptions::batched(args.device.clone(), plan, args.batch as i64);
    load.device_weights = args.weights;
    let mut engine = crate::engine::BatchEngine::load_with(&dir, &load, opts, &Bars::new())?;
    engine.set_prefix_reuse(!args.carry.no_prefix_reuse);
    // A directory is named by its last component, a preset by its name.
    let model_id = std::path::Path::new(&args.model)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|_| dir == std::path::Path::new(&args.model))
        .unwrap_or_else(|| args.model.clone());
    let server = Server::new(
        Box::new(engine),
        tokenizer,
        ServeOptions {
            model_id: model_id.clone(),
            api_key: args.api_key,
        },
    )?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Io)?;
    runtime.block_on(async move {
        let addr = format!("{}:{}", args.host, args.port);
        let listener = tokio::net::TcpListener::bind(&addr)
            .await
            .map_err(|source| ServeError::Bind { addr, source })?;
        eprintln!(
            "serving {model_id} on http://{} (device {}, batch {}, context {context}{})",
            listener.local_addr().map_err(ServeError::Io)?,
            args.device,
            args.batch,
            if server.has_chat_template() {
                ""
            } else {
                ", no chat template: fallback format"
            }
        );
        let http = crate::serve::HttpOptions {
            header_timeout: args.header_timeout,
            body_timeout: args.body_timeout,
            keep_alive_timeout: args.keep_alive_timeout,
            max_connections: args.max_connections,
            drain_timeout: args.drain_timeout,
            allowed_hosts: args.allowed_hosts,
        };
        server
            .serve_with(listener, crate::serve::shutdown_signals(), http)
            .await
    })?;
    Ok(())
}

fn devices() -> Result<(), CliError> {
    let instance = Instance::new()?;
    println!("IREE runtime {}", runtime::runtime_version());
    let compiled = instance.drivers();
    println!("drivers compiled in: {}", compiled.join(", "));
    for report in instance.probe() {
        let status = match &report.open {
            Ok(()) => "ok".to_string(),
            Err(e) => format!("cannot open: {}", first_line(e)),
        };
        println!("  {:<11} {}", report.driver, status);
        for (path, name) in &report.devices {
            let path = if path.is_empty() { "(default)" } else { path };
            println!("      {}://{}  {}", report.driver, path, name);
        }
    }
    for (driver, hint) in [
        ("cuda", "not compiled in (build with --features cuda)"),
        ("metal", "not compiled in (macOS on Apple silicon only)"),
    ] {
        if !compiled.iter().any(|d| d == driver) {
            println!("  {driver:<11} {hint}");
        }
    }
    match Compiler::locate() {
        Ok(c) => println!("compiler: {} (IREE {})", c.exe().display(), c.version()),
        Err(e) => println!("compiler: {}", first_line(&e.to_string())),
    }
    Ok(())
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bench_args(flags: &[&str]) -> Result<BenchArgs, clap::Error> {
        let argv = ["iree-llm", "bench", "--model", "tiny"].iter().chain(flags);
        match Cli::try_parse_from(argv)?.command {
            Command::Bench(args) => Ok(args),
            other => panic!("parsed as {other:?}"),
        }
    }

    #[test]
    fn carried_chunks_take_the_spare_slot_unless_told_not_to() {
        let spare = |flags: &[&str]| bench_args(flags).unwrap().carry.spare_slot();
        assert!(spare(&["--carry-chunks"]));
        assert!(!spare(&["--carry-chunks", "--no-spare-slot"]));
        // The last of the pair wins.
        assert!(spare(&[
            "--carry-chunks",
            "--no-spare-slot",
            "--spare-slot"
        ]));
        assert!(!spare(&[
            "--carry-chunks",
            "--spare-slot",
            "--no-spare-slot"
        ]));
        // `serve` takes the same flags.
        let serve = Cli::try_parse_from([
            "iree-llm",
            "serve",
            "--model",
            "tiny",
            "--carry-chunks",
            "--no-spare-slot",
        ])
        .unwrap();
        match serve.command {
            Command::Serve(args) => assert!(!args.carry.spare_slot()),
            other => panic!("parsed as {other:?}"),
        }
        // Either says something about carried chunks only.
        assert!(bench_args(&["--no-spare-slot"]).is_err());
        assert!(bench_args(&["--spare-slot"]).is_err());
    }
}
