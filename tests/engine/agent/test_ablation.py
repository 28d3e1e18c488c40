"""Ablation scenarios, paired statistics and the report files."""

from __future__ import annotations

import json

from engine.agent.ablation import compare, markdown_table, paired_stats, scenarios, write_report
from engine.agent.evaluation import load_conversations
from engine.settings import Settings


def test_conversation_set_shape():
    conversations = load_conversations()
    assert len(conversations) >= 40
    assert sum(c["language"] == "ko" for c in conversations) * 2 == len(conversations)
    assert all(len(c["turns"]) == 5 and c["facts"] for c in conversations)
    kinds = {t["kind"] for c in conversations for t in c["turns"]}
    assert {"greeting", "acknowledgement", "paraphrase", "repeat", "follow_up"} <= kinds
    limited = load_conversations(limit=4)
    assert [c["language"] for c in limited] == ["en", "ko", "en", "ko"]


def test_scenarios_are_cumulative_from_an_all_off_baseline():
    named = dict(scenarios())
    assert list(named) == ["baseline", "+self_refine", "+active_retrieval", "+compression", "+hierarchical_memory",
                           "+cache", "full"]
    base = named["baseline"]
    assert not any(base[f] for f in ("self_refine", "active_retrieval", "compression", "hierarchical_memory",
                                      "response_cache", "profile_memory", "dense"))
    assert named["+active_retrieval"]["self_refine"] and named["+active_retrieval"]["active_retrieval"]
    assert named["full"] == {}
    for flags in named.values():
        Settings().with_flags(flags)


def test_paired_t_test_and_cohens_d():
    stats = paired_stats([0.5, 0.6, 0.4, 0.5], [0.6, 0.8, 0.5, 0.7])
    assert stats["n"] == 4 and stats["mean_diff"] == 0.15
    assert stats["p"] < 0.05 and stats["cohens_d"] > 1
    assert paired_stats([1, 2], [1, 2])["p"] is None


def test_report_files(tmp_path):
    row = {"kind": "question", "quality": 0.5, "judge_quality": None, "grounding": 0.4, "prompt_tokens": 900,
           "latency_ms": 1000.0, "pipeline_ms": 40.0, "llm_calls": 1, "cache_hit": False, "retrieval_skipped": False,
           "iterations": 0}
    better = dict(row, quality=0.7, cache_hit=True, llm_calls=0)
    summary = compare({"baseline": [row] * 4, "full": [better, row, better, row]})
    assert summary["full"]["cache_hit_rate"] == 0.5
    table = markdown_table(summary)
    assert table.count("\n") == 4 and "| full |" in table
    files = write_report(tmp_path, summary, {}, {"model": "m", "conversations": 1, "turns": 4, "command": "x"})
    assert json.loads((tmp_path / "ablation.json").read_text())["summary"]["full"]["quality"] == 0.6
    assert len(files["charts"]) == 5 and all((tmp_path / name).exists() for name in
                                             ("ablation_quality.png", "ablation_latency.png"))
