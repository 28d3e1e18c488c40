"""`chartside bench agent [--json] [--conversations N] [--cache-hits N]`: the agent's speed and LLM economy.

One run, default settings, the real model, answers capped at 64 tokens (so that the
whole bench takes about three minutes on two CPU cores):
- pipeline time per turn excluding LLM calls (median; target ≤ 100 ms), over the first N
  conversations of the team's set (default 4, alternating English and Korean);
- answer time of cache hits (median and p90; target median ≤ 50 ms) over `--cache-hits`
  hits (default 24): the hits inside those conversations plus a cache phase that takes the
  set's plain questions that have a paraphrase or a repeat, in order, and asks each (answered
  by the model), then its paraphrase or repeat from the set, an exact repeat, that
  paraphrase again and the question in a new session, until enough hits were timed. The
  query-embedding memo is cleared before each probe, and probe hits are also reported apart
  by memo state (`cache_hit_ms_by_memo`): cold = a text embedded for the first time (the
  first paraphrase), warm = a text embedded before (exact repeats);
- mean LLM calls per agent turn (target ≤ 1.6) and mean answer quality, compared with the
  same conversations where the LLM judge is used on every answer
  (`heuristic_judge_for_small_models = false`): the economy must cost no quality.
"""

from __future__ import annotations

import json
import math
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
    parser.add_argument("--conversations", type=int, default=4, help="first N conversations (alternating en/ko)")
    parser.add_argument("--cache-hits", type=int, default=24,
                        help="probe the cache with the set's repeats and paraphrases until this many hits were timed")
    parser.add_argument("--max-answer-tokens", type=int, default=64, help="cap answers (0: the settings' cap)")
    parser.add_argument("--skip-always-judge", action="store_true", help="do not run the always-LLM-judge comparison")
    parser.add_argument("--kb", choices=["auto", "default", "subset"], default="auto",
                        help="knowledge base: the default index, a topic subset of it, or default when built")
    parser.add_argument("--kb-docs", type=int, default=600, help="documents in the topic subset")
    parser.set_defaults(func=run)


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def _percentile(values: list[float], fraction: float) -> float | None:
    """Nearest-rank percentile (the value at or below which `fraction` of the values lie)."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(fraction * len(ordered)) - 1)], 3)


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


def cache_probes(conversations: list[dict]) -> list[dict]:
    """The set's plain questions (no facts stated with them) that a later turn paraphrases or
    repeats, with that turn's text."""
    probes = []
    for conversation in conversations:
        turns = conversation["turns"]
        for turn in turns:
            original = turns[turn["of_turn"] - 1] if turn["kind"] in ("paraphrase", "repeat") else None
            if original is not None and original["kind"] == "question":
                probes.append({"conversation": conversation["id"], "question": original["user"],
                               "again": turn["user"], "kind": turn["kind"]})
                break
    return probes


def _ask(engine, text, patient_id, session_id, settings) -> dict:
    from engine.events import Done

    result = {}
    for event in engine.ask(text, patient_id=patient_id, session_id=session_id, settings=settings):
        if isinstance(event, Done):
            result = event.result
    return result


def probe_cache(engine, probes: list[dict], settings, hits_wanted: int) -> list[dict]:
    """Ask each probe's question (a model answer), then the later turn, an exact repeat, a
    repeat of the later turn, and the question in a new session; one row per follow-up.
    Stops once `hits_wanted` hits were timed (answers under the quality threshold are not
    cached, so some probes give no hit)."""
    patient = engine.patients.create_patient("bench cache")
    memo = engine.embedder if hasattr(engine.embedder, "holds") else None
    rows = []
    for probe in probes:
        if sum(row["cache_hit"] for row in rows) >= hits_wanted:
            break
        if memo is not None:
            memo.clear()  # the first paraphrase below is then embedded cold, as on its first asking
        session = engine.patients.new_session(patient["id"])
        _ask(engine, probe["question"], patient["id"], session["id"], settings)
        asks = [(probe["kind"], probe["again"], session), ("repeat", probe["question"], session),
                (f"{probe['kind']} again", probe["again"], session),
                ("new session", probe["question"], engine.patients.new_session(patient["id"]))]
        for kind, text, where in asks:
            warm = memo is not None and memo.holds(text)
            trace = _ask(engine, text, patient["id"], where["id"], settings)["trace"]
            rows.append({"conversation": probe["conversation"], "kind": kind, "cache_hit": trace["cache_hit"],
                         "ms": trace["timings_ms"]["total"], "memo": "warm" if warm else "cold"})
    return rows


