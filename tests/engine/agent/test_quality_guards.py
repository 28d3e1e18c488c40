"""The corrective-retrieval loop's guards: threshold, iteration cap, duplicate documents, stagnation."""

from __future__ import annotations

from engine.agent.nodes.quality import best_draft, jaccard, quality_check, wants_another_round
from engine.agent.state import TurnState
from engine.passage import Passage
from engine.llm.fake import FakeLLM
from engine.settings import Settings
from tests.engine.agent.fakes import FakeKnowledge, make_services

DOCS = [Passage(f"d/{i}", f"text {i}", f"t{i}", f"d/{i}#0") for i in range(6)]


def low_state(**overrides) -> TurnState:
    from engine.agent.nodes.retrieval import document_hash

    state = TurnState(text="How is asthma treated?", retrieval_query="How is asthma treated?", quality_score=0.3, dynamic_k=3,
                      quality_history=[0.3], judgement={"missing_info": ["inhaler dose"], "suggested_query": ""},
                      document_hashes=[[document_hash(d) for d in DOCS[:3]]],
                      drafts=[{"answer": "a", "iteration": 0, "score": 0.3}])
    for key, value in overrides.items():
        setattr(state, key, value)
    return state


def drain(node_run):
    """The update a generator node returns, after its events."""
    try:
        while True:
            next(node_run)
    except StopIteration as stop:
        return stop.value


def check(state, knowledge, settings=None):
    services = make_services(FakeLLM(), knowledge=knowledge, settings=settings)
    update = drain(quality_check(state, services))
    state.apply(update)
    return update, wants_another_round(state)


def test_good_score_stops():
    update, route = check(low_state(quality_score=0.7, quality_history=[0.7]), FakeKnowledge(DOCS[3:]))
    assert route == "done"
    assert "done" in update["decisions"][-1]


def test_low_score_with_new_documents_loops_once_more():
    update, route = check(low_state(), FakeKnowledge(DOCS[3:]))
    assert route == "retrieve"
    assert update["iterations"] == 1
    assert update["retrieval_query"] == "How is asthma treated? inhaler dose"
    assert [d.doc_id for d in update["prefetched"]] == ["d/3", "d/4", "d/5"]


def test_duplicate_documents_guard_stops_the_loop():
    update, route = check(low_state(), FakeKnowledge(DOCS[:3]))
    assert route == "done"
    assert "the same" in update["decisions"][-1]


def test_duplicate_guard_uses_the_80_percent_jaccard():
    assert jaccard(list("abcde"), list("abcdf")) < 0.8
    assert jaccard(list("abcde"), list("abcde")) == 1.0
    five_same = [f"h{i}" for i in range(5)]
    _update, route = check(low_state(document_hashes=[five_same]), FakeKnowledge(DOCS[3:]))
    assert route == "retrieve"


def test_stagnation_guard_stops_when_improvement_is_below_0_05():
    state = low_state(quality_history=[0.30, 0.33], quality_score=0.33, iterations=1,
                      drafts=[{"answer": "first", "iteration": 0, "score": 0.30},
                              {"answer": "second", "iteration": 1, "score": 0.33}])
    update, route = check(state, FakeKnowledge(DOCS[3:]))
    assert route == "done"
    assert "stagnating" in update["decisions"][-1]
    assert "answer" not in update  # the best draft is the one already shown


def test_improving_score_may_loop_again_until_the_cap():
    state = low_state(quality_history=[0.2, 0.3], quality_score=0.3, iterations=1)
    _update, route = check(state, FakeKnowledge(DOCS[3:]))
    assert route == "retrieve"
    capped = low_state(quality_history=[0.1, 0.2, 0.3], quality_score=0.3, iterations=2)
    update, route = check(capped, FakeKnowledge(DOCS[3:]))
    assert route == "done"
    assert "iterations reached" in update["decisions"][-1]


def test_iteration_cap_is_a_setting():
    settings = Settings()
    settings.refine.max_iterations = 0
    _update, route = check(low_state(), FakeKnowledge(DOCS[3:]), settings)
    assert route == "done"


def test_best_draft_wins_when_the_loop_stops():
    docs = [DOCS[:2], DOCS[2:4]]
    state = TurnState(text="q", drafts=[{"answer": "good", "score": 0.45, "iteration": 0, "documents": docs[0]},
                                        {"answer": "worse", "score": 0.4, "iteration": 1, "documents": docs[1]}])
    assert best_draft(state) == {"answer": "good", "quality_score": 0.45, "documents": docs[0], "sentences": [],
                                 "iteration": 0}
    state.drafts.reverse()
    assert best_draft(state) == {}
    assert best_draft(TurnState(text="q", drafts=[{"answer": "only", "score": 0.1}])) == {}
