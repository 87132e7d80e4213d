//! The built `iree-llm serve` as a real process on a loopback port: what a
//! hostile or careless client can no longer do to it (hold connections,
//! block shutdown, reach it under a foreign Host name), and how it drains
//! on SIGTERM. Raw sockets, so every byte sent is the test's own.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A server process; killed if the test ends without stopping it.
struct Proc {
    child: Child,
    port: u16,
}

impl Proc {
    /// Starts `iree-llm serve --model tiny --port 0 EXTRA...` (through `sh`
    /// when `shell_prefix` sets a limit first) and waits for its address.
    fn start(shell_prefix: Option<&str>, extra: &[&str]) -> Proc {
        let bin = env!("CARGO_BIN_EXE_iree-llm");
        let mut args = vec!["serve", "--model", "tiny", "--port", "0"];
        args.extend_from_slice(extra);
        let mut cmd = match shell_prefix {
            Some(prefix) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("{prefix}; exec \"$0\" \"$@\""))
                    .arg(bin)
                    .args(&args);
                c
            }
            None => {
                let mut c = Command::new(bin);
                c.args(&args);
                c
            }
        };
        let mut child = cmd
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (port, _) = common::wait_for_listening(&mut child);
        Proc { child, port }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        s
    }

    fn signal(&self, name: &str) {
        let ok = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
    }

    /// Waits up to `limit` for the process to end.
    fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let t0 = Instant::now();
        while t0.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// One request on its own connection; the status and the body.
    fn request(&self, head: &str, body: &str) -> (u16, String) {
        let mut s = self.connect();
        let req = format!(
            "{head}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let status = out.split(' ').nth(1).unwrap_or("0").parse().unwrap_or(0);
        let body = out.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
        (status, body)
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Seconds until the server closes `s` (reads and discards what it sends).
fn seconds_until_closed(mut s: TcpStream, limit: Duration) -> Option<f64> {
    s.set_read_timeout(Some(limit)).unwrap();
    let t0 = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return Some(t0.elapsed().as_secs_f64()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return Some(t0.elapsed().as_secs_f64());
            }
            Err(_) => return None,
        }
        if t0.elapsed() > limit {
            return None;
        }
    }
}

const COMPLETION: &str = r#"{"prompt": [1], "max_tokens": 200, "temperature": 0}"#;

fn post(path: &str, content_type: &str, host: &str) -> String {
    format!("POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}")
}