def memo_split(probes: list[dict]) -> dict:
    """Cache-hit times apart: first-time texts (query-embedding memo cold, as for a new
    paraphrase) and texts already embedded (memo warm: exact repeats)."""
    split = {}
    for state in ("cold", "warm"):
        hits = [p["ms"] for p in probes if p["cache_hit"] and p.get("memo") == state]
        split[state] = {"hits": len(hits), "ms_p50": _median(hits), "ms_p90": _percentile(hits, 0.90)}
    return split


def _probe_summary(probes: list[dict]) -> dict:
    """Per kind of follow-up: how many were asked, how many hit, the hits' median time."""
    summary = {}
    for kind in dict.fromkeys(p["kind"] for p in probes):
        hits = [p["ms"] for p in probes if p["kind"] == kind and p["cache_hit"]]
        summary[kind] = {"asked": sum(1 for p in probes if p["kind"] == kind), "hits": len(hits),
                         "hit_ms_p50": _median(hits)}
    return summary


def run(args) -> int:
    passive_openmp_waits()
    from engine.bench.evaluation import load_conversations, prepare_knowledge, run_conversations
    from engine.facade import Engine
    from engine.settings import load_settings

    conversations = load_conversations(limit=args.conversations)
    settings = load_settings()
    if args.max_answer_tokens:
        settings = settings.model_copy(update={"llm": settings.llm.model_copy(update={"max_answer_tokens": args.max_answer_tokens})})
    scratch = Path(tempfile.mkdtemp(prefix="chartside-bench-"))
    engine = Engine(settings, vault_path=scratch / "vault.db")
    try:
        engine.patients.unlock(secrets.token_urlsafe(24), create=True)
        knowledge = prepare_knowledge(engine, args.kb, args.kb_docs)
        progress = lambda done, total, cid: print(f"  {done}/{total} {cid}", file=sys.stderr, flush=True)  # noqa: E731
        print("default settings", file=sys.stderr, flush=True)
        rows = [r.as_dict() for r in run_conversations(engine, conversations, settings, progress=progress)]
        in_conversation = [r["latency_ms"] for r in rows if r["cache_hit"]]
        engine.turns.clear_response_cache()
        print("cache probes", file=sys.stderr, flush=True)
        probes = probe_cache(engine, cache_probes(load_conversations()), settings,
                             max(0, args.cache_hits - len(in_conversation)))
        probe_hits = [p["ms"] for p in probes if p["cache_hit"]]
        hit_times = in_conversation + probe_hits
        report = {
            "model": engine.llm.info("generate").name,
            "conversations": len(conversations),
            "max_answer_tokens": settings.llm.max_answer_tokens,
            "knowledge_base": knowledge,
            "pipeline_ms_p50": _median([r["pipeline_ms"] for r in rows]),
            "pipeline_ms_p95": _percentile([r["pipeline_ms"] for r in rows], 0.95),
            "cache_hit_ms_p50": _median(hit_times),
            "cache_hit_ms_p90": _percentile(hit_times, 0.90),
            "cache_hit_samples": len(hit_times),
            "cache_hits": {"in_conversations": len(in_conversation), "probes": _probe_summary(probes)},
            "cache_hit_ms_by_memo": memo_split(probes),
            "default": _figures(rows),
            "service_notes": engine.service_notes,
        }
        if not args.skip_always_judge:
            print("always LLM judge", file=sys.stderr, flush=True)
            engine.turns.clear_response_cache()
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
        f"cache_hit_samples>={args.cache_hits}": report["cache_hit_samples"] >= args.cache_hits,
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
             f"cache hit p50 {report['cache_hit_ms_p50']} ms, p90 {report['cache_hit_ms_p90']} ms "
             f"over {report['cache_hit_samples']} hits ({report['cache_hits']})",
             f"cache hits, query-embedding memo cold (first-time text) vs warm (repeat): "
             f"{report['cache_hit_ms_by_memo']}",
             f"default: {report['default']}"]
    if "always_llm_judge" in report:
        lines.append(f"always LLM judge: {report['always_llm_judge']}")
    lines.append(f"targets: {report['targets']}")
    return "\n".join(lines)
