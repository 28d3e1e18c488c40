"""`chartside bench llm`: the engine's LLM path against llama-cpp-python called directly.

Both paths load the same GGUF file with the same parameters and answer the same chat
messages (the engine's load is timed twice: warm, with the process's sha256 digest reused,
and as on a first start, with the weights hashed before loading) with greedy decoding, interleaved run by run so that machine noise hits both.
The KV cache is reset before every run so no run reuses another's prompt evaluation.

`--contexts` adds a second phase: a run of answers, each followed by a judge call as in a
turn that self-refines, with answers in a context of their own (the default on the CPU)
against one context shared by every role, interleaved step by step. With its own context
an answer re-uses the evaluated safety prompt of the answer before; sharing, the judge
call in between has overwritten it.
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
    parser.add_argument("--contexts", action="store_true",
                        help="also time answers after judge calls: own answer context vs one shared context")
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


# Synthetic, written for this bench (no knowledge-base or patient text).
PROFILE = "- allergy: penicillin (rash)\n- condition: type 2 diabetes\n- medication: metformin 500 mg twice daily"
SOURCES = ("[1] Metformin lowers blood glucose by reducing glucose production in the liver. Common side effects "
           "are nausea and diarrhoea, which often improve with time or when taken with food.\n"
           "[2] Low blood sugar causes shaking, sweating and confusion. Treat it with 15 g of fast sugar and "
           "check again after 15 minutes.")
QUESTIONS = ["What are the side effects of metformin?", "How do I treat low blood sugar?",
             "Can I take metformin with food?", "What should I eat with type 2 diabetes?"]


def _answer_then_judge(runtime, step: int, max_tokens: int) -> float:
    """One answer (its time to first token returned), then a judge call on it."""
    from engine.agent.judge import llm_judgement
    from engine.agent.prompting import system_message, user_message
    from engine.errors import ModelOutputError

    question = QUESTIONS[step % len(QUESTIONS)]
    messages = [{"role": "system", "content": system_message("en", safety="", profile=PROFILE, long_term="",
                                                             alerts=[])},
                {"role": "user", "content": user_message("en", question, SOURCES, True)}]
    answer = "".join(runtime.stream_chat("generate", messages, max_tokens=max_tokens, temperature=0.0))
    ttft = runtime.last_metrics.time_to_first_token
    try:
        llm_judgement(runtime, question, answer, SOURCES)
    except ModelOutputError:
        pass  # a small model's reply may not validate; the call still used the judge's context
    return ttft


def context_phase(cfg, runs: int, max_tokens: int) -> dict:
    from engine.llm.runtime import LlamaRuntime

    runtimes = {name: LlamaRuntime(cfg.model_copy(update={"generation_context_apart": apart}))
                for name, apart in (("own_answer_context", True), ("shared_context", False))}
    ttfts: dict[str, list[float]] = {name: [] for name in runtimes}
    try:
        for step in range(runs + 1):
            for name, runtime in runtimes.items():
                ttft = _answer_then_judge(runtime, step, max_tokens)
                if step:  # the first answer of each has nothing before it to re-use
                    ttfts[name].append(ttft)
    finally:
        for runtime in runtimes.values():
            runtime.close()
    rows = {name: {"answer_ttft_ms_median": round(_median(values) * 1000, 1)} for name, values in ttfts.items()}
    shared = rows["shared_context"]["answer_ttft_ms_median"]
    return {**rows, "runs": runs,
            "ttft_ratio_own_vs_shared": round(rows["own_answer_context"]["answer_ttft_ms_median"] / shared, 3)
            if shared else None}


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
    from engine.models import forget_verifications, get_model, sha256_file

    settings = load_settings()
    if args.n_gpu_layers is not None:
        settings.llm.n_gpu_layers = args.n_gpu_layers
    cfg = settings.llm
    entry = get_model(cfg.generate_model)
    path = entry.location()
    threads = _physical_threads(cfg.n_threads)

    engine_loads, direct_loads, first_start_loads, hashing = [], [], [], []
    runtime = llama = None
    for _ in range(3):
        if runtime:
            runtime.close()
        forget_verifications()  # a first start: the engine hashes the weights before loading them
        start = time.perf_counter()
        runtime = LlamaRuntime(cfg)
        runtime.load("generate")
        first_start_loads.append(time.perf_counter() - start)
        runtime.close()
        start = time.perf_counter()
        sha256_file(entry.weights_file())
        hashing.append(time.perf_counter() - start)
        start = time.perf_counter()  # warm: the digest of this process's earlier check is reused
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
    engine_row["load_first_start_with_sha256_s"] = round(_median(first_start_loads), 4)
    engine_row["sha256_s"] = round(_median(hashing), 4)
    direct_row = _summary(direct_runs, prompt_tokens, direct_loads)
    per_token = lambda row: row["total_ms"] / max(row["completion_tokens"], 1)  # noqa: E731
    report = {
        "model": cfg.generate_model,
        "n_gpu_layers": cfg.n_gpu_layers,
        "gpu_offload_supported": bool(llama_supports_gpu_offload()),
        "threads": threads,
        "runs": args.runs,
        "max_tokens": args.max_tokens,
        "load_note": "engine load_s: warm (the sha256 digest of this process's first check reused); "
                     "load_first_start_with_sha256_s: as on a first start, hashing included. The weights "
                     "file is in the OS page cache for every load",
        "engine": engine_row,
        "llama_cpp_direct": direct_row,
        "overhead_ratio": round(engine_row["total_ms"] / direct_row["total_ms"], 3) if direct_row["total_ms"] else None,
        "overhead_ratio_per_token": round(per_token(engine_row) / per_token(direct_row), 3),
    }
    runtime.close()
    llama.close()
    if args.contexts:
        report["answer_after_judge"] = context_phase(cfg, args.runs, args.max_tokens)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name in ("engine", "llama_cpp_direct"):
            row = report[name]
            print(f"{name:<18} load {row['load_s']:.3f}s  ttft {row['ttft_ms']:.1f} ms  "
                  f"prompt {row['prompt_eval_tokens_per_s']:.0f} tok/s  gen {row['generation_tokens_per_s']:.1f} tok/s")
        print(f"engine load on a first start (sha256 hashed): {report['engine']['load_first_start_with_sha256_s']:.3f}s "
              f"(hashing alone {report['engine']['sha256_s']:.3f}s)")
        print(f"overhead ratio (engine / direct, median total time): {report['overhead_ratio']}")
        if "answer_after_judge" in report:
            phase = report["answer_after_judge"]
            print(f"answer after a judge call, time to first token: own context "
                  f"{phase['own_answer_context']['answer_ttft_ms_median']:.1f} ms, shared "
                  f"{phase['shared_context']['answer_ttft_ms_median']:.1f} ms "
                  f"(ratio {phase['ttft_ratio_own_vs_shared']})")
    return 0
