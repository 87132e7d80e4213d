//! A soak of a running `iree-llm serve` on loopback: C clients each stream
//! completions back to back for S seconds; then completed, 429s, lost
//! (an error, a stream cut before `[DONE]`, any other status) and the
//! server's resident memory before and after.
//!
//! ```text
//! iree-llm serve --model tiny --batch 8 &
//! cargo run --release --example serve_soak -- --pid $! --clients 256 --seconds 60
//! ```

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::json;

#[derive(Parser, Debug)]
struct Args {
    /// Base URL of the server (loopback only).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Clients streaming at once (at most 1024).
    #[arg(long, default_value_t = 256)]
    clients: usize,
    /// How long the soak runs (at most 600).
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    #[arg(long, default_value_t = 32)]
    max_tokens: usize,
    /// The server's process id, to read its resident memory.
    #[arg(long)]
    pid: Option<u32>,
}

#[derive(Default)]
struct Counts {
    completed: AtomicU64,
    too_many: AtomicU64,
    lost: AtomicU64,
}

fn rss_mib(pid: Option<u32>) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

/// One streamed completion: Ok(true) completed, Ok(false) answered 429.
async fn one(client: &reqwest::Client, args: &Args, seed: u64) -> Result<bool, String> {
    let body = json!({
        "prompt": format!("Client {seed}: the story of the sea"),
        "max_tokens": args.max_tokens, "temperature": 0.8, "seed": seed, "stream": true,
    });
    let mut resp = client
        .post(format!("{}/v1/completions", args.url))
        .json(&body)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if resp.status() == 429 {
        let _ = resp.bytes().await;
        return Ok(false);
    }
    if !resp.status().is_success() {
        return Err(format!("status {}", resp.status()));
    }
    let mut text = String::new();
    while let Some(bytes) = resp.chunk().await.map_err(|e| e.to_string())? {
        text.push_str(&String::from_utf8_lossy(&bytes));
    }
    if text.contains("\"error\"") {
        return Err("error event".into());
    }
    if !text.trim_end().ends_with("data: [DONE]") {
        return Err("stream ended without [DONE]".into());
    }
    Ok(true)
}

#[tokio::main]
async fn main() {
    let args = Arc::new(Args::parse());
    let host = reqwest::Url::parse(&args.url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_default();
    assert!(
        ["127.0.0.1", "localhost", "[::1]"].contains(&host.as_str()),
        "this soak only targets a loopback server, not {host}"
    );
    assert!(
        args.clients <= 1024 && args.seconds <= 600,
        "bounded runs only"
    );
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .expect("http client");
    let rss_before = rss_mib(args.pid);
    let counts = Arc::new(Counts::default());
    let until = Instant::now() + Duration::from_secs(args.seconds);
    let t0 = Instant::now();
    let tasks: Vec<_> = (0..args.clients)
        .map(|c| {
            let (client, args, counts) = (client.clone(), args.clone(), counts.clone());
            tokio::spawn(async move {
                let mut n = 0u64;
                while Instant::now() < until {
                    let seed = (c as u64) << 32 | n;
                    n += 1;
                    match one(&client, &args, seed).await {
                        Ok(true) => counts.completed.fetch_add(1, Ordering::Relaxed),
                        Ok(false) => {
                            tokio::time::sleep(Duration::from_millis(200)).await;
                            counts.too_many.fetch_add(1, Ordering::Relaxed)
                        }
                        Err(e) => {
                            eprintln!("client {c}: {e}");
                            counts.lost.fetch_add(1, Ordering::Relaxed)
                        }
                    };
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("client task");
    }
    let elapsed = t0.elapsed().as_secs_f64();
    // Let the server settle (freed buffers, finished requests) before measuring.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss_after = rss_mib(args.pid);
    let fmt = |r: Option<f64>| r.map_or("n/a".to_string(), |m| format!("{m:.1} MiB"));
    println!(
        "soak: {} clients for {elapsed:.1} s: completed {}, 429s {}, lost {}; \
         server RSS before {}, after {}",
        args.clients,
        counts.completed.load(Ordering::Relaxed),
        counts.too_many.load(Ordering::Relaxed),
        counts.lost.load(Ordering::Relaxed),
        fmt(rss_before),
        fmt(rss_after),
    );
}
