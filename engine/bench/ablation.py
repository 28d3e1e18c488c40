"""The seed's ablation scenarios, their statistics and the report (Markdown tables + PNG charts).

Scenarios are cumulative, as in the seed design: baseline (every feature off, BM25 only,
no profile), then self-refine, active retrieval, compression, hierarchical memory (with
the patient profile), the response cache, and the full system (dense retrieval and query
expansion added). Safety checks (triage, conflict alerts) stay on in every scenario:
they are not a feature to trade away.

Statistics are at the conversation level. A conversation's five turns share a patient,
a topic and a memory, so they are not independent observations: each metric is first
averaged per conversation (small-talk turns, which score a constant when answered at
all, left out of every quality metric), and scenarios are compared on those means,
paired by conversation (paired t-test and Wilcoxon signed-rank, Cohen's d_z of the
differences). Because the scenarios are cumulative, each step is also compared with the
scenario before it (its increment). The p-values of one metric form one family (every
scenario against the baseline plus every increment not already among those) and are
Holm-adjusted within it.
"""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import dataclass
from pathlib import Path

from engine.bench.evaluation import SMALL_TALK_KINDS

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


@dataclass(frozen=True)
class Metric:
    """One reported column: what it is, who grades it and whether the pipeline selects by it.

    `ratio`: (numerator, denominator) row keys pooled within a conversation (support and
    citation precision are shares of sentences, not of turns). `quality`: a quality metric
    (small talk left out, tested across scenarios); otherwise a cost, averaged over every turn.
    """

    key: str
    label: str
    grader: str
    selects: str
    quality: bool = True
    ratio: tuple[str, str] | None = None
    digits: int = 3


METRICS = (
    Metric("nugget_recall", "Nugget recall",
           "reference facts written for each question turn (resources/eval/conversation_nuggets.jsonl), "
           "any-of phrase groups, English and Korean phrases", "no"),
    Metric("wrong_claim", "Wrong-claim rate", "forbidden claims of the same file (share of question turns with one)",
           "no"),
    Metric("support_rate", "Support rate",
           "the answer bench's support re-check: share of the answer's sentences a sentence of the turn's sources backs",
           "partly: the answer writer keeps only sentences its own support guard (the same checker) backs",
           ratio=("support_supported", "support_sentences")),
    Metric("citation_precision", "Citation precision",
           "the answer bench's re-check: share of cited sentences whose cited passage backs them",
           "partly: as for support", ratio=("support_cited_ok", "support_cited")),
    Metric("rouge_l", "ROUGE-L vs reference", "ROUGE-L F1 against the written reference answer (English turns)", "no"),
    Metric("reference_cosine", "Cosine vs reference",
           "embedding cosine against the written reference answer (English turns)", "no"),
    Metric("quality", "Selection score (circular)", "heuristic judge (overall)",
           "yes: self-refine keeps the draft this score ranks best; it cannot show whether answers got better"),
    Metric("grounding", "Grounding (heuristic)", "heuristic judge (grounding part)",
           "yes: part of the selection score"),
    Metric("judge_quality", "LLM judge", "the judge model (135M by default) after the turn",
           "no (the pipeline uses the heuristic for models under 1B parameters)"),
    Metric("prompt_tokens", "Prompt tokens/turn", "counted", "–", quality=False, digits=0),
    Metric("latency_ms", "Latency ms (mean)", "measured", "–", quality=False, digits=0),
    Metric("llm_calls", "LLM calls/turn", "counted", "–", quality=False, digits=2),
)
PRIMARY = "nugget_recall"


def scenarios() -> list[tuple[str, dict]]:
    """(name, feature-flag overrides) for each cumulative scenario."""
    flags = dict(OFF)
    out = []
    for name, change in STEPS:
        flags = {**flags, **change}
        out.append((name, {} if name == "full" else dict(flags)))
    return out


# --- statistics ---------------------------------------------------------------------------

def holm(pvalues: list[float | None]) -> list[float | None]:
    """Holm–Bonferroni adjusted p-values, in the order given (None stays None and is not counted)."""
    present = sorted((p, i) for i, p in enumerate(pvalues) if p is not None)
    m = len(present)
    adjusted: list[float | None] = [None] * len(pvalues)
    running = 0.0
    for rank, (p, index) in enumerate(present):
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[index] = running
    return adjusted


