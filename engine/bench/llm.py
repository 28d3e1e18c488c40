"""`chartside bench llm`: the engine's LLM path against llama-cpp-python called directly.

Both paths load the same GGUF file with the same parameters and answer the same chat
messages with greedy decoding, interleaved run by run so that machine noise hits both.
The KV cache is reset before every run so no run reuses another's prompt evaluation.
"""

from __future__ import annotations

import json
import statistics
import time

from engine.settings import load_settings

MESSAGES = [
    {"role": "system", "content": "You are a concise medical information assistant."},
    {"role": "user", "content": "What is high blood pressure, and how is it usually treated? "
                                "Answer in three sentences."},
]


def register(subparsers) -> None:
    parser = subparsers.add_parser("llm", help="LLM load time, prompt/generation tokens/s, TTFT vs llama-cpp-python")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--n-gpu-layers", type=int, default=None, help="override settings (-1 = all layers)")
    parser.set_defaults(func=run)


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _direct_run(llama, max_tokens: int, cfg) -> dict:
    llama.reset()
    start = time.perf_counter()
    ttft, tokens = 0.0, 0
    stream = llama.create_chat_completion(messages=MESSAGES, max_tokens=max_tokens, temperature=0.0, stream=True,
                                          top_p=cfg.top_p, repeat_penalty=cfg.repeat_penalty)
    for chunk in stream:
        delta = chunk["choices"][0]["delta"]
        if "content" in delta:
            if tokens == 0:
                ttft = time.perf_counter() - start
            tokens += 1
    total = time.perf_counter() - start
    return {"ttft": ttft, "total": total, "tokens": tokens}


def _engine_run(runtime, max_tokens: int) -> dict:
    runtime.load("generate").llama.reset()
    start = time.perf_counter()
    for _ in runtime.stream_chat("generate", MESSAGES, max_tokens=max_tokens, temperature=0.0):
        pass
    metrics = runtime.last_metrics
    return {"ttft": metrics.time_to_first_token, "total": time.perf_counter() - start,
            "tokens": metrics.completion_tokens, "prompt_tokens": metrics.prompt_tokens}


def _summary(runs: list[dict], prompt_tokens: int, load_seconds: list[float]) -> dict:
    ttft = _median([r["ttft"] for r in runs])
    total = _median([r["total"] for r in runs])
    tokens = _median([r["tokens"] for r in runs])
    gen_rates = [(r["tokens"] - 1) / (r["total"] - r["ttft"]) for r in runs if r["tokens"] > 1 and r["total"] > r["ttft"]]
    return {
        "load_s": round(_median(load_seconds), 4),
        "ttft_ms": round(ttft * 1000, 2),
        "prompt_tokens": prompt_tokens,
        "prompt_eval_tokens_per_s": round(prompt_tokens / ttft, 1) if ttft else 0.0,
        "generation_tokens_per_s": round(_median(gen_rates), 1),
        "completion_tokens": tokens,
        "total_ms": round(total * 1000, 2),
    }


def run(args) -> int:
    from llama_cpp import Llama, llama_supports_gpu_offload

    from engine.llm.runtime import LlamaRuntime, _physical_threads
    from engine.models import get_model, verify

    settings = load_settings()
    if args.n_gpu_layers is not None:
        settings.llm.n_gpu_layers = args.n_gpu_layers
    cfg = settings.llm
    path = verify(get_model(cfg.generate_model))
    threads = _physical_threads(cfg.n_threads)

    engine_loads, direct_loads = [], []
    runtime = llama = None
    for _ in range(3):
        if runtime:
            runtime.close()
        start = time.perf_counter()
        runtime = LlamaRuntime(cfg)
        runtime.load("generate")
        engine_loads.append(time.perf_counter() - start)
        if llama:
            llama.close()
        start = time.perf_counter()
        llama = Llama(model_path=str(path), n_ctx=cfg.n_ctx, n_threads=threads, n_threads_batch=threads,
                      n_gpu_layers=cfg.n_gpu_layers, n_batch=cfg.n_batch, seed=cfg.seed, verbose=False)
        direct_loads.append(time.perf_counter() - start)

    _engine_run(runtime, 4)
    _direct_run(llama, 4, cfg)
    engine_runs, direct_runs = [], []
    for _ in range(args.runs):
        engine_runs.append(_engine_run(runtime, args.max_tokens))
        direct_runs.append(_direct_run(llama, args.max_tokens, cfg))
    prompt_tokens = engine_runs[0]["prompt_tokens"]
    engine_row = _summary(engine_runs, prompt_tokens, engine_loads)
    direct_row = _summary(direct_runs, prompt_tokens, direct_loads)
    per_token = lambda row: row["total_ms"] / max(row["completion_tokens"], 1)  # noqa: E731
    report = {
        "model": cfg.generate_model,
        "n_gpu_layers": cfg.n_gpu_layers,
        "gpu_offload_supported": bool(llama_supports_gpu_offload()),
        "threads": threads,
        "runs": args.runs,
        "max_tokens": args.max_tokens,
        "engine": engine_row,
        "llama_cpp_direct": direct_row,
        "overhead_ratio": round(engine_row["total_ms"] / direct_row["total_ms"], 3) if direct_row["total_ms"] else None,
        "overhead_ratio_per_token": round(per_token(engine_row) / per_token(direct_row), 3),
    }
    runtime.close()
    llama.close()
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name in ("engine", "llama_cpp_direct"):
            row = report[name]
            print(f"{name:<18} load {row['load_s']:.3f}s  ttft {row['ttft_ms']:.1f} ms  "
                  f"prompt {row['prompt_eval_tokens_per_s']:.0f} tok/s  gen {row['generation_tokens_per_s']:.1f} tok/s")
        print(f"overhead ratio (engine / direct, median total time): {report['overhead_ratio']}")
    return 0