#[test]
fn held_connections_are_closed_after_their_timeouts_and_health_still_answers() {
    // 96 descriptors leave room for the model and runtime and 32 connections.
    let srv = Proc::start(
        Some("ulimit -n 96"),
        &[
            "--header-timeout",
            "1",
            "--body-timeout",
            "1",
            "--keep-alive-timeout",
            "1",
            "--max-connections",
            "32",
        ],
    );
    let limit = Duration::from_secs(5);

    let mut half_header = srv.connect();
    half_header
        .write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")
        .unwrap();
    let mut missing_body = srv.connect();
    missing_body
        .write_all(
            b"POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n\
              Content-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{\"",
        )
        .unwrap();
    let mut idle = srv.connect();
    idle.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    let mut first = [0u8; 12];
    idle.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");

    for (what, s) in [
        ("a half-sent header", half_header),
        ("a promised body never sent", missing_body),
        ("an idle keep-alive connection", idle),
    ] {
        let closed = seconds_until_closed(s, limit);
        assert!(closed.is_some(), "{what} was still open after {limit:?}");
    }

    // Many more such clients than the cap or the descriptor limit allows:
    // the server stays within its cap, they time out, /health gets through.
    let hostile: Vec<TcpStream> = (0..150)
        .map(|_| {
            let mut s = srv.connect();
            let _ = s.write_all(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
            s
        })
        .collect();
    let t0 = Instant::now();
    let (status, body) = srv.request("GET /health HTTP/1.1\r\nHost: 127.0.0.1", "");
    assert_eq!(status, 200, "{body}");
    assert!(
        t0.elapsed() < Duration::from_secs(15),
        "/health took {:?}",
        t0.elapsed()
    );
    drop(hostile);
}

#[test]
fn requests_need_a_loopback_host_and_a_json_content_type() {
    let srv = Proc::start(None, &[]);
    let (status, body) = srv.request(
        &post("/v1/completions", "text/plain", "127.0.0.1"),
        COMPLETION,
    );
    assert_eq!(status, 415, "{body}");
    assert!(body.contains("application/json"), "{body}");
    let (status, _) = srv.request(&post("/v1/completions", "text/plain", "127.0.0.1"), "");
    assert_eq!(status, 415);
    let (status, body) = srv.request(
        &post(
            "/v1/completions",
            "Application/JSON; charset=utf-8",
            "127.0.0.1",
        ),
        COMPLETION,
    );
    assert_eq!(status, 200, "{body}");

    for host in ["evil.example", "evil.example:8080", "10.1.2.3"] {
        let (status, body) = srv.request(
            &post("/v1/completions", "application/json", host),
            COMPLETION,
        );
        assert_eq!(status, 403, "{host}: {body}");
        let (status, _) = srv.request(&format!("GET /health HTTP/1.1\r\nHost: {host}"), "");
        assert_eq!(status, 403, "{host}");
    }
    for host in ["localhost:8080", "127.0.0.1", "[::1]:1234"] {
        let (status, body) = srv.request(&format!("GET /health HTTP/1.1\r\nHost: {host}"), "");
        assert_eq!(status, 200, "{host}: {body}");
    }
}

#[test]
fn the_bearer_scheme_is_case_insensitive_and_allowed_hosts_widen_the_names() {
    let srv = Proc::start(None, &["--api-key", "k-1", "--allowed-hosts", "box.lan"]);
    for (auth, want) in [
        ("Bearer k-1", 200),
        ("bearer k-1", 200),
        ("BEARER k-1", 200),
        ("bearer k-2", 401),
        ("Basic k-1", 401),
    ] {
        let (status, body) = srv.request(
            &format!("GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {auth}"),
            "",
        );
        assert_eq!(status, want, "{auth}: {body}");
    }
    let (status, _) = srv.request("GET /health HTTP/1.1\r\nHost: box.lan:80", "");
    assert_eq!(status, 200);
    let (status, _) = srv.request("GET /health HTTP/1.1\r\nHost: other.lan", "");
    assert_eq!(status, 403);
}

#[test]
fn an_empty_api_key_and_a_zero_queue_are_refused_at_startup() {
    let bin = env!("CARGO_BIN_EXE_iree-llm");
    for (args, says) in [
        (vec!["--api-key", ""], "API key is empty"),
        (vec!["--api-key", "  "], "API key is empty"),
        (vec!["--max-queue", "0"], "at least 1"),
    ] {
        let out = Command::new(bin)
            .args(["serve", "--model", "tiny", "--port", "0"])
            .args(&args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} started");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

/// Starts a streamed completion of 400 tokens; returns the connection once
/// the first chunk arrived.
fn start_stream(srv: &Proc, seed: usize) -> BufReader<TcpStream> {
    start_stream_of(srv, seed, 400)
}

/// [`start_stream`] of `max_tokens`. The stream runs them all: tiny's
/// end-of-text ids (502, 509, 510) are biased away, so no seed ends it early
/// and the drain tests have streams still running when the signal comes.
fn start_stream_of(srv: &Proc, seed: usize, max_tokens: usize) -> BufReader<TcpStream> {
    let body = format!(
        r#"{{"prompt": "Story {seed}: once upon a time", "max_tokens": {max_tokens}, "temperature": 1.0, "seed": {seed}, "stream": true, "logit_bias": {{"502": -100, "509": -100, "510": -100}}}}"#
    );
    let mut s = srv.connect();
    let req = format!(
        "{}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        post("/v1/completions", "application/json", "127.0.0.1"),
        body.len()
    );
    s.write_all(req.as_bytes()).unwrap();
    let mut r = BufReader::new(s);
    let mut line = String::new();
    while !line.starts_with("data: ") {
        line.clear();
        assert!(r.read_line(&mut line).unwrap() > 0, "no first chunk");
    }
    r
}

/// How a stream ended: its finish reason, or the error event's message.
fn finish(mut r: BufReader<TcpStream>) -> Result<String, String> {
    let mut text = String::new();
    let _ = r.read_to_string(&mut text);
    let mut reason = None;
    for data in text.lines().filter_map(|l| l.strip_prefix("data: ")) {
        if data == "[DONE]" {
            return reason.ok_or_else(|| "[DONE] without a finish reason".to_string());
        }
        let v: serde_json::Value = serde_json::from_str(data).unwrap();
        if let Some(e) = v.get("error") {
            return Err(e.to_string());
        }
        if let Some(f) = v["choices"][0]["finish_reason"].as_str() {
            reason = Some(f.to_string());
        }
    }
    Err(format!(
        "ended without [DONE]: ...{}",
        &text[text.len().saturating_sub(200)..]
    ))
}

#[test]
fn sigterm_lets_running_streams_finish_then_exits_zero() {
    let mut srv = Proc::start(None, &["--batch", "4"]);
    let streams: Vec<_> = (0..8).map(|i| start_stream(&srv, i)).collect();
    // A half-open connection must not hold the exit up.
    let mut half = srv.connect();
    half.write_all(b"GET /health HTTP/1.1\r\nHost: 1").unwrap();
    srv.signal("TERM");
    let readers: Vec<_> = streams
        .into_iter()
        .map(|r| std::thread::spawn(move || finish(r)))
        .collect();
    for (i, r) in readers.into_iter().enumerate() {
        let how = r.join().unwrap();
        assert!(
            matches!(how.as_deref(), Ok("stop" | "length")),
            "stream {i}: {how:?}"
        );
    }
    let status = srv.wait_exit(Duration::from_secs(10));
    assert_eq!(status.and_then(|s| s.code()), Some(0));
    assert!(TcpStream::connect(("127.0.0.1", srv.port)).is_err());
}

#[test]
fn past_the_drain_deadline_streams_end_with_the_error_event_and_the_exit_is_zero() {
    let mut srv = Proc::start(None, &["--batch", "4", "--drain-timeout", "0"]);
    let streams: Vec<_> = (0..8).map(|i| start_stream(&srv, 100 + i)).collect();
    srv.signal("TERM");
    let ends: Vec<_> = streams.into_iter().map(finish).collect();
    // Eight streams on four slots: some were still queued or running.
    assert!(ends.iter().any(Result::is_err), "{ends:?}");
    let status = srv.wait_exit(Duration::from_secs(10));
    assert_eq!(status.and_then(|s| s.code()), Some(0));
}

#[test]
fn a_second_signal_exits_at_once_without_finishing_the_drain() {
    let mut srv = Proc::start(None, &["--batch", "4", "--drain-timeout", "60"]);
    // Long streams: on a quiet machine tiny decodes 400 tokens in well under
    // the pause between the signals, and the drain would finish first.
    let streams: Vec<_> = (0..8)
        .map(|i| start_stream_of(&srv, 200 + i, 1000))
        .collect();
    srv.signal("TERM");
    std::thread::sleep(Duration::from_millis(20));
    srv.signal("INT");
    let t0 = Instant::now();
    let status = srv.wait_exit(Duration::from_secs(5));
    assert!(status.is_some(), "still running after a second signal");
    assert_eq!(status.unwrap().code(), Some(130));
    assert!(t0.elapsed() < Duration::from_secs(2));
    drop(streams);
}
