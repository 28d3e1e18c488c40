"""The seed's ablation scenarios, their statistics and the report (Markdown table + PNG charts).

Scenarios are cumulative, as in the seed design: baseline (every feature off, BM25 only,
no profile), then self-refine, active retrieval, compression, hierarchical memory (with
the patient profile), the response cache, and the full system (dense retrieval and query
expansion added). Safety checks (triage, conflict alerts) stay on in every scenario:
they are not a feature to trade away.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

OFF = {
    "response_cache": False, "active_retrieval": False, "profile_memory": False, "hierarchical_memory": False,
    "profile_query_rewrite": False, "query_expansion": False, "dense": False, "compression": False,
    "self_refine": False,
}
STEPS = [
    ("baseline", {}),
    ("+self_refine", {"self_refine": True}),
    ("+active_retrieval", {"active_retrieval": True}),
    ("+compression", {"compression": True}),
    ("+hierarchical_memory", {"hierarchical_memory": True, "profile_memory": True, "profile_query_rewrite": True}),
    ("+cache", {"response_cache": True}),
    ("full", {"dense": True, "query_expansion": True}),
]
LANGUAGE_NAMES = {"en": "English", "ko": "Korean"}
METRICS = ("quality", "judge_quality", "grounding", "prompt_tokens", "latency_ms", "llm_calls")


def scenarios() -> list[tuple[str, dict]]:
    """(name, feature-flag overrides) for each cumulative scenario."""
    flags = dict(OFF)
    out = []
    for name, change in STEPS:
        flags = {**flags, **change}
        out.append((name, {} if name == "full" else dict(flags)))
    return out


def paired_stats(baseline: list[float], other: list[float]) -> dict:
    """Paired t-test (scipy) and Cohen's d of the differences (mean / sd)."""
    from scipy import stats

    pairs = [(a, b) for a, b in zip(baseline, other) if a is not None and b is not None]
    if len(pairs) < 3:
        return {"n": len(pairs), "t": None, "p": None, "cohens_d": None, "mean_diff": None}
    diffs = [b - a for a, b in pairs]
    mean_diff = statistics.fmean(diffs)
    sd = statistics.stdev(diffs)
    if sd == 0:
        return {"n": len(pairs), "t": None, "p": None, "cohens_d": 0.0 if mean_diff == 0 else None,
                "mean_diff": round(mean_diff, 4)}
    result = stats.ttest_rel([b for _, b in pairs], [a for a, _ in pairs])
    return {"n": len(pairs), "t": round(float(result.statistic), 4), "p": float(result.pvalue),
            "cohens_d": round(mean_diff / sd, 4), "mean_diff": round(mean_diff, 4)}


def summarise(rows: list[dict]) -> dict:
    def mean(key):
        values = [r[key] for r in rows if r.get(key) is not None]
        return round(statistics.fmean(values), 4) if values else None

    agent_turns = [r for r in rows if r["kind"] not in ("greeting", "acknowledgement")]
    return {
        "turns": len(rows),
        "quality": mean("quality"),
        "judge_quality": mean("judge_quality"),
        "grounding": mean("grounding"),
        "prompt_tokens": mean("prompt_tokens"),
        "latency_ms": mean("latency_ms"),
        "latency_p50_ms": round(statistics.median(r["latency_ms"] for r in rows), 1) if rows else None,
        "pipeline_p50_ms": round(statistics.median(r["pipeline_ms"] for r in rows), 1) if rows else None,
        "llm_calls_per_turn": mean("llm_calls"),
        "cache_hit_rate": round(sum(r["cache_hit"] for r in rows) / len(rows), 4) if rows else 0.0,
        "retrieval_skip_rate": round(sum(r["retrieval_skipped"] for r in rows) / len(rows), 4) if rows else 0.0,
        "mean_iterations": round(statistics.fmean(r["iterations"] for r in agent_turns), 4) if agent_turns else 0.0,
    }


def _paired_values(baseline: list[dict], rows: list[dict], metric: str) -> tuple[list, list]:
    """Values of `metric` for the turns both lists hold, matched by (conversation, turn) when
    the rows carry them (checkpointed runs), else by position."""
    if all("conversation" in r and "turn" in r for r in baseline + rows):
        other = {(r["conversation"], r["turn"]): r for r in rows}
        keys = [(r["conversation"], r["turn"]) for r in baseline if (r["conversation"], r["turn"]) in other]
        mine = {(r["conversation"], r["turn"]): r for r in baseline}
        return [mine[k].get(metric) for k in keys], [other[k].get(metric) for k in keys]
    return [r.get(metric) for r in baseline], [r.get(metric) for r in rows]


def compare(results: dict[str, list[dict]]) -> dict[str, dict]:
    """Per scenario: summary plus paired tests against the baseline for each metric."""
    baseline = results.get("baseline", [])
    out = {}
    for name, rows in results.items():
        summary = summarise(rows)
        if name != "baseline" and baseline:
            summary["vs_baseline"] = {metric: paired_stats(*_paired_values(baseline, rows, metric))
                                      for metric in METRICS}
        out[name] = summary
    return out


