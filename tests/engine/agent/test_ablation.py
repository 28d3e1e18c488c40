"""Ablation scenarios, paired statistics and the report files."""

from __future__ import annotations

import json

from engine.bench.ablation import compare, holm, markdown_table, paired_stats, scenarios, write_report
from engine.bench.evaluation import load_conversations
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


def test_paired_t_test_wilcoxon_and_cohens_d_match_hand_computed_values():
    # differences 0.1, 0.2, 0.3: mean 0.2, sd 0.1, t = 0.2 / (0.1 / sqrt 3) = 3.4641 on 2 df;
    # two-sided p = 1 - t / sqrt(2 + t^2) = 1 - 3.4641 / sqrt 14 = 0.07418; d_z = 0.2 / 0.1 = 2;
    # 95 % CI = 0.2 -+ 4.3027 * 0.1 / sqrt 3 = -0.0484 to 0.4484
    stats = paired_stats([0.5, 0.5, 0.5], [0.6, 0.7, 0.8])
    assert stats["n"] == 3 and stats["mean_diff"] == 0.2 and stats["cohens_d"] == 2.0
    assert stats["t"] == 3.4641 and abs(stats["p"] - (1 - 12 ** 0.5 / 14 ** 0.5)) < 1e-9
    assert stats["ci95"] == [-0.0484, 0.4484]
    # five positive differences: W = 0 (smaller rank sum); exact two-sided p = 2 / 2^5 = 0.0625
    signed = paired_stats([0, 0, 0, 0, 0], [1, 2, 3, 4, 5])
    assert signed["wilcoxon"] == 0.0 and abs(signed["p_wilcoxon"] - 0.0625) < 1e-12
    assert paired_stats([1, 2], [1, 2])["p"] is None and paired_stats([1, 2], [1, 2])["cohens_d"] == 0.0
    assert paired_stats([1, None, 3], [2, 5, None])["n"] == 1


def test_holm_adjustment_matches_hand_computed_values():
    # sorted 0.01, 0.03, 0.04, 0.20 times 4, 3, 2, 1 = 0.04, 0.09, 0.08 -> 0.09 (monotone), 0.20
    adjusted = holm([0.01, 0.04, 0.03, 0.20])
    assert [round(p, 10) for p in adjusted] == [0.04, 0.09, 0.09, 0.2]
    assert holm([0.5, None, 0.6]) == [1.0, None, 1.0]
    assert holm([]) == []


def turn(conversation, number, kind, **metrics):
    row = {"conversation": conversation, "turn": number, "kind": kind, "prompt_tokens": 900, "latency_ms": 1000.0,
           "pipeline_ms": 40.0, "llm_calls": 1, "cache_hit": False, "retrieval_skipped": False, "iterations": 0,
           "quality": 1.0 if kind == "greeting" else None}
    row.update(metrics)
    return row


def three_scenarios():
    """Three conversations of a greeting (constant 1.0) and two graded question turns."""
    def conversation(cid, first, second, extra=0.0):
        return [turn(cid, 1, "greeting"), turn(cid, 2, "question", quality=first + extra, nugget_recall=first),
                turn(cid, 3, "follow_up", quality=second + extra, nugget_recall=second,
                     support_sentences=4, support_supported=3)]

    base = conversation("a", 0.0, 0.5) + conversation("b", 0.5, 0.5) + conversation("c", 0.0, 0.0)
    step = conversation("a", 0.5, 0.5) + conversation("b", 1.0, 0.5) + conversation("c", 0.5, 0.5)
    same = conversation("a", 0.5, 0.5, 0.1) + conversation("b", 1.0, 0.5) + conversation("c", 0.5, 0.5)
    return {"baseline": base, "+one": step, "+two": same}


def test_conversation_level_tests_leave_small_talk_out_and_test_increments():
    from engine.bench.ablation import METRICS, comparisons, conversation_means

    results = three_scenarios()
    nugget = next(m for m in METRICS if m.key == "nugget_recall")
    assert conversation_means(results["baseline"], nugget) == {"a": 0.25, "b": 0.5, "c": 0.0}
    support = next(m for m in METRICS if m.key == "support_rate")
    assert conversation_means(results["baseline"], support) == {"a": 0.75, "b": 0.75, "c": 0.75}
    assert comparisons(["baseline", "+one", "+two"]) == [
        ("baseline", "+one", ["vs_baseline", "increment"]), ("baseline", "+two", ["vs_baseline"]),
        ("+one", "+two", ["increment"])]

    summary = compare(results)
    assert summary["scenarios"]["baseline"]["nugget_recall"] == 0.25  # the greeting's 1.0 is not in the mean
    assert summary["scenarios"]["baseline"]["quality"] == 0.25 and summary["scenarios"]["baseline"]["small_talk_turns"] == 3
    family = {(t["earlier"], t["later"]): t for t in summary["tests"]["nugget_recall"]}
    # per-conversation differences +one - baseline: 0.25, 0.25, 0.5 (n = 3 conversations, not 6 turns)
    first = family[("baseline", "+one")]
    assert first["n"] == 3 and first["mean_diff"] == round(1 / 3, 4)
    # t = (1/3) / (sd 0.144338 / sqrt 3) = 4.0 on 2 df; p = 1 - 4 / sqrt 18 = 0.05719; d_z = 2.3094
    assert first["t"] == 4.0 and abs(first["p"] - (1 - 4 / 18 ** 0.5)) < 1e-9 and first["cohens_d"] == 2.3094
    # the increment +two vs +one changes nothing on nuggets: no test, d_z 0
    assert family[("+one", "+two")]["mean_diff"] == 0.0 and family[("+one", "+two")]["p"] is None
    # Holm over the two defined p-values of the family
    second = family[("baseline", "+two")]
    assert first["p_holm"] == second["p_holm"] == min(1.0, 2 * first["p"])
    quality = {(t["earlier"], t["later"]): t for t in summary["tests"]["quality"]}
    assert quality[("+one", "+two")]["mean_diff"] == round(0.1 / 3, 4)
    assert "judge_quality" not in summary["tests"]


