"""Graph runner and routing of every edge of the agent graph (fake LLM: control flow only)."""

from __future__ import annotations

import pytest

from engine.agent.graph import END, START, Branch, Graph, GraphError
from engine.agent.pipeline import agent_graph, llm_graph, pipeline_mermaid, run_turn
from engine.agent.state import TurnState
from engine.passage import Passage
from engine.errors import ModelOutputError
from engine.events import Alerts, Done, NodeFinished, NodeStarted, Sources, Token
from engine.llm.fake import FakeLLM
from engine.settings import Settings
from tests.engine.agent.fakes import FakeKnowledge, make_services


def run(text, services, **kwargs):
    events = list(run_turn(text, services, **kwargs))
    assert isinstance(events[-1], Done)
    return events, events[-1].result


def edges_taken(result) -> list[tuple[str, str]]:
    nodes = result["trace"]["nodes"]
    return list(zip(nodes, nodes[1:]))


# -- the runner ----------------------------------------------------------------------
def test_runner_emits_timed_events_and_applies_updates():
    def first(state, services):
        return {"answer": "a"}

    def second(state, services):
        yield Token("x")
        return {"answer": state.answer + "b"}

    graph = Graph("t", {"first": first, "second": second}, {START: "first", "first": "second", "second": END})
    state = TurnState(text="q")
    events = list(graph.run(state, None))
    kinds = [(type(e).__name__, getattr(e, "node", None)) for e in events]
    assert kinds == [("NodeStarted", "first"), ("NodeFinished", "first"), ("NodeStarted", "second"),
                     ("Token", None), ("NodeFinished", "second")]
    assert state.answer == "ab"
    assert state.nodes == ["first", "second"]
    assert all(isinstance(e.ms, float) for e in events if isinstance(e, NodeFinished))


def test_step_limit_stops_a_loop():
    graph = Graph("loop", {"spin": lambda s, v: {}}, {START: "spin", "spin": "spin"}, step_limit=5)
    with pytest.raises(GraphError, match="more than 5 steps"):
        list(graph.run(TurnState(text="q"), None))


def test_malformed_graphs_are_rejected():
    with pytest.raises(GraphError):
        Graph("bad", {"a": lambda s, v: {}}, {START: "a", "a": "missing"})
    with pytest.raises(GraphError):
        Graph("bad", {"a": lambda s, v: {}, "b": lambda s, v: {}}, {START: "a", "a": END})
    graph = Graph("bad", {"a": lambda s, v: {}}, {START: "a", "a": Branch(lambda s: "nowhere", {"x": END})})
    with pytest.raises(ValueError, match="unknown label"):
        list(graph.run(TurnState(text="q"), None))


def test_unknown_state_field_is_an_error():
    graph = Graph("typo", {"a": lambda s, v: {"anwser": "x"}}, {START: "a", "a": END})
    with pytest.raises(KeyError, match="anwser"):
        list(graph.run(TurnState(text="q"), None))


def test_mermaid_lists_every_node_and_labelled_edge():
    text = pipeline_mermaid()
    assert text.startswith("flowchart TD")
    for node in ("extract_and_triage", "store_memory", "check_cache", "plan_retrieval", "assemble_context",
                 "retrieve", "generate_answer", "judge_answer", "quality_check", "store_response"):
        assert f"{node}[{node}]" in text
    for edge in ("__start__ --> extract_and_triage", "extract_and_triage --> store_memory",
                 "store_memory --> check_cache",
                 "check_cache -->|hit| store_response", "check_cache -->|miss| plan_retrieval",
                 "assemble_context -->|skip retrieval| generate_answer", "quality_check -->|retrieve| retrieve",
                 "generate_answer -->|judge| judge_answer", "generate_answer -->|skip| store_response"):
        assert edge in text


def test_agent_graph_has_ten_nodes():
    services = make_services()
    assert len(agent_graph(services).nodes) == 10
    assert set(llm_graph().nodes) == {"extract_and_triage", "generate_answer", "store_response"}


# -- every edge of the agent graph ---------------------------------------------------
def test_question_takes_the_full_path_and_streams_after_alerts():
    llm = FakeLLM(["Diabetes is treated with diet, exercise and metformin [1]."])
    events, result = run("How is diabetes treated?", make_services(llm))
    assert result["trace"]["nodes"] == ["extract_and_triage", "store_memory", "check_cache", "plan_retrieval",
                                        "assemble_context", "retrieve", "generate_answer", "judge_answer",
                                        "quality_check", "store_response"]
    kinds = [type(e) for e in events]
    assert kinds.index(Alerts) < kinds.index(Sources) < kinds.index(Token)
    assert result["answer"].startswith("Diabetes is treated")
    assert result["trace"]["llm_calls"] == 1
    assert result["sources"][0]["doc_id"] == "kb/1"


def test_repeated_question_hits_the_cache_and_skips_the_pipeline():
    llm = FakeLLM(["Diabetes is treated with diet, exercise and metformin [1]."])
    services = make_services(llm)
    run("How is diabetes treated?", services)
    events, result = run("How is diabetes treated?", make_services(llm, cache=services.cache,
                                                                     memory=services.memory))
    assert edges_taken(result) == [("extract_and_triage", "store_memory"), ("store_memory", "check_cache"),
                                   ("check_cache", "store_response")]
    assert result["trace"]["cache_hit"] is True
    assert result["trace"]["llm_calls"] == 0
    assert "metformin" in result["answer"]
    assert result["sources"] and result["sources"][0]["doc_id"] == "kb/1"


