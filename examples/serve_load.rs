//! A small, bounded load run against a running `iree-llm serve`: N streaming
//! completions at once, then completed / failed counts, generated tokens per
//! second and client-side time to first token.
//!
//! ```text
//! iree-llm serve --model tiny --batch 8 &
//! cargo run --release --example serve_load -- --requests 32 --concurrency 32
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::{Value, json};
use tokio::sync::Semaphore;

#[derive(Parser, Debug)]
struct Args {
    /// Base URL of the server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Requests in all.
    #[arg(long, default_value_t = 32)]
    requests: usize,
    /// Requests in flight at once.
    #[arg(long, default_value_t = 32)]
    concurrency: usize,
    #[arg(long, default_value_t = 64)]
    max_tokens: usize,
    /// Use /v1/chat/completions instead of /v1/completions.
    #[arg(long)]
    chat: bool,
    #[arg(long)]
    api_key: Option<String>,
    /// Per-request time limit in seconds.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
}

/// What one streamed request gave.
struct Outcome {
    completion_tokens: u64,
    ttft: Duration,
}

async fn one(client: &reqwest::Client, args: &Args, i: usize) -> Result<Outcome, String> {
    let prompt = format!("Request {i}: the story of the world");
    let mut body = json!({
        "model": null, "max_tokens": args.max_tokens, "temperature": 0.8, "seed": i,
        "stream": true, "stream_options": {"include_usage": true},
    });
    let path = if args.chat {
        body["messages"] = json!([{"role": "user", "content": prompt}]);
        "/v1/chat/completions"
    } else {
        body["prompt"] = json!(prompt);
        "/v1/completions"
    };
    let mut req = client.post(format!("{}{path}", args.url)).json(&body);
    if let Some(k) = &args.api_key {
        req = req.bearer_auth(k);
    }
    let start = Instant::now();
    let mut resp = req.send().await.map_err(|e| e.to_string())?;
    if !resp.status().is_success() {
        let status = resp.status();
        return Err(format!(
            "{status}: {}",
            resp.text().await.unwrap_or_default()
        ));
    }
    let mut buf = String::new();
    let mut ttft = None;
    let mut usage = None;
    let mut done = false;
    while let Some(bytes) = resp.chunk().await.map_err(|e| e.to_string())? {
        buf.push_str(&String::from_utf8_lossy(&bytes));
        while let Some(end) = buf.find("\n\n") {
            let event: String = buf.drain(..end + 2).collect();
            let Some(data) = event.trim().strip_prefix("data: ") else {
                continue;
            };
            if data == "[DONE]" {
                done = true;
                continue;
            }
            let v: Value = serde_json::from_str(data).map_err(|e| e.to_string())?;
            if let Some(err) = v.get("error") {
                return Err(err.to_string());
            }
            let choice = &v["choices"][0];
            let text = choice["text"]
                .as_str()
                .or(choice["delta"]["content"].as_str());
            if ttft.is_none() && text.is_some_and(|t| !t.is_empty()) {
                ttft = Some(start.elapsed());
            }
            if let Some(n) = v["usage"]["completion_tokens"].as_u64() {
                usage = Some(n);
            }
        }
    }
    if !done {
        return Err("the stream ended without [DONE]".into());
    }
    Ok(Outcome {
        completion_tokens: usage.ok_or("no usage chunk")?,
        ttft: ttft.unwrap_or_else(|| start.elapsed()),
    })
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() {
    let args = Arc::new(Args::parse());
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(args.timeout))
        .build()
        .expect("http client");
    let gate = Arc::new(Semaphore::new(args.concurrency.max(1)));
    let start = Instant::now();
    let tasks: Vec<_> = (0..args.requests)
        .map(|i| {
            let (client, args, gate) = (client.clone(), args.clone(), gate.clone());
            tokio::spawn(async move {
                let _permit = gate.acquire().await.expect("semaphore");
                one(&client, &args, i).await
            })
        })
        .collect();
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for t in tasks {
        match t.await {
            Ok(Ok(o)) => ok.push(o),
            Ok(Err(e)) => failed.push(e),
            Err(e) => failed.push(e.to_string()),
        }
    }
    let wall = start.elapsed();
    let tokens: u64 = ok.iter().map(|o| o.completion_tokens).sum();
    let mut ttfts: Vec<Duration> = ok.iter().map(|o| o.ttft).collect();
    ttfts.sort();
    println!(
        "{} requests ({} at once, max_tokens {}, {}): {} completed, {} failed in {:.2}s",
        args.requests,
        args.concurrency,
        args.max_tokens,
        if args.chat { "chat" } else { "completions" },
        ok.len(),
        failed.len(),
        wall.as_secs_f64()
    );
    println!(
        "generated {tokens} tokens: {:.1} tokens/s, {:.2} requests/s",
        tokens as f64 / wall.as_secs_f64(),
        ok.len() as f64 / wall.as_secs_f64()
    );
    println!(
        "time to first token (client side): p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        percentile(&ttfts, 0.5).as_secs_f64() * 1e3,
        percentile(&ttfts, 0.95).as_secs_f64() * 1e3,
        ttfts.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    for e in failed.iter().take(5) {
        println!("failure: {e}");
    }
    if !failed.is_empty() {
        std::process::exit(1);
    }
}