def test_report_files(tmp_path):
    summary = compare(three_scenarios())
    table = markdown_table(summary)
    assert table.count("\n") == 5 and "| +two |" in table and "Nugget recall" in table
    assert "Selection score (circular)" in table
    files = write_report(tmp_path, summary, {}, {"model": "m", "conversations": 3, "turns": 9, "command": "x"})
    report = (tmp_path / "ablation.md").read_text(encoding="utf-8")
    assert "| Selection score (circular) | heuristic judge (overall) | yes: self-refine keeps" in report
    assert "| +one vs baseline (vs baseline and increment) | +0.333 |" in report
    assert "Small talk (3 turn(s) per scenario" in report and "Holm" in report
    assert json.loads((tmp_path / "ablation.json").read_text())["summary"]["scenarios"]["+one"]["nugget_recall"] == 0.5833
    assert len(files["charts"]) == 5 and all((tmp_path / name).exists() for name in
                                             ("ablation_quality.png", "ablation_latency.png"))


def steady_llm() -> FakeLLM:
    """Answers every call with the same grounded sentence (control flow only)."""
    return FakeLLM(default="Metformin is taken with meals [1].")


def fake_engine(tmp_path):
    from engine.facade import Engine
    from tests.engine.agent.fakes import FakeClinical, FakeKnowledge

    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    engine = Engine(settings, llm=steady_llm(), knowledge=FakeKnowledge(), clinical=FakeClinical(), embedder=None,
                    vault_path=tmp_path / "vault.db")
    engine.patients.unlock("pass phrase", create=True)
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

    from engine.bench.ablation_run import Checkpoint
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
    assert "| Nugget recall |" in report and "Selection score (circular)" in report
    written = json.loads((out / "ablation.json").read_text())
    rows = written["turns"]["full"]
    graded = [r for r in rows if "nugget_recall" in r]
    assert {r["kind"] for r in graded} >= {"facts+question", "follow_up", "drug_question"}
    assert not any("nugget_recall" in r for r in rows if r["kind"] in ("greeting", "acknowledgement", "facts"))
    assert all("support_sentences" in r and "answer" not in r for r in graded)
    assert written["summary"]["scenarios"]["baseline"]["turns"] == 15
    paired = {(t["earlier"], t["later"]): t for t in written["summary"]["tests"]["quality"]}
    assert paired[("baseline", "full")]["n"] == 3  # conversations, not turns


def test_checkpoint_ignores_and_repairs_a_torn_last_line(tmp_path):
    from engine.bench.ablation_run import Checkpoint

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
    from engine.bench.ablation import report_heading

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

    from engine.bench.ablation_run import EtaReporter

    now = [0.0]
    stream = io.StringIO()
    eta = EtaReporter(10, 2, clock=lambda: now[0], stream=stream)
    eta.conversation_started("c3")
    now[0] = 120.0
    assert eta.conversation_finished("c3") == 120.0
    assert "ETA 14 min for 7 more (120 s each)" in stream.getvalue()


def test_reference_grader_scores_nuggets_wrong_claims_support_and_reference_overlap(tmp_path):
    from engine.bench.evaluation import ReferenceGrader, load_references

    references = load_references()
    assert len(references) == 140 and all(r["nuggets"] for r in references.values())
    assert ("en-02-hypertension", 1) not in references and ("en-02-hypertension", 3) in references
    assert all("reference" in r for (cid, _), r in references.items() if cid.startswith("en-"))
    engine = fake_engine(tmp_path)
    grader = ReferenceGrader(engine, {("c", 2): {"fact": "t/q", "nuggets": [["shak"], ["sweat"], ["confus"], ["heartbeat"]],
                                                 "forbidden": ["is harmless"], "reference": "Shaking and sweating."}})
    source = "Shaking and sweating are common signs of low blood sugar."
    result = {"answer": "Shaking and sweating are common signs of low blood sugar [1].",
              "sources": [{"doc_id": "d1", "passage": source}]}
    graded = grader.grade("c", 2, "What are the signs?", result)
    assert graded["nugget_recall"] == 0.5 and graded["wrong_claim"] == 0.0 and graded["fact"] == "t/q"
    assert graded["support_sentences"] == 1 and graded["support_supported"] == 1 and graded["support_cited_ok"] == 1
    assert 0 < graded["rouge_l"] < 1 and graded["reference_cosine"] is None  # no embedder in this engine
    assert grader.grade("c", 2, "q", {"answer": "It is harmless."})["wrong_claim"] == 1.0
    assert grader.grade("c", 1, "Hello", result) == {}
    engine.close()


def test_recording_knowledge_keeps_the_services_retriever_visible():
    from types import SimpleNamespace

    from engine.bench.evaluation import RecordingKnowledge
    from engine.agent.writer import sentence_embedder

    embedder = object()
    document = SimpleNamespace(chunk_id="c1", doc_id="d1", text="Shaking is a sign.")
    inner = SimpleNamespace(retriever=SimpleNamespace(kb=SimpleNamespace(embedder=embedder)),
                            search=lambda query, k, **kwargs: [document])
    recorder = RecordingKnowledge(inner)
    assert recorder.search("signs", 3) == [document] and recorder.texts == {"c1": "Shaking is a sign."}
    # with the response cache off the turn's services carry no embedder: the writer finds it through the knowledge
    assert sentence_embedder(SimpleNamespace(embedder=None, knowledge=recorder)) is embedder