def test_greeting_skips_retrieval_and_the_llm():
    events, result = run("Hello", make_services(FakeLLM()))
    assert ("assemble_context", "generate_answer") in edges_taken(result)
    assert ("generate_answer", "store_response") in edges_taken(result)
    assert "retrieve" not in result["trace"]["nodes"]
    assert result["trace"]["retrieval_skipped"] is True
    assert result["trace"]["llm_calls"] == 0
    assert result["answer"]


def test_self_refine_off_goes_from_answer_to_storage():
    settings = Settings().with_flags({"self_refine": False})
    _events, result = run("How is diabetes treated?", make_services(FakeLLM(["Diet and metformin [1]."]), settings=settings))
    assert ("generate_answer", "store_response") in edges_taken(result)
    assert result["trace"]["quality_score"] is None


def test_low_quality_loops_back_to_retrieve_with_new_documents():
    knowledge = FakeKnowledge(rotate=True)
    llm = FakeLLM(["I am not sure.", "Asthma is treated with inhalers [1]."])
    _events, result = run("How is asthma treated?", make_services(llm, knowledge=knowledge))
    assert ("quality_check", "retrieve") in edges_taken(result)
    assert result["trace"]["iterations"] == 1
    assert result["trace"]["llm_calls"] == 2
    assert result["answer"] == "Asthma is treated with inhalers [1]."
    assert any("retrieve again" in d for d in result["trace"]["decisions"])


def test_unsure_rules_ask_the_llm_and_fall_back_on_bad_output():
    llm = FakeLLM(["complex", "Evidence is missing in the sources."])
    _events, result = run("Could you go over everything again in detail please?", make_services(llm))
    assert result["trace"]["intent_source"] == "llm"
    assert result["trace"]["query_complexity"] == "complex"
    assert result["trace"]["dynamic_k"] == 15
    llm = FakeLLM([ModelOutputError("bad label"), "Evidence is missing in the sources."])
    _events, result = run("Could you go over everything again in detail please?", make_services(llm))
    assert result["trace"]["intent_source"] == "rules-fallback"


def test_a_question_the_model_labels_small_talk_is_still_looked_up():
    llm = FakeLLM(["small_talk", "Evidence is missing in the sources."])
    _events, result = run("귀지가 꽉 막힌 것 같은데 어떻게 빼요? 면봉으로 파도 돼요?", make_services(llm))
    assert result["trace"]["intent_source"] == "rules (asks something)"
    assert not result["trace"]["retrieval_skipped"] and result["trace"]["dynamic_k"] > 0


def test_active_retrieval_off_uses_fixed_k():
    settings = Settings().with_flags({"active_retrieval": False})
    _events, result = run("Hello", make_services(FakeLLM(["Hello."]), settings=settings))
    assert result["trace"]["dynamic_k"] == 8
    assert "retrieve" in result["trace"]["nodes"]


def test_llm_mode_is_plain_chat():
    llm = FakeLLM(["Plain answer."])
    _events, result = run("How is diabetes treated?", make_services(llm), mode="llm")
    assert result["trace"]["nodes"] == ["extract_and_triage", "generate_answer", "store_response"]
    assert result["sources"] == []
    system = llm.calls[0]["messages"][0]["content"]
    assert "definitive diagnosis" in system


def test_cancel_stops_before_the_next_token():
    llm = FakeLLM(["one two three four five six"])
    services = make_services(llm)
    seen = []
    for event in run_turn("How is diabetes treated?", services):
        if isinstance(event, Token):
            seen.append(event.text)
            services.cancel.cancel()
        if isinstance(event, Done):
            result = event.result
    assert len(seen) == 1
    assert result["trace"]["cancelled"] is True
    assert "judge_answer" not in result["trace"]["nodes"]


def test_emergency_alert_comes_first_and_prefixes_the_answer():
    llm = FakeLLM(["Chest pain can have many causes."])
    events, result = run("I have crushing chest pain going to my arm", make_services(llm))
    alerts = next(e for e in events if isinstance(e, Alerts))
    first_token = next(e for e in events if isinstance(e, Token))
    assert alerts.alerts[0]["kind"] == "emergency"
    assert first_token.text.startswith("Call emergency services now.")
    assert result["answer"].startswith("Call emergency services now.")


def test_allergy_conflict_alert_from_the_profile_precedes_tokens():
    llm = FakeLLM(["Noted.", "Amoxicillin is a penicillin antibiotic [1]; avoid it."])
    services = make_services(llm)
    run("I am allergic to penicillin.", services)
    events, result = run("Can I take amoxicillin?", make_services(llm, memory=services.memory, cache=services.cache))
    kinds = [type(e) for e in events]
    alerts = events[kinds.index(Alerts)]
    assert alerts.alerts and alerts.alerts[0]["kind"] == "allergy_conflict"
    assert kinds.index(Alerts) < kinds.index(Token)
    assert result["alerts"][0]["drug"] == "amoxicillin"
    system = llm.calls[-1]["messages"][0]["content"]
    assert "penicillin" in system.lower()


def test_no_knowledge_base_still_answers_and_says_so():
    services = make_services(FakeLLM(["The sources do not cover this; evidence is missing."]))
    services.knowledge = None
    _events, result = run("How is diabetes treated?", services)
    assert result["sources"] == []
    assert any("no knowledge base" in d for d in result["trace"]["decisions"])


def test_documents_reach_the_prompt_numbered():
    llm = FakeLLM(["Answer [1]."])
    services = make_services(llm, knowledge=FakeKnowledge([Passage("d/1", "Metformin lowers glucose.", "Metformin")]))
    run("What does metformin do?", services)
    user = llm.calls[0]["messages"][-1]["content"]
    assert "[1] Metformin: Metformin lowers glucose." in user
    assert user.rstrip().endswith("What does metformin do?")
