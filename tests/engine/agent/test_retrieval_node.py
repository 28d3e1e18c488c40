"""The retrieve node: passages that repeat a higher-ranked one are left out."""

from __future__ import annotations

from engine.agent.nodes.retrieval import distinct_passages
from engine.agent.pipeline import run_turn
from engine.events import Done
from engine.llm.fake import FakeLLM
from engine.passage import Passage
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
