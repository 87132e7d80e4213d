//! `iree-llm serve --model FILE.gguf` as a real process: the tokenizer and
//! chat template come from the GGUF's metadata, and a greedy chat completion
//! of SmolLM2 says what Hugging Face transformers says for the same rendered
//! prompt (tests/fixtures/smollm2/hf_greedy.json, made by
//! scripts/hf_greedy_fixtures.py with transformers' own `apply_chat_template`).
//! Ignored by default (needs the file from scripts/bootstrap.sh and a minute
//! or two of compilation); scripts/test.sh runs it.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// The server process, killed when the test ends.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(model: &std::path::Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_iree-llm"))
        .args(["serve", "--port", "0", "--context", "128", "--model"])
        .arg(model)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (port, line) = common::wait_for_listening(&mut child);
    assert!(
        !line.contains("fallback format"),
        "the GGUF's chat template was not found: {line}"
    );
    Server { child, port }
}

/// POSTs `body` as JSON and returns the status and the parsed response.
fn post(port: u16, path: &str, body: &Value) -> (u16, Value) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.to_string();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, rest) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(rest).unwrap())
}

#[test]
#[ignore = "needs the SmolLM2 GGUF from scripts/bootstrap.sh and minutes of compilation"]
fn a_gguf_file_serves_greedy_chat_completions_as_transformers_renders_and_continues_them() {
    let fixture: Value = serde_json::from_str(
        &std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/smollm2/hf_greedy.json"),
        )
        .unwrap(),
    )
    .unwrap();
    // The fixture's chat case "What is the capital of Germany?": transformers'
    // greedy reply, up to the end-of-turn token where the server stops.
    let case = fixture["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["kind"] == "chat" && c["messages"][0]["content"] == "What is the capital of Germany?"
        })
        .unwrap();
    let want = case["text_out"].as_str().unwrap();
    let want = want.split("<|im_end|>").next().unwrap();
    let prompt_tokens = case["prompt_ids"].as_array().unwrap().len();

    let path = iree_llm::preset::fetched_model_path("smollm2-135m").unwrap();
    let server = start(&path);
    let (status, reply) = post(
        server.port,
        "/v1/chat/completions",
        &json!({
            "messages": case["messages"],
            "max_tokens": 32,
            "temperature": 0,
        }),
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["model"], "SmolLM2-135M-Instruct.Q4_1.gguf");
    assert_eq!(reply["choices"][0]["message"]["content"], want);
    assert_eq!(reply["choices"][0]["finish_reason"], "stop");
    // The template rendered exactly as transformers' did: same prompt length.
    assert_eq!(reply["usage"]["prompt_tokens"], prompt_tokens);
}