def paired_stats(baseline: list[float | None], other: list[float | None]) -> dict:
    """Paired t-test and Wilcoxon signed-rank test (scipy) of `other - baseline`, with the
    mean difference, its 95 % t interval and Cohen's d_z (mean / sd of the differences).

    The inputs are one value per unit of analysis (here: per conversation); a pair with a
    None on either side is dropped.
    """
    from scipy import stats

    pairs = [(a, b) for a, b in zip(baseline, other) if a is not None and b is not None]
    out = {"n": len(pairs), "mean_diff": None, "ci95": None, "t": None, "p": None, "wilcoxon": None,
           "p_wilcoxon": None, "cohens_d": None}
    if len(pairs) < 2:
        return out
    diffs = [b - a for a, b in pairs]
    mean_diff = statistics.fmean(diffs)
    sd = statistics.stdev(diffs)
    out["mean_diff"] = round(mean_diff, 4)
    if sd == 0:
        out["cohens_d"] = 0.0 if mean_diff == 0 else None
        return out
    result = stats.ttest_rel([b for _, b in pairs], [a for a, _ in pairs])
    half = float(stats.t.ppf(0.975, len(diffs) - 1)) * sd / math.sqrt(len(diffs))
    out.update({"ci95": [round(mean_diff - half, 4), round(mean_diff + half, 4)],
                "t": round(float(result.statistic), 4), "p": float(result.pvalue),
                "cohens_d": round(mean_diff / sd, 4)})
    if any(d != 0 for d in diffs):
        signed = stats.wilcoxon(diffs)
        out.update({"wilcoxon": float(signed.statistic), "p_wilcoxon": float(signed.pvalue)})
    return out


def conversation_means(rows: list[dict], metric: Metric) -> dict[str, float]:
    """conversation id -> the metric over that conversation's eligible turns (small talk left
    out of quality metrics; ratio metrics pooled over the conversation's sentences)."""
    grouped: dict[str, list[dict]] = {}
    for row in rows:
        if metric.quality and row.get("kind") in SMALL_TALK_KINDS:
            continue
        grouped.setdefault(row["conversation"], []).append(row)
    out = {}
    for conversation, turns in grouped.items():
        if metric.ratio:
            numerator, denominator = metric.ratio
            total = sum(r.get(denominator) or 0 for r in turns)
            if total:
                out[conversation] = sum(r.get(numerator) or 0 for r in turns) / total
            continue
        values = [float(r[metric.key]) for r in turns if r.get(metric.key) is not None]
        if values:
            out[conversation] = statistics.fmean(values)
    return out


def comparisons(names: list[str]) -> list[tuple[str, str, list[str]]]:
    """(earlier, later, roles) for the family: every scenario against the baseline, and every
    cumulative step against the scenario before it (the first step is both)."""
    out: dict[tuple[str, str], list[str]] = {}
    for later in names[1:]:
        out.setdefault((names[0], later), []).append("vs_baseline")
    for earlier, later in zip(names, names[1:]):
        out.setdefault((earlier, later), []).append("increment")
    return [(a, b, roles) for (a, b), roles in out.items()]


def metric_tests(results: dict[str, list[dict]], metric: Metric) -> list[dict]:
    """The metric's family of paired conversation-level tests, Holm-adjusted (t and Wilcoxon apart)."""
    names = list(results)
    if len(names) < 2:
        return []
    means = {name: conversation_means(rows, metric) for name, rows in results.items()}
    tests = []
    for earlier, later, roles in comparisons(names):
        shared = sorted(set(means[earlier]) & set(means[later]))
        stats_ = paired_stats([means[earlier][c] for c in shared], [means[later][c] for c in shared])
        tests.append({"metric": metric.key, "earlier": earlier, "later": later, "roles": roles, **stats_})
    for key in ("p", "p_wilcoxon"):
        for test, adjusted in zip(tests, holm([t[key] for t in tests])):
            test[f"{key}_holm"] = adjusted
    return tests


