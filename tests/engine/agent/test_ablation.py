"""Ablation scenarios, paired statistics and the report files."""

from __future__ import annotations

import json

from engine.agent.ablation import compare, markdown_table, paired_stats, scenarios, write_report
from engine.agent.evaluation import load_conversations
from engine.llm.fake import FakeLLM
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


class SteadyLLM(FakeLLM):
    """Answers every call with the same grounded sentence (control flow only)."""

    def _next(self):
        return "Metformin is taken with meals [1]."


def fake_engine(tmp_path):
    from engine.facade import Engine
    from tests.engine.agent.fakes import FakeClinical, FakeKnowledge

    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    engine = Engine(settings, llm=SteadyLLM(), knowledge=FakeKnowledge(), clinical=FakeClinical(), embedder=None,
                    vault_path=tmp_path / "vault.db")
    engine.unlock("pass phrase", create=True)
    return engine


def ablation_args(out, *extra):
    from engine.cli import build_parser

    return build_parser().parse_args(["eval", "ablation", "--conversations", "3", "--scenarios", "baseline,full",
                                      "--out", str(out), *extra])


class StopAfter:
    """Raises KeyboardInterrupt on the n-th question, like Ctrl+C in the middle of a conversation."""

    def __init__(self, ask, questions: int):
        self.ask, self.left, self.asked = ask, questions, 0

    def __call__(self, *args, **kwargs):
        self.asked += 1
        if self.asked > self.left:
            raise KeyboardInterrupt
        return self.ask(*args, **kwargs)


def test_ablation_is_conversation_major_resumable_and_reports_from_the_checkpoint(tmp_path, capsys):
    import pytest

    from engine.agent.ablation_run import Checkpoint
    from engine.cli.eval import run_ablation
    from engine.errors import InputError

    out = tmp_path / "run"
    engine = fake_engine(tmp_path)
    original_ask = engine.ask
    engine.ask = StopAfter(original_ask, questions=2 * 5 + 3)  # conversation 1 in both scenarios, then 3 turns
    with pytest.raises(KeyboardInterrupt):
        run_ablation(ablation_args(out), engine=engine)
    checkpoint = Checkpoint(out)
    assert list(checkpoint.finished()) == ["en-01-diabetes"]
    line = checkpoint.finished()["en-01-diabetes"]
    assert set(line["results"]) == {"baseline", "full"} and all(len(rows) == 5 for rows in line["results"].values())
    assert "conversation 1/3 en-01-diabetes done" in capsys.readouterr().err

    with pytest.raises(InputError):
        run_ablation(ablation_args(out), engine=engine)  # an existing checkpoint needs --resume
    with pytest.raises(InputError):
        run_ablation(ablation_args(out, "--resume", "--max-answer-tokens", "32"), engine=engine)  # other settings

    engine.ask = StopAfter(original_ask, questions=1000)
    assert run_ablation(ablation_args(out, "--resume"), engine=engine) == 0
    assert engine.ask.asked == 2 * 2 * 5  # only the two unfinished conversations ran
    assert "ETA" in capsys.readouterr().err
    assert list(checkpoint.finished()) == ["en-01-diabetes", "ko-01-diabetes", "en-02-hypertension"]
    engine.close()

    (out / "ablation.md").unlink()
    assert run_ablation(ablation_args(out, "--report-only")) == 0
    report = (out / "ablation.md").read_text(encoding="utf-8")
    assert report.startswith("# Ablation: 3 of 3 conversations, model fake (not the default), test run")
    assert "Command: `chartside eval ablation --conversations 3 --scenarios baseline,full --out" in report
    assert "--report-only" in report and "| full |" in report
    written = json.loads((out / "ablation.json").read_text())
    assert written["summary"]["baseline"]["turns"] == 15
    assert written["summary"]["full"]["vs_baseline"]["quality"]["n"] == 15


def test_checkpoint_ignores_and_repairs_a_torn_last_line(tmp_path):
    from engine.agent.ablation_run import Checkpoint

    checkpoint = Checkpoint(tmp_path)
    checkpoint.begin({"scenarios": ["baseline"], "model": "m"})
    checkpoint.add({"id": "c1", "language": "en"}, {"baseline": [{"turn": 1}]}, 3.0, llm_judge=False)
    with checkpoint.path.open("a", encoding="utf-8") as handle:
        handle.write('{"kind": "conversation", "conversation": "c2", "resu')
    assert list(checkpoint.finished()) == ["c1"]
    checkpoint.add({"id": "c2", "language": "ko"}, {"baseline": [{"turn": 1}]}, 4.0, llm_judge=True)
    assert list(checkpoint.finished()) == ["c1", "c2"]
    assert checkpoint.results() == {"baseline": [{"turn": 1}, {"turn": 1}]}
    assert checkpoint.judged_conversations() == 1


def test_bench_cache_probes_pair_plain_questions_with_their_paraphrase_or_repeat():
    from engine.bench.agent import _percentile, cache_probes

    probes = cache_probes(load_conversations())
    assert len(probes) >= 20 and {p["kind"] for p in probes} == {"paraphrase", "repeat"}
    assert {p["conversation"][:2] for p in probes} == {"en", "ko"}
    assert all(p["question"] != p["again"] for p in probes if p["kind"] == "paraphrase")
    assert _percentile(list(range(1, 21)), 0.9) == 18 and _percentile([], 0.9) is None


def test_report_heading_says_over_how_many_conversations_the_llm_judge_ran():
    from engine.agent.ablation import report_heading

    meta = {"conversations": 40, "planned_conversations": 40, "model": "m", "default_model": True, "turns": 200,
            "command": "chartside eval ablation --llm-judge --out x", "llm_judge": True}
    assert "LLM judge on every answer" in report_heading({**meta, "llm_judge_conversations": 40})
    assert "heuristic judge only" in report_heading({**meta, "llm_judge": False, "llm_judge_conversations": 0})
    partial = report_heading({**meta, "llm_judge_conversations": 8,
                              "resumed_with": ["chartside eval ablation --out x --resume"]})
    assert "LLM judge on the answers of 8 of the 40 conversations" in partial
    assert "Resumed with: `chartside eval ablation --out x --resume`" in partial


def test_eta_follows_the_pace_of_the_resumed_run():
    import io

    from engine.agent.ablation_run import EtaReporter

    now = [0.0]
    stream = io.StringIO()
    eta = EtaReporter(10, 2, clock=lambda: now[0], stream=stream)
    eta.conversation_started("c3")
    now[0] = 120.0
    assert eta.conversation_finished("c3") == 120.0
    assert "ETA 14 min for 7 more (120 s each)" in stream.getvalue()
