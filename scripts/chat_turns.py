#!/usr/bin/env python3
"""Times a conversation's later turns through a running `iree-llm serve`.

Usage: scripts/chat_turns.py [PORT] [MODEL]   (defaults: 8391, the GGUF that
scripts/bootstrap.sh fetches). Three rounds; each opens a conversation with a
589-token message (SmolLM2's tokenizer), then sends turns 2-4, each after an
unrelated long prompt, and prints each turn's prompt tokens, the tokens the
server found cached (usage.prompt_tokens_details.cached_tokens) and its wall
time with max_tokens 1 (about its time to first token). Compare a server with
and without --no-prefix-reuse (docs/serving.md, prefix reuse).
"""
import json, sys, time, urllib.request
P = int(sys.argv[1]) if len(sys.argv) > 1 else 8391
M = sys.argv[2] if len(sys.argv) > 2 else "SmolLM2-135M-Instruct.Q4_1.gguf"
def post(messages, max_tokens):
    body = json.dumps({"model": M, "messages": messages, "max_tokens": max_tokens, "temperature": 0}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{P}/v1/chat/completions", body, {"content-type": "application/json"})
    t = time.perf_counter()
    r = json.load(urllib.request.urlopen(req))
    return time.perf_counter() - t, r
long = " ".join(["The river runs past the old mill where the miller keeps his grain and counts the sacks each morning."] * 25)
for rnd in range(3):
    msgs = [{"role": "user", "content": f"Story {rnd}: {long} Summarise the story."}]
    _, r = post(msgs, 16)
    msgs.append({"role": "assistant", "content": r["choices"][0]["message"]["content"]})
    out = []
    for q in ["And who keeps the grain?", "And when does he count?", "Where is the mill?"]:
        post([{"role": "user", "content": f"Fresh {rnd} {q}: {long}"}], 1)
        msgs.append({"role": "user", "content": q})
        t, r = post(msgs, 1)
        u = r["usage"]
        out.append(f"{u['prompt_tokens']} tok ({u['prompt_tokens_details']['cached_tokens']} cached) {t*1000:.0f} ms")
        _, r2 = post(msgs, 8)
        msgs.append({"role": "assistant", "content": r2["choices"][0]["message"]["content"]})
    print(f"round {rnd}: " + "; ".join(out), flush=True)
