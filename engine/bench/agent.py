"""`chartside bench agent [--json] [--conversations N]`: the agent's speed and LLM economy.

One run, default settings, the real model, over the team's conversation set:
- pipeline time per turn excluding LLM calls (median; target ≤ 100 ms);
- answer time of cache hits (median; target ≤ 50 ms), from the set's repeated and
  paraphrased questions plus a direct repeat of each conversation's first question;
- mean LLM calls per agent turn (target ≤ 1.6) and mean answer quality, compared with the
  same run where the LLM judge is used on every answer (`heuristic_judge_for_small_models
  = false`): the economy must cost no quality.
"""

from __future__ import annotations

import json
import secrets
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from engine.agent.runtime_env import passive_openmp_waits


def register(subparsers) -> None:
    parser = subparsers.add_parser("agent", help="agent pipeline time, cache-hit time, LLM calls per turn")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--conversations", type=int, default=None, help="first N conversations (alternating en/ko)")
    parser.add_argument("--max-answer-tokens", type=int, default=None, help="cap answers (default: settings)")
    parser.add_argument("--skip-always-judge", action="store_true", help="do not run the always-LLM-judge comparison")
    parser.add_argument("--kb", choices=["auto", "default", "subset"], default="auto",
                        help="knowledge base: the default index, a topic subset of it, or default when built")
    parser.add_argument("--kb-docs", type=int, default=600, help="documents in the topic subset")
    parser.set_defaults(func=run)


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def _p95(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3)


def _figures(rows: list[dict]) -> dict:
    questions = [r for r in rows if r["kind"] not in ("greeting", "acknowledgement")]
    return {
        "turns": len(rows),
        "llm_calls_per_turn": round(statistics.fmean(r["llm_calls"] for r in rows), 4) if rows else None,
        "llm_calls_per_question_turn": round(statistics.fmean(r["llm_calls"] for r in questions), 4) if questions else None,
        "quality_mean": round(statistics.fmean(r["quality"] for r in questions), 4) if questions else None,
        "grounding_mean": round(statistics.fmean(r["grounding"] for r in questions), 4) if questions else None,
        "cache_hits": sum(1 for r in rows if r["cache_hit"]),
        "iterations_mean": round(statistics.fmean(r["iterations"] for r in questions), 4) if questions else None,
    }


def _repeat_hits(engine, conversations, settings) -> list[float]:
    """Ask each conversation's first real question twice in a fresh session; time the second (a hit)."""
    from engine.events import Done

    times = []
    patient = engine.create_patient("bench repeats")
    for conversation in conversations:
        question = next(t["user"] for t in conversation["turns"] if t["kind"] in ("question", "facts+question"))
        session = engine.new_session(patient["id"])
        for attempt in range(2):
            result = {}
            for event in engine.ask(question, patient_id=patient["id"], session_id=session["id"], settings=settings):
                if isinstance(event, Done):
                    result = event.result
            if attempt == 1 and result["trace"]["cache_hit"]:
                times.append(result["trace"]["timings_ms"]["total"])
    return times


def run(args) -> int:
    passive_openmp_waits()
    from engine.agent.evaluation import load_conversations, prepare_knowledge, run_conversations
    from engine.facade import Engine
    from engine.settings import load_settings

    conversations = load_conversations(limit=args.conversations)
    settings = load_settings()
    if args.max_answer_tokens:
        settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"max_answer_tokens": args.max_answer_tokens})})
    scratch = Path(tempfile.mkdtemp(prefix="chartside-bench-"))
    engine = Engine(settings, vault_path=scratch / "vault.db")
    try:
        engine.unlock(secrets.token_urlsafe(24), create=True)
        knowledge = prepare_knowledge(engine, args.kb, args.kb_docs)
        progress = lambda done, total, cid: print(f"  {done}/{total} {cid}", file=sys.stderr, flush=True)  # noqa: E731
        print("default settings", file=sys.stderr, flush=True)
        rows = [r.as_dict() for r in run_conversations(engine, conversations, settings, progress=progress)]
        hit_times = [r["latency_ms"] for r in rows if r["cache_hit"]]
        engine.clear_response_cache()
        repeat_times = _repeat_hits(engine, conversations, settings)
        report = {
            "model": engine.llm.info("generate").name,
            "conversations": len(conversations),
            "knowledge_base": knowledge,
            "pipeline_ms_p50": _median([r["pipeline_ms"] for r in rows]),
            "pipeline_ms_p95": _p95([r["pipeline_ms"] for r in rows]),
            "cache_hit_ms_p50": _median(hit_times + repeat_times),
            "cache_hit_samples": len(hit_times) + len(repeat_times),
            "default": _figures(rows),
            "service_notes": engine.service_notes,
        }
        if not args.skip_always_judge:
            print("always LLM judge", file=sys.stderr, flush=True)
            engine.clear_response_cache()
            always = settings.with_flags({"heuristic_judge_for_small_models": False})
            report["always_llm_judge"] = _figures([r.as_dict() for r in run_conversations(engine, conversations, always,
                                                                                         progress=progress)])
    finally:
        engine.close()
        shutil.rmtree(scratch, ignore_errors=True)
    default = report["default"]
    report["targets"] = {
        "pipeline_ms_p50<=100": report["pipeline_ms_p50"] is not None and report["pipeline_ms_p50"] <= 100,
        "cache_hit_ms_p50<=50": report["cache_hit_ms_p50"] is not None and report["cache_hit_ms_p50"] <= 50,
        "llm_calls_per_turn<=1.6": default["llm_calls_per_turn"] is not None and default["llm_calls_per_turn"] <= 1.6,
    }
    if "always_llm_judge" in report:
        report["targets"]["quality_not_below_always_judging"] = (
            default["quality_mean"] is not None
            and default["quality_mean"] >= report["always_llm_judge"]["quality_mean"] - 0.01)
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else _text(report))
    return 0


def _text(report: dict) -> str:
    lines = [f"model {report['model']}, {report['conversations']} conversations",
             f"pipeline (excl. LLM) p50 {report['pipeline_ms_p50']} ms, p95 {report['pipeline_ms_p95']} ms",
             f"cache hit p50 {report['cache_hit_ms_p50']} ms over {report['cache_hit_samples']} hits",
             f"default: {report['default']}"]
    if "always_llm_judge" in report:
        lines.append(f"always LLM judge: {report['always_llm_judge']}")
    lines.append(f"targets: {report['targets']}")
    return "\n".join(lines)
