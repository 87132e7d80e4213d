//! A drain run: starts `iree-llm serve` on a loopback port, opens N
//! streaming completions, sends SIGTERM once the first tokens arrive, and
//! reports how each stream ended, the exit status and how long the drain
//! took.
//!
//! ```text
//! cargo build --release
//! cargo run --release --example serve_drain -- --streams 16
//! ```

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use clap::Parser;
use serde_json::json;

#[derive(Parser, Debug)]
struct Args {
    /// The `iree-llm` binary.
    #[arg(long, default_value = "target/release/iree-llm")]
    bin: String,
    #[arg(long, default_value = "tiny")]
    model: String,
    /// Streams running when SIGTERM is sent (at most 256).
    #[arg(long, default_value_t = 16)]
    streams: usize,
    #[arg(long, default_value_t = 8)]
    batch: usize,
    #[arg(long, default_value_t = 256)]
    max_tokens: usize,
    /// Passed to the server's `--drain-timeout`.
    #[arg(long, default_value = "30")]
    drain_timeout: String,
}

/// How a stream ended: its finish reason, or what went wrong.
async fn stream(client: reqwest::Client, url: String, i: usize, max_tokens: usize) -> String {
    let body = json!({
        "prompt": format!("Stream {i}: a long tale"), "max_tokens": max_tokens,
        "temperature": 1.0, "seed": i, "stream": true,
    });
    let mut resp = match client.post(url).json(&body).send().await {
        Ok(r) if r.status().is_success() => r,
        Ok(r) => return format!("status {}", r.status()),
        Err(e) => return format!("request failed: {e}"),
    };
    let mut text = String::new();
    while let Ok(Some(bytes)) = resp.chunk().await {
        text.push_str(&String::from_utf8_lossy(&bytes));
    }
    if text.contains("\"error\"") {
        return "error event".into();
    }
    if !text.trim_end().ends_with("data: [DONE]") {
        return "cut before [DONE]".into();
    }
    text.rsplit("\"finish_reason\":\"")
        .next()
        .and_then(|t| t.split('"').next())
        .unwrap_or("no finish reason")
        .to_string()
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    assert!(args.streams <= 256, "bounded runs only");
    let mut child = std::process::Command::new(&args.bin)
        .args([
            "serve",
            "--model",
            &args.model,
            "--host",
            "127.0.0.1",
            "--port",
            "0",
        ])
        .args(["--batch", &args.batch.to_string()])
        .args(["--drain-timeout", &args.drain_timeout])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the server");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let base = loop {
        let line = lines
            .next()
            .expect("the server ended before listening")
            .expect("server stderr");
        if let Some(rest) = line.split("on http://").nth(1) {
            break format!(
                "http://{}",
                rest.split_whitespace().next().expect("address")
            );
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .expect("http client");
    let url = format!("{base}/v1/completions");
    let tasks: Vec<_> = (0..args.streams)
        .map(|i| tokio::spawn(stream(client.clone(), url.clone(), i, args.max_tokens)))
        .collect();
    // Signal once generation is under way (the engine reports active slots).
    let t_wait = Instant::now();
    loop {
        let health = client.get(format!("{base}/health")).send().await;
        let active = match health {
            Ok(r) => r
                .json::<serde_json::Value>()
                .await
                .ok()
                .and_then(|v| v["active"].as_u64()),
            Err(_) => None,
        };
        if active.unwrap_or(0) > 0 || t_wait.elapsed() > Duration::from_secs(30) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let pid = child.id().to_string();
    let t0 = Instant::now();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let mut ends = std::collections::BTreeMap::<String, usize>::new();
    for t in tasks {
        *ends.entry(t.await.expect("stream task")).or_default() += 1;
    }
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if t0.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the server did not exit within 60 s of SIGTERM");
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    println!(
        "drain: {} streams, SIGTERM while running; ends {ends:?}; exit status {:?} {:.2} s after SIGTERM",
        args.streams,
        status.code(),
        t0.elapsed().as_secs_f64()
    );
}
