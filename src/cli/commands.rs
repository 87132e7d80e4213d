//! The runners behind each subcommand: each takes its parsed arguments,
//! calls the module that owns the work (compile, emit, bench, engine,
//! serve, gguf, preset) and prints what came of it.

use crate::compile::{Compiler, Target};
use crate::config::ModelConfig;
use crate::emit::{EmitPlan, LlamaShape};
use crate::preset::Preset;
use crate::runtime::{self, Instance};
use crate::types::DType;
use crate::types::DeviceUri;

use super::{
    Bars, BenchArgs, CliError, GenerateArgs, GraphBenchArgs, ServeArgs, SynthFormat, context_for,
    resolve_model_dir,
};

pub(super) fn compile(
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

pub(super) fn graph_bench(args: GraphBenchArgs) -> Result<(), CliError> {
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

pub(super) fn bench(args: BenchArgs) -> Result<(), CliError> {
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
        decode_chunks: args.carry.decode_chunks(),
        choose_carry: args.carry.choose_carry(),
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

pub(super) fn synth(
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

pub(super) fn convert(
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

pub(super) fn emit(
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
pub(super) fn generate(args: GenerateArgs) -> Result<(), CliError> {
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
pub(super) fn serve(args: ServeArgs) -> Result<(), CliError> {
    use crate::serve::{ServeError, ServeOptions, Server};
    let dir = resolve_model_dir(&args.model)?;
    let config = ModelConfig::from_dir(&dir)?;
    let tokenizer = crate::tokenizer::Tokenizer::from_dir(&dir)?;
    let context = context_for(&config, args.context);
    let opts = crate::engine::BatchOptions {
        batch: args.batch,
        max_queue: args.max_queue,
        max_chunk: args.max_chunk,
        decode_chunks: args.carry.decode_chunks(),
        choose_carry: args.carry.choose_carry(),
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

pub(super) fn devices() -> Result<(), CliError> {
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
