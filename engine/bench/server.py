"""`chartside bench server`: N desktops asking in parallel through one model server,
against the same turns run on this desktop's own model.

A real `llama_cpp.server` is started on 127.0.0.1 with the same GGUF (`--url` benches a
server already running, e.g. `llama-server --parallel 8` on a clinic GPU box). Each
simulated desktop is a thread with its own HTTP client, asking its turns one after the
other, as a clinician would; every desktop count runs the same questions with greedy
decoding and the same answer length. The local baseline answers the same turns with the
in-process runtime, one desktop on this machine. Cold figures (the first request of each
path) are reported apart from the warm ones the summaries use.

llama_cpp.server has no parallel slots: it answers one request at a time, so N desktops
queue behind each other. The JSON says so (`server.parallel_slots`).
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from engine.settings import LLMSettings, RemoteModelSettings, load_settings

QUESTIONS = [
    "What is high blood pressure?",
    "What are the symptoms of asthma?",
    "How is type 2 diabetes treated?",
    "What causes migraine headaches?",
    "What is anaemia?",
    "How is a urinary tract infection treated?",
    "What are the warning signs of a stroke?",
    "What is osteoporosis?",
]
COLD_QUESTION = "What is a fever?"  # the cold request of each path: a question no timed turn repeats
SYSTEM = "You are a concise medical information assistant. Answer in two sentences."


def register(subparsers) -> None:
    parser = subparsers.add_parser("server", help="N desktops through one model server vs the same turns locally")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--desktops", default="1,2,4,8", help="comma-separated desktop counts")
    parser.add_argument("--turns", type=int, default=2, help="turns per desktop")
    parser.add_argument("--max-tokens", type=int, default=32)
    parser.add_argument("--url", default=None, help="bench a server already running (plain http on loopback)")
    parser.add_argument("--server-kind", default="llama-cpp-python", help="with --url: the kind of server")
    parser.add_argument("--model", default=None, help="with --url: the server's model name")
    parser.add_argument("--parallel", type=int, default=1, help="with --url: the server's parallel slots")
    parser.set_defaults(func=run)


def _messages(index: int | None) -> list[dict]:
    question = COLD_QUESTION if index is None else QUESTIONS[index % len(QUESTIONS)]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]


def _percentile(values: list[float], q: float) -> float:
    return round(float(np.percentile(values, q)), 3) if values else 0.0


def _summary(turns: list[dict], wall: float, desktops: int) -> dict:
    ttft = [t["ttft"] for t in turns if t["tokens"]]
    return {
        "desktops": desktops,
        "turns": len(turns),
        "wall_s": round(wall, 3),
        "turns_per_minute": round(len(turns) / wall * 60, 2) if wall else 0.0,
        "ttft_p50_s": _percentile(ttft, 50),
        "ttft_p95_s": _percentile(ttft, 95),
        "turn_p50_s": _percentile([t["total"] for t in turns], 50),
        "turn_max_s": round(max((t["total"] for t in turns), default=0.0), 3),
        "tokens_per_turn_mean": round(float(np.mean([t["tokens"] for t in turns])), 1) if turns else 0.0,
        "failures": sum(1 for t in turns if t.get("error") or not t["tokens"]),
    }


def _timed(llm, messages: list[dict], max_tokens: int) -> dict:
    started = time.perf_counter()
    try:
        text = llm.chat("generate", messages, max_tokens=max_tokens, temperature=0.0)
    except Exception as exc:  # noqa: BLE001  (a failed turn is counted, not fatal to the bench)
        return {"ttft": 0.0, "total": time.perf_counter() - started, "tokens": 0, "error": str(exc)[:200]}
    metrics = llm.last_metrics
    return {"ttft": metrics.time_to_first_token, "total": time.perf_counter() - started,
            "tokens": metrics.completion_tokens, "chars": len(text)}


def _local(llm_settings: LLMSettings, turns: int, max_tokens: int) -> dict:
    from engine.llm.runtime import LlamaRuntime

    runtime = LlamaRuntime(llm_settings)
    try:
        started = time.perf_counter()
        runtime.info("generate")
        load = time.perf_counter() - started
        cold = _timed(runtime, _messages(None), max_tokens)
        started = time.perf_counter()
        results = [_timed(runtime, _messages(i), max_tokens) for i in range(turns)]
        return {**_summary(results, time.perf_counter() - started, 1), "cold_load_s": round(load, 3),
                "cold_ttft_s": round(cold["ttft"], 3)}
    finally:
        runtime.close()


def _desktops(remote: RemoteModelSettings, llm_settings: LLMSettings, desktops: int, turns: int,
              max_tokens: int) -> dict:
    from engine.llm.remote import RemoteChatClient

    clients = [RemoteChatClient(remote, llm_settings) for _ in range(desktops)]
    results: list[list[dict]] = [[] for _ in range(desktops)]
    barrier = threading.Barrier(desktops + 1)

    def desktop(index: int) -> None:
        barrier.wait()
        for turn in range(turns):
            results[index].append(_timed(clients[index], _messages(index * turns + turn), max_tokens))

    threads = [threading.Thread(target=desktop, args=(i,), daemon=True) for i in range(desktops)]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    for client in clients:
        client.close()
    return _summary([r for per in results for r in per], wall, desktops)


def bench(desktop_counts: list[int], turns: int, max_tokens: int, url: str | None = None,
          server_kind: str = "llama-cpp-python", model: str | None = None, parallel: int = 1) -> dict:
    from engine.llm.remote import RemoteChatClient
    from engine.llm.serve import LlamaServer

    settings = load_settings()
    llm_settings = settings.llm.model_copy(update={"generation_context_apart": False})
    threads = llm_settings.n_threads or os.cpu_count() or 1
    server = None
    with tempfile.TemporaryDirectory(prefix="chartside-bench-server-") as logs:
        if url is None:
            started = time.perf_counter()
            server = LlamaServer(Path(logs), n_ctx=llm_settings.n_ctx, model=llm_settings.generate_model,
                                 n_threads=threads)
            url, model, server_kind, parallel = server.url, server.alias, "llama-cpp-python", 1
            server_start = time.perf_counter() - started
        else:
            server_start = None
        try:
            remote = RemoteModelSettings(enabled=True, url=url, model=model or "", server=server_kind,
                                         read_timeout_s=600.0)
            warm = RemoteChatClient(remote, llm_settings)
            cold = _timed(warm, _messages(None), max_tokens)
            warm.close()
            rows = [_desktops(remote, llm_settings, n, turns, max_tokens) for n in desktop_counts]
            local = _local(llm_settings, turns, max_tokens)
        finally:
            if server is not None:
                server.stop()
    for row in rows:
        row["vs_local_turns_per_minute"] = round(row["turns_per_minute"] / local["turns_per_minute"], 3) \
            if local["turns_per_minute"] else None
        row["vs_local_ttft_p50"] = round(row["ttft_p50_s"] / local["ttft_p50_s"], 3) if local["ttft_p50_s"] else None
    return {
        "model": llm_settings.generate_model,
        "max_tokens": max_tokens,
        "turns_per_desktop": turns,
        "machine": {"cpus": os.cpu_count(), "threads": threads},
        "server": {"kind": server_kind, "url": url, "parallel_slots": parallel, "started_here": server is not None,
                   "start_s": round(server_start, 3) if server_start is not None else None,
                   "cold_ttft_s": round(cold["ttft"], 3), "cold_error": cold.get("error")},
        "local": local,
        "remote": rows,
        "notes": ["warm figures; the first request of each path is reported as cold_* apart",
                  "local = the same turns on this desktop's own model in this process (one desktop)",
                  "llama_cpp.server answers one request at a time: N desktops queue" if parallel == 1 else
                  f"server with {parallel} parallel slots"],
    }


def run(args) -> int:
    counts = [int(n) for n in args.desktops.split(",") if n.strip()]
    result = bench(counts, args.turns, args.max_tokens, url=args.url, server_kind=args.server_kind,
                   model=args.model, parallel=args.parallel)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    local = result["local"]
    print(f"local (one desktop): {local['turns_per_minute']} turns/min, TTFT p50 {local['ttft_p50_s']} s, "
          f"p95 {local['ttft_p95_s']} s")
    for row in result["remote"]:
        print(f"{row['desktops']} desktop(s) via server: {row['turns_per_minute']} turns/min, "
              f"TTFT p50 {row['ttft_p50_s']} s, p95 {row['ttft_p95_s']} s, failures {row['failures']}")
    return 0
