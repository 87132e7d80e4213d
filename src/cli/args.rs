//! The clap definitions of the `iree-llm` command line: the subcommands,
//! their arguments and defaults, and the value parsers that check flags
//! before any subcommand runs.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::preset::Preset;
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
    /// calls of their own: for every prompt (`always`, what the bare flag
    /// means) or for those the engine sends that way because it has cost
    /// the running slots less a prompt token lately (`auto`: it measures
    /// both ways as it runs). Compiles a decode+chunk graph per carried
    /// chunk size and window at startup.
    #[arg(long, value_enum, num_args = 0..=1, default_missing_value = "always")]
    carry_chunks: Option<CarryWhen>,
    /// The largest chunk a decode call carries with --carry-chunks (below 8,
    /// that many tokens ride in the 8-token chunk graph).
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

/// Which prompts the running slots' decode calls carry (`--carry-chunks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CarryWhen {
    /// Every prompt admitted while slots generate.
    Always,
    /// Each prompt the way that has cost the running slots less lately.
    Auto,
}

impl CarryArgs {
    /// Whether decode calls carry chunks at all (their graphs compiled).
    pub fn decode_chunks(&self) -> bool {
        self.carry_chunks.is_some()
    }

    /// Whether the engine chooses, prompt by prompt, whether to carry.
    pub fn choose_carry(&self) -> bool {
        self.carry_chunks == Some(CarryWhen::Auto)
    }

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
/// The file layout `iree-llm synth` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SynthFormat {
    Hf,
    Gguf,
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
    fn carry_chunks_alone_means_always_and_auto_lets_the_engine_choose() {
        let carry = |flags: &[&str]| {
            let c = bench_args(flags).unwrap().carry;
            (c.decode_chunks(), c.choose_carry())
        };
        assert_eq!(carry(&[]), (false, false));
        assert_eq!(carry(&["--carry-chunks"]), (true, false));
        assert_eq!(carry(&["--carry-chunks", "always"]), (true, false));
        assert_eq!(carry(&["--carry-chunks=auto"]), (true, true));
        assert_eq!(
            carry(&["--carry-chunks", "auto", "--no-spare-slot"]),
            (true, true)
        );
        assert!(bench_args(&["--carry-chunks", "sometimes"]).is_err());
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
