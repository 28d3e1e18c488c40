"""The retrieve node: passages that repeat a higher-ranked one are left out; the composer reads whole passages."""

from __future__ import annotations

from engine.agent.nodes.retrieval import distinct_passages
from engine.agent.pipeline import run_turn
from engine.events import Done
from engine.llm.fake import FakeLLM
from engine.passage import Passage
from engine.settings import Settings
from tests.engine.agent.fakes import FakeKnowledge, make_services

GOUT = ("Most people with gout have too much uric acid in their blood, a condition called hyperuricemia. "
        "If too many uric acid crystals form, gout can develop.")


def test_a_passage_that_repeats_a_higher_ranked_one_is_left_out():
    first = Passage("kb/gout-2", GOUT, "What causes Gout ?", "kb/gout-2#0")
    copy = Passage("kb/gout-9", "  " + GOUT.replace(". ", ".\n"), "What causes Gout ?", "kb/gout-9#0")
    part = Passage("kb/gout-part", GOUT.split(". ")[0] + ".", "Gout", "kb/gout-part#0")
    other = Passage("kb/gout-tx", "Colchicine treats gout attacks.", "What are the treatments for Gout ?", "kb/gout-tx#0")
    assert distinct_passages([first, copy, part, other]) == [first, other]
    # A longer passage after a shorter one it contains says more, but nothing new the first did not.
    assert distinct_passages([part, first]) == [part]


def test_a_turn_numbers_its_sources_without_the_repeats():
    documents = [Passage("kb/gout-2", GOUT, "What causes Gout ?", "kb/gout-2#0"),
                 Passage("kb/gout-9", GOUT, "What causes Gout ?", "kb/gout-9#0"),
                 Passage("kb/gout-tx", "Colchicine treats gout attacks.", "Gout treatment", "kb/gout-tx#0")]
    llm = FakeLLM(default="Gout comes from uric acid crystals [1].")
    events = list(run_turn("What causes gout?", make_services(llm, knowledge=FakeKnowledge(documents))))
    result = events[-1].result
    assert isinstance(events[-1], Done)
    assert [s["doc_id"] for s in result["sources"]] == ["kb/gout-2", "kb/gout-tx"]
    assert any("repeats a higher-ranked passage" in d for d in result["trace"]["decisions"])


def _long_passages() -> list[Passage]:
    """Five passages that together are far over the prompt's document budget."""
    sentences = " ".join(f"Gout finding number {i} concerns uric acid crystals in joint {i}." for i in range(60))
    return [Passage(f"kb/gout-{n}", f"Gout is caused by uric acid. {sentences}", f"What causes Gout ? ({n})",
                    f"kb/gout-{n}#0") for n in range(5)]


def _sources(writer: str) -> tuple[list[dict], list[str]]:
    settings = Settings()
    settings = settings.model_copy(update={"answer": settings.answer.model_copy(
        update={"writer": writer, "support_check": writer != "model"})})
    llm = FakeLLM(default="Gout comes from uric acid crystals [1].")
    services = make_services(llm, settings=settings, knowledge=FakeKnowledge(_long_passages()))
    result = list(run_turn("What causes gout?", services))[-1].result
    return result["sources"], result["trace"]["decisions"]


def test_the_composer_reads_whole_passages_and_a_model_reads_the_compressed_prompt():
    whole = {d.doc_id: d.text for d in _long_passages()}
    composed, decisions = _sources("composer")
    assert composed and all(s["passage"] == whole[s["doc_id"]] for s in composed)
    assert any("reads the passages whole" in d for d in decisions)
    written, decisions = _sources("model")
    assert written and all(len(s["passage"]) < len(whole[s["doc_id"]]) for s in written)
    assert not any("reads the passages whole" in d for d in decisions)