def summarise(rows: list[dict]) -> dict:
    """Per-scenario means: quality metrics over the non-small-talk turns (ratios pooled over
    sentences), costs over every turn; the small talk is counted apart."""
    def mean(key, turns):
        values = [float(r[key]) for r in turns if r.get(key) is not None]
        return round(statistics.fmean(values), 4) if values else None

    answered = [r for r in rows if r.get("kind") not in SMALL_TALK_KINDS]
    small_talk = [r for r in rows if r.get("kind") in SMALL_TALK_KINDS]
    summary = {"turns": len(rows), "conversations": len({r.get("conversation") for r in rows}),
               "small_talk_turns": len(small_talk),
               "small_talk_answered": round(sum(1 for r in small_talk if r.get("quality")) / len(small_talk), 4)
               if small_talk else None}
    for metric in METRICS:
        turns = answered if metric.quality else rows
        if metric.ratio:
            numerator, denominator = metric.ratio
            total = sum(r.get(denominator) or 0 for r in turns)
            summary[metric.key] = round(sum(r.get(numerator) or 0 for r in turns) / total, 4) if total else None
        else:
            summary[metric.key] = mean(metric.key, turns)
    summary.update({
        "latency_p50_ms": round(statistics.median(r["latency_ms"] for r in rows), 1) if rows else None,
        "pipeline_p50_ms": round(statistics.median(r["pipeline_ms"] for r in rows), 1) if rows else None,
        "llm_calls_per_turn": summary["llm_calls"],
        "cache_hit_rate": round(sum(r["cache_hit"] for r in rows) / len(rows), 4) if rows else 0.0,
        "retrieval_skip_rate": round(sum(r["retrieval_skipped"] for r in rows) / len(rows), 4) if rows else 0.0,
        "mean_iterations": round(statistics.fmean(r["iterations"] for r in answered), 4) if answered else 0.0,
    })
    return summary


def compare(results: dict[str, list[dict]]) -> dict:
    """{"scenarios": per-scenario summary, "tests": metric -> its Holm-adjusted family of
    conversation-level paired tests}; only metrics some turn carries are tested."""
    tests = {}
    for metric in METRICS:
        if metric.quality and any(r.get(metric.key) is not None or (metric.ratio and r.get(metric.ratio[1]))
                                  for rows in results.values() for r in rows):
            tests[metric.key] = metric_tests(results, metric)
    return {"scenarios": {name: summarise(rows) for name, rows in results.items()}, "tests": tests}


# --- report -------------------------------------------------------------------------------

