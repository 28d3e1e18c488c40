import pytest

from engine.knowledge import budget_k, profile_rewrite, reciprocal_rank_fusion
from engine.knowledge.expansion import ChainExpander, ConceptNameExpander, plugged_expander, register_expander
from engine.protocols import QueryExpander


def test_rrf_seed_example_a_b_d_c():
    # Design seed: BM25 ranks A=1, B=3, C=5; FAISS ranks B=1, A=2, D=3; k = 60.
    bm25 = ["A", "x1", "B", "x2", "C"]
    faiss = ["B", "A", "D"]
    fused = dict(reciprocal_rank_fusion({"bm25": bm25, "dense": faiss}, k=60))
    assert fused["A"] == pytest.approx(1 / 61 + 1 / 62)  # 0.0325
    assert fused["B"] == pytest.approx(1 / 63 + 1 / 61)  # 0.0323
    assert fused["D"] == pytest.approx(1 / 63)  # 0.0159
    assert fused["C"] == pytest.approx(1 / 65)  # 0.0154
    order = [d for d, _ in reciprocal_rank_fusion({"bm25": bm25, "dense": faiss}, k=60) if d in "ABCD"]
    assert order == ["A", "B", "D", "C"]
    assert round(fused["A"], 4) == 0.0325 and round(fused["B"], 4) == 0.0323


def test_rrf_weights_and_deterministic_ties():
    fused = reciprocal_rank_fusion({"bm25": ["A", "B"], "dense": ["B", "A"]}, k=60, weights={"bm25": 2.0, "dense": 1.0})
    assert [d for d, _ in fused] == ["A", "B"]
    tie = reciprocal_rank_fusion({"bm25": ["A"], "dense": ["B"]}, k=60)
    assert [d for d, _ in tie] == ["A", "B"]


def test_budget_aware_k():
    assert budget_k(8, 900, 160.0) == 5
    assert budget_k(3, 900, 160.0) == 3
    assert budget_k(15, None, 160.0) == 15
    assert budget_k(8, 100, 160.0) == 1  # something always fits when there is a budget
    assert budget_k(8, 0, 160.0) == 0


def test_profile_rewrite_appends_age_gender_conditions_medications():
    profile = {
        "demographics": {"age": 67, "age_group": "older adult", "gender": "female", "pregnant": None},
        "conditions": [{"name": "type 2 diabetes"}, {"name": "asthma", "negated": True}],
        "medications": [{"name": "metformin", "dose": "500 mg"}],
        "allergies": [{"name": "penicillin"}],
    }
    rewritten = profile_rewrite("Can I take ibuprofen?", profile)
    assert rewritten == "Can I take ibuprofen? age 67 female type 2 diabetes metformin"
    assert profile_rewrite("query", None) == "query"
    assert profile_rewrite("query", {"demographics": {}}) == "query"


def test_concept_name_expander_finds_longest_names(tmp_path):
    tsv = tmp_path / "concepts.tsv"
    tsv.write_text(
        "concept_id\tname\tpreferred\tsemantic_types\tcategory\tcollection\n"
        "C1\tPolycystic kidney disease\t1\t\tDisease\tx\n"
        "C1\tpolycystic renal disease\t0\t\tDisease\tx\n"
        "C2\tKidney disease\t1\t\tDisease\tx\n"
        "C3\tthe\t1\t\tOther\tx\n",
        encoding="utf-8",
    )
    expander = ConceptNameExpander.from_tsv(tsv)
    assert isinstance(expander, QueryExpander)
    assert expander.expand("noonan and polycystic renal disease?") == ["Polycystic kidney disease"]
    assert expander.expand("what about the kidney disease") == ["Kidney disease"]
    assert expander.expand("nothing here") == []


def test_chain_and_plugged_expanders():
    class Korean:
        def expand(self, query):
            return ["diabetes"] if "당뇨" in query else []

    chain = ChainExpander([Korean(), Korean()])
    assert chain.expand("당뇨가 있어요") == ["diabetes"]
    factory = lambda: Korean()  # noqa: E731
    register_expander(factory)
    try:
        assert plugged_expander().expand("당뇨") == ["diabetes"]
    finally:
        from engine.knowledge import expansion

        expansion._factories.remove(factory)


def test_a_documents_passage_is_its_best_chunk_in_the_first_list_that_has_one():
    from engine.knowledge.hybrid import HybridRetriever

    # The dense search prefers the symptoms chunk of "What are the symptoms of pneumonia?";
    # BM25 the complications chunk, which names the topic more often.
    hits = {
        "dense": [("sym#0", 0.72), ("sym#1", 0.70), ("other#3", 0.65)],
        "bm25": [("sym#1", 31.5), ("other#0", 30.0), ("sym#0", 28.0), ("bm25only#2", 20.0), ("bm25only#0", 19.0)],
    }
    assert HybridRetriever._best_chunks(hits) == {"sym": "sym#0", "other": "other#3", "bm25only": "bm25only#2"}
    reordered = {"bm25": hits["bm25"], "dense": hits["dense"]}
    assert HybridRetriever._best_chunks(reordered) == {"sym": "sym#1", "other": "other#0", "bm25only": "bm25only#2"}