def _fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def markdown_table(summary: dict[str, dict]) -> str:
    header = ("| Scenario | Quality (heuristic) | Quality (LLM judge) | Grounding | Prompt tokens/turn | Latency ms (mean) "
              "| LLM calls/turn | Cache hits | Retrieval skipped | Δ quality vs baseline (p, d) |")
    lines = [header, "|" + "---|" * 10]
    for name, s in summary.items():
        vs = (s.get("vs_baseline") or {}).get("quality") or {}
        delta = "–" if not vs or vs.get("mean_diff") is None else (
            f"{vs['mean_diff']:+.3f} (p={_fmt(vs['p'], 3)}, d={_fmt(vs['cohens_d'], 2)})")
        lines.append(f"| {name} | {_fmt(s['quality'])} | {_fmt(s['judge_quality'])} | {_fmt(s['grounding'])} | "
                     f"{_fmt(s['prompt_tokens'], 0)} | {_fmt(s['latency_ms'], 0)} | {_fmt(s['llm_calls_per_turn'], 2)} | "
                     f"{s['cache_hit_rate']:.0%} | {s['retrieval_skip_rate']:.0%} | {delta} |")
    return "\n".join(lines) + "\n"


def write_charts(summary: dict[str, dict], folder: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    names = list(summary)
    charts = [("quality", "Answer quality (heuristic judge)", "ablation_quality.png"),
              ("prompt_tokens", "Prompt tokens per turn (all LLM calls)", "ablation_prompt_tokens.png"),
              ("latency_ms", "Mean latency per turn (ms)", "ablation_latency.png"),
              ("llm_calls_per_turn", "LLM calls per turn", "ablation_llm_calls.png"),
              ("cache_hit_rate", "Cache hit rate", "ablation_cache_hits.png")]
    written = []
    for key, title, filename in charts:
        figure, axis = plt.subplots(figsize=(8, 3.6))
        values = [summary[n].get(key) or 0.0 for n in names]
        axis.bar(names, values, color="#3b6ea5")
        axis.set_title(title)
        axis.tick_params(axis="x", rotation=25)
        for x, value in enumerate(values):
            axis.annotate(f"{value:.2f}" if value < 100 else f"{value:.0f}", (x, value), ha="center", va="bottom", fontsize=8)
        figure.tight_layout()
        path = folder / filename
        figure.savefig(path, dpi=110)
        plt.close(figure)
        written.append(path)
    return written


def _judge_detail(meta: dict) -> str:
    judged, done = meta.get("llm_judge_conversations"), meta.get("conversations")
    if judged is None:
        judged = done if meta.get("llm_judge") else 0
    if judged == 0:
        return "heuristic judge only"
    if judged == done:
        return "LLM judge on every answer"
    return (f"heuristic judge on every answer, LLM judge on the answers of {judged} of the {done} conversations "
            "(its column and its tests are over those)")


def report_heading(meta: dict) -> str:
    """"Ablation: N of M conversations, default model (name), real run" plus how it was made."""
    done = meta.get("conversations")
    planned = meta.get("planned_conversations") or done
    model = meta.get("model")
    which = {True: f"default model ({model})", False: f"model {model} (not the default)"}.get(
        meta.get("default_model"), f"model {model}")
    kind = "real run" if meta.get("real_run", True) else "test run"
    lines = [f"# Ablation: {done} of {planned} conversations, {which}, {kind}", ""]
    languages = ", ".join(f"{count} {LANGUAGE_NAMES.get(code, code)}"
                          for code, count in (meta.get("languages") or {}).items())
    details = ([languages] if languages else []) + [f"{meta.get('turns')} turns"]
    if meta.get("knowledge_base"):
        details.append(f"knowledge base: {meta['knowledge_base']}")
    if meta.get("max_answer_tokens"):
        details.append(f"answers capped at {meta['max_answer_tokens']} tokens")
    details.append(_judge_detail(meta))
    lines += ["; ".join(details) + ".", "", f"Command: `{meta.get('command')}`"]
    lines += [f"Resumed with: `{command}`" for command in meta.get("resumed_with") or []]
    if meta.get("report_command"):
        lines.append(f"Report built from its checkpoint with: `{meta['report_command']}`")
    return "\n".join(lines) + "\n"


def write_report(folder: Path, summary: dict[str, dict], results: dict[str, list[dict]], meta: dict) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    table = markdown_table(summary)
    (folder / "ablation.md").write_text(f"{report_heading(meta)}\n{table}", encoding="utf-8")
    turns = {name: [{k: v for k, v in row.items() if k != "alerts"} for row in rows] for name, rows in results.items()}
    (folder / "ablation.json").write_text(
        json.dumps({"meta": meta, "summary": summary, "turns": turns}, indent=2, ensure_ascii=False), encoding="utf-8")
    charts = write_charts(summary, folder)
    return {"table": str(folder / "ablation.md"), "json": str(folder / "ablation.json"), "charts": [str(c) for c in charts]}
