"""`chartside bench answers --gaps`: where each reference fact of an answer stands, over a real
knowledge base folder (BM25, FAISS) with MedQuAD-style titles."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine.bench.answer_gaps import CATEGORIES, GapCounts, TopicPages, fact_standing, standings
from engine.knowledge import HybridRetriever, IndexParams, KnowledgeBase
from engine.knowledge.corpus import Document
from tests.engine.knowledge.conftest import HashingEmbedder

GOUT_CAUSES = "Gout is caused by too much uric acid in the blood. Crystals form in a joint."
GOUT_TREATMENT = "Colchicine and NSAIDs ease an attack. Drinking less alcohol helps prevent the next one."
GOUT_PREVENTION = "Losing weight and avoiding purine-rich foods such as red meat lower the risk."
ASTHMA = "Asthma narrows the airways. Inhaled steroids reduce the swelling."


@pytest.fixture
def kb(tmp_path):
    docs = [Document("g/1", "What causes Gout ?", GOUT_CAUSES),
            Document("g/2", "What are the treatments for Gout ?", GOUT_TREATMENT),
            Document("g/3", "How to prevent Gout ? (Also called: Podagra)", GOUT_PREVENTION),
            Document("a/1", "What is (are) Asthma ?", ASTHMA)]
    return KnowledgeBase(tmp_path / "kb", HashingEmbedder(), IndexParams(chunk_tokens=64),
                         corpus_source=lambda: list(docs), corpus_version=lambda: "v1").open()


def _knowledge(kb, focus_keys=()):
    plan = SimpleNamespace(focus_keys=list(focus_keys)) if focus_keys else None
    return SimpleNamespace(retriever=HybridRetriever(kb), plan=lambda question: plan)


def test_a_fact_stands_in_the_first_place_that_holds_it():
    first, later, pages = ["Uric acid builds up."], ["Cherries may help."], ["Red meat is rich in purines."]
    assert fact_standing(["uric acid"], "Too much uric acid causes gout.", first, later, pages) == "answered"
    assert fact_standing(["urate", "uric acid"], "Gout hurts.", first, later, pages) == "in_first_passages"
    assert fact_standing(["cherr"], "Gout hurts.", first, later, pages) == "in_later_passages"
    assert fact_standing(["red meat"], "Gout hurts.", first, later, pages) == "on_topic_pages"
    assert fact_standing(["allopurinol"], "Gout hurts.", first, later, pages) == "absent"


def test_a_fact_is_matched_as_the_grader_matches_it():
    """A short phrase must start a word ("eat" is not in "treat"), as `bench answers` grades."""
    assert fact_standing(["eat"], "Doctors treat gout.", [], [], []) == "absent"
    assert fact_standing(["eat"], "Eat less red meat.", [], [], []) == "answered"


def test_topic_pages_are_the_unretrieved_pages_of_the_plan_focus_and_of_each_retrieved_page(kb):
    sources = [{"doc_id": "g/1", "title": "What causes Gout ?", "passage": GOUT_CAUSES}]
    texts = TopicPages(_knowledge(kb)).texts("What causes gout?", sources)
    assert sorted(texts) == sorted([GOUT_TREATMENT, GOUT_PREVENTION])  # not the retrieved page, not asthma's
    by_plan = TopicPages(_knowledge(kb, focus_keys=["asthma"])).texts("천식이 뭐예요?", [])
    assert by_plan == [ASTHMA]
    assert TopicPages(_knowledge(kb)).texts("What is asthma?", []) == []


def test_standings_place_each_fact_group_of_an_item(kb):
    item = {"q": "What causes gout?", "nuggets": [["uric acid"], ["crystal"], ["alcohol"], ["purine"], ["kidney"]]}
    result = {"answer": "Gout is caused by too much uric acid in the blood. [1]",
              "sources": [{"doc_id": "g/1", "title": "What causes Gout ?", "passage": GOUT_CAUSES},
                          *({"doc_id": f"x/{n}", "title": "What is (are) Asthma ?", "passage": ASTHMA}
                            for n in range(4)),
                          {"doc_id": "g/2", "title": "What are the treatments for Gout ?",
                           "passage": GOUT_TREATMENT}]}
    assert standings(item, result, TopicPages(_knowledge(kb))) == [
        "answered", "in_first_passages", "in_later_passages", "on_topic_pages", "absent"]


def test_counts_give_the_ceiling_overall_and_per_language():
    counts = GapCounts()
    counts.add("en", ["answered", "in_first_passages", "absent", "absent"])
    counts.add("ko", ["answered", "on_topic_pages"])
    summary = counts.summary()
    assert summary["groups"] == 6 and summary["absent"] == 2 and summary["ceiling"] == round(4 / 6, 4)
    assert summary["by_language"]["en"]["ceiling"] == 0.5 and summary["by_language"]["ko"]["ceiling"] == 1.0
    assert set(CATEGORIES) <= set(summary["by_language"]["ko"])