def _fmt(value, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _p(value) -> str:
    if value is None:
        return "–"
    return "<0.001" if value < 0.001 else f"{value:.3f}"


def shown_metrics(summary: dict) -> list[Metric]:
    """The metrics some scenario has a value for (an older checkpoint lacks the graded ones)."""
    scenarios_ = summary["scenarios"].values()
    return [m for m in METRICS if any(s.get(m.key) is not None for s in scenarios_)]


def markdown_table(summary: dict) -> str:
    """The per-scenario means (quality over the non-small-talk turns, costs over every turn)."""
    metrics = shown_metrics(summary)
    header = "| Scenario | " + " | ".join(m.label for m in metrics) + " | Cache hits | Retrieval skipped |"
    lines = [header, "|" + "---|" * (len(metrics) + 3)]
    for name, s in summary["scenarios"].items():
        cells = [_fmt(s.get(m.key), m.digits) for m in metrics]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {s['cache_hit_rate']:.0%} | {s['retrieval_skip_rate']:.0%} |")
    return "\n".join(lines) + "\n"


def graders_table(summary: dict) -> str:
    """Which grader each column uses and whether the pipeline selects answers by it."""
    lines = ["| Column | Graded by | Does the pipeline select by it? |", "|---|---|---|"]
    lines += [f"| {m.label} | {m.grader} | {m.selects} |" for m in shown_metrics(summary)]
    return "\n".join(lines) + "\n"


def tests_table(tests: list[dict], digits: int = 3) -> str:
    lines = ["| Comparison | Δ (later − earlier) | 95 % CI | d_z | n | p (t) | Holm p (t) | p (Wilcoxon) "
             "| Holm p (Wilcoxon) |", "|" + "---|" * 9]
    for test in tests:
        role = " and ".join({"vs_baseline": "vs baseline", "increment": "increment"}[r] for r in test["roles"])
        diff = "–" if test["mean_diff"] is None else f"{test['mean_diff']:+.{digits}f}"
        ci = test.get("ci95")
        interval = "–" if not ci else f"{ci[0]:+.{digits}f} to {ci[1]:+.{digits}f}"
        lines.append(f"| {test['later']} vs {test['earlier']} ({role}) | {diff} | {interval} | "
                     f"{_fmt(test['cohens_d'], 2)} | {test['n']} | {_p(test['p'])} | {_p(test.get('p_holm'))} | "
                     f"{_p(test['p_wilcoxon'])} | {_p(test.get('p_wilcoxon_holm'))} |")
    return "\n".join(lines) + "\n"


def primary_note(tests: dict) -> str:
    if PRIMARY in tests:
        return "Nugget recall, which the pipeline does not select by, is the primary measure."
    return ("This run has no reference-graded measure: its quality columns are the score self-refine selects by "
            "and the 135M judge, so they cannot show on their own that answers got better.")


def statistics_section(summary: dict) -> str:
    tests = summary["tests"]
    if not tests:
        return ""
    by_key = {m.key: m for m in METRICS}
    order = sorted(tests, key=lambda key: [m.key for m in METRICS].index(key))
    n = max((t["n"] for family in tests.values() for t in family), default=0)
    lines = ["## Paired tests over conversations", "",
             f"Unit of analysis: the conversation (up to n = {n}); each metric is averaged over a conversation's "
             "turns (small talk left out), then scenarios are paired by conversation. Δ is the mean of the "
             "per-conversation differences; d_z = Δ / sd of those differences. The scenarios are cumulative, so an "
             "increment is a step against the scenario before it. Holm adjustment within each metric's family of "
             f"{len(next(iter(tests.values())))} comparisons (t and Wilcoxon apart); metrics are not corrected "
             f"against each other. {primary_note(tests)}", ""]
    for key in order:
        metric = by_key[key]
        lines += [f"### {metric.label} ({metric.grader}; pipeline selects by it: {metric.selects})", "",
                  tests_table(tests[key])]
    return "\n".join(lines)


def write_charts(summary: dict, folder: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    scenarios_ = summary["scenarios"]
    names = list(scenarios_)
    quality_key = PRIMARY if any(s.get(PRIMARY) is not None for s in scenarios_.values()) else "quality"
    quality_title = ("Nugget recall (reference facts; not a score the pipeline selects by)" if quality_key == PRIMARY
                     else "Selection score (heuristic judge; circular: self-refine selects by it)")
    charts = [(quality_key, quality_title, "ablation_quality.png"),
              ("prompt_tokens", "Prompt tokens per turn (all LLM calls)", "ablation_prompt_tokens.png"),
              ("latency_ms", "Mean latency per turn (ms)", "ablation_latency.png"),
              ("llm_calls_per_turn", "LLM calls per turn", "ablation_llm_calls.png"),
              ("cache_hit_rate", "Cache hit rate", "ablation_cache_hits.png")]
    written = []
    for key, title, filename in charts:
        figure, axis = plt.subplots(figsize=(8, 3.6))
        values = [scenarios_[n].get(key) or 0.0 for n in names]
        axis.bar(names, values, color="#3b6ea5")
        axis.set_title(title, fontsize=10)
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
    if meta.get("graded_conversations") is not None:
        details.append(f"reference-graded (nuggets, support re-check) in {meta['graded_conversations']} of the "
                       f"{done} conversations")
    lines += ["; ".join(details) + ".", "", f"Command: `{meta.get('command')}`"]
    lines += [f"Resumed with: `{command}`" for command in meta.get("resumed_with") or []]
    if meta.get("report_command"):
        lines.append(f"Report built from its checkpoint with: `{meta['report_command']}`")
    return "\n".join(lines) + "\n"


def small_talk_line(summary: dict) -> str:
    counts = {s["small_talk_turns"] for s in summary["scenarios"].values()}
    answered = ", ".join(f"{name} {_fmt(s['small_talk_answered'], 2)}" for name, s in summary["scenarios"].items())
    return (f"Small talk ({'/'.join(str(c) for c in sorted(counts))} turn(s) per scenario: greetings, thanks) is left "
            f"out of every quality mean and test; share answered: {answered}. Costs are over every turn.\n")


def write_report(folder: Path, summary: dict, results: dict[str, list[dict]], meta: dict) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    text = "\n".join([report_heading(meta), "## Means per scenario", "", markdown_table(summary), small_talk_line(summary),
                      "## What grades each column", "", graders_table(summary), statistics_section(summary)])
    (folder / "ablation.md").write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    turns = {name: [{k: v for k, v in row.items() if k != "alerts"} for row in rows] for name, rows in results.items()}
    (folder / "ablation.json").write_text(
        json.dumps({"meta": meta, "summary": summary, "turns": turns}, indent=2, ensure_ascii=False), encoding="utf-8")
    charts = write_charts(summary, folder)
    return {"table": str(folder / "ablation.md"), "json": str(folder / "ablation.json"), "charts": [str(c) for c in charts]}
