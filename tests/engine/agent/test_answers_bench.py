"""`chartside bench answers`: scoring and the leave-question-out filter, with real retrieval
on the fixture knowledge base and the real embedder; the team's sets are well formed."""

from __future__ import annotations

import itertools
import json

from engine.bench.answers import (
    LeaveOut,
    Row,
    SourceDoc,
    hangul_share,
    nugget_recall,
    score_support,
    summarise,
    team_sets,
    wrong_claim,
)
from engine.agent.support import SupportChecker


def test_team_sets_are_well_formed_and_split_by_topic():
    sets = team_sets()
    assert len(sets["dev"]) >= 40 and len(sets["heldout"]) >= 16
    for rows in sets.values():
        assert {r["lang"] for r in rows} == {"en", "ko"}
        for row in rows:
            assert row["q"] and row["nuggets"] and all(group and all(group) for group in row["nuggets"])
        pairs = {(r["id"].split("-", 1)[1], r["qtype"]) for r in rows}
        assert all(sum(1 for r in rows if (r["id"].split("-", 1)[1], r["qtype"]) == p) == 2 for p in pairs), \
            "each topic is asked once in each language"
    topics = {name: {r["id"].split("-", 1)[1] for r in rows} for name, rows in sets.items()}
    for a, b in itertools.combinations(topics, 2):
        assert not topics[a] & topics[b], f"a topic is in both {a} and {b}"
    share = len(sets["heldout"]) / (len(sets["dev"]) + len(sets["heldout"]))
    assert 0.25 <= share <= 0.35
    assert all(len(sets[name]) >= 40 for name in ("dev2", "dev3", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6",
                                                   "heldout7", "heldout8", "heldout9", "heldout10", "heldout11",
                                                   "heldout12"))


def test_the_hangul_target_is_reported_per_answer_not_only_on_average():
    rows = [Row("ko-a", "ko", "composer", 10.0, nuggets=1.0, hangul=0.55),
            Row("ko-b", "ko", "composer", 10.0, nuggets=1.0, hangul=0.31),
            Row("en-a", "en", "composer", 10.0, nuggets=1.0, hangul=None)]
    summary = summarise(rows)
    assert summary["hangul_share_ko"] == 0.43  # the mean meets the target, one answer does not
    assert summary["hangul_min_ko"] == 0.31
    assert summary["hangul_below_target_ko"] == 0.5


def test_the_recall_of_the_quoted_sentences_alone_is_reported_apart():
    from engine.bench.answers import answer_claims

    rows = [Row("en-a", "en", "composer", 10.0, nuggets=1.0, quoted=0.5),
            Row("ko-a", "ko", "composer", 10.0, nuggets=0.5, quoted=0.0)]
    summary = summarise(rows)
    assert summary["nugget_recall"] == 0.75 and summary["nugget_recall_quoted"] == 0.25
    assert summary["nugget_recall_quoted_en"] == 0.5 and summary["nugget_recall_quoted_ko"] == 0.0
    # The claims are the sourced sentences: not the lead nor a line that names terms.
    result = {"answer": "Gout, according to the sources:\nUric acid builds up. [1]\nAlso named …: big toe [2].",
              "sentences": [{"text": "Gout, according to the sources:", "kind": "notice"},
                            {"text": "Uric acid builds up.", "source": 1, "kind": "sourced"}]}
    assert answer_claims(result) == [("Uric acid builds up.", [1])]


def test_nuggets_wrong_claims_and_hangul_share():
    nuggets = [["uric acid", "요산"], ["crystal"]]
    assert nugget_recall("Gout happens when URIC ACID builds up.", nuggets) == 0.5
    assert nugget_recall("요산이 쌓이고 crystals가 생깁니다", nuggets) == 1.0
    assert wrong_claim("Gout is caused by a virus.", ["caused by a virus"])
    assert not wrong_claim("Gout is caused by uric acid.", ["caused by a virus"])
    assert hangul_share("통풍통풍 gout") == 0.5  # syllables against Latin letters


def test_an_english_phrase_matches_at_a_word_start_and_a_denial_is_no_wrong_claim():
    assert nugget_recall("Take a nonsteroidal anti-inflammatory drug.", [["steroid"]]) == 0.0
    assert nugget_recall("Allergies and asthma.", [["allerg"]]) == 1.0
    assert nugget_recall("Corticosteroids applied to the skin.", [["steroid"]]) == 1.0
    assert nugget_recall("How type 2 diabetes is treated.", [["eat"]]) == 0.0
    assert nugget_recall("심한구토가 있어요", [["구토"]]) == 1.0  # Korean compounds are one word
    assert not wrong_claim("Call emergency services now; do not drive yourself.", ["drive yourself"])
    assert wrong_claim("You can drive yourself to the hospital.", ["drive yourself"])
    assert not wrong_claim("대부분 저절로 낫지 않습니다.", ["저절로 낫"])
    assert wrong_claim("대부분 저절로 낫습니다.", ["저절로 낫"])


def test_support_citation_and_numbers_of_an_uncited_and_a_cited_answer(minilm):
    checker = SupportChecker(minilm)
    docs = [SourceDoc("a", "Low blood sugar means glucose below 70 mg/dL. Treat it with 15 grams of fast sugar."),
            SourceDoc("b", "Asthma narrows the airways.")]
    plain = {"answer": "Low blood sugar means glucose below 70 mg/dL. Take 40 grams of sugar."}
    figures = score_support(plain, docs, checker)
    assert figures == {"sentences": 2, "supported": 1, "cited": 0, "cited_ok": 0, "unsupported_numbers": 1}
    cited = {"answer": "x", "sentences": [
        {"text": "Low blood sugar means glucose below 70 mg/dL.", "source": 2, "kind": "sourced"},
        {"text": "Asthma narrows the airways.", "source": 2, "kind": "sourced"},
        {"text": "A notice.", "source": None, "kind": "notice"}]}
    figures = score_support(cited, docs, checker)
    assert figures["sentences"] == 2 and figures["supported"] == 2
    assert figures["cited"] == 2 and figures["cited_ok"] == 1  # the first cites the wrong passage


def test_leave_out_never_returns_the_excluded_documents(fixture_kb):
    from engine.agent.wiring import KnowledgeService
    from engine.knowledge import HybridRetriever

    knowledge = KnowledgeService(HybridRetriever(fixture_kb))
    args = dict(profile=None, expand=False, docs_budget=0, bm25=True, dense=True)
    before = [d.doc_id for d in knowledge.search("symptoms of low blood sugar", 3, **args)]
    assert before[0] == "fx/hypoglycemia"
    after = [d.doc_id for d in LeaveOut(knowledge, {"fx/hypoglycemia"}).search("symptoms of low blood sugar", 3,
                                                                                  **args)]
    assert "fx/hypoglycemia" not in after and len(after) == 3
    assert json.dumps(after)


def test_leave_out_keeps_the_sentence_embedder_and_the_query_plan_within_reach(fixture_kb, minilm):
    from types import SimpleNamespace

    from engine.agent.wiring import KnowledgeService
    from engine.agent.writer import sentence_embedder
    from engine.knowledge import HybridRetriever

    left_out = LeaveOut(KnowledgeService(HybridRetriever(fixture_kb)), {"fx/hypoglycemia"})
    services = SimpleNamespace(embedder=None, knowledge=left_out)  # the response cache is off in the bench
    assert sentence_embedder(services) is fixture_kb.embedder
    assert left_out.plan("What are the symptoms of low blood sugar?") is None  # no translator plugged in
