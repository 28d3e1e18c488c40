"""`chartside kb ...` and `chartside bench retrieval` end to end on a tiny shared-data folder."""

from __future__ import annotations

import json

from engine.cli import main


def test_kb_build_add_list_search_remove(tiny_shared, hashing_embedder, tmp_path, capsys):
    assert main(["kb", "build"]) == 0
    out = capsys.readouterr()
    assert "knowledge base ready: " in out.out and "embedding:" in out.err

    assert main(["kb", "status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["stale"] == [] and status["manifest"]["documents"] == 5  # 4 MedQuAD + 1 judged-only

    note = tmp_path / "clinic_note.md"
    note.write_text("# Flu clinic\n\nFlu shots on Tuesdays for everyone over 65.", encoding="utf-8")
    assert main(["kb", "add", str(note), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["added"] == 1
    assert main(["kb", "add", str(note), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unchanged"] == 1

    assert main(["kb", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [d["title"] for d in listed] == ["Flu clinic"]

    assert main(["kb", "search", "--json", "-k", "2", "flu shots tuesday"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["query"] == "flu shots tuesday" and found["hits"][0]["title"] == "Flu clinic"
    assert main(["kb", "search", "--json", "asthma wheezing"]) == 0
    hit = json.loads(capsys.readouterr().out)["hits"][0]
    assert hit["doc_id"] == "ADAM_0000005_Sec1.txt" and hit["licence"] == "CC BY 4.0"

    assert main(["kb", "remove", str(note)]) == 0
    capsys.readouterr()
    assert main(["kb", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []


def test_bench_retrieval_contract(tiny_shared, hashing_embedder, tmp_path, capsys):
    queries = tmp_path / "queries.jsonl"
    queries.write_text(
        json.dumps({"id": "q1", "query": "metformin insulin glucose", "relevant": ["5_NIDDK_QA/0000001-1"]}) + "\n"
        # graded, and judged on the LiveQA alias of the same document
        + json.dumps({"id": "q2", "query": "triptan for migraine", "relevance": {"6_NINDS_QA/0000003-1": 3}}) + "\n"
        + json.dumps({"id": "q3", "query": "blood glucose sugar diabetes", "relevant": ["NIDDK_0000001_Sec1.txt"]}) + "\n",
        encoding="utf-8",
    )
    assert main(["bench", "retrieval", "--queries", str(queries), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["queries"] == 3
    assert set(result["modes"]) == {"bm25", "dense", "hybrid", "hybrid+expansion"}
    for row in result["modes"].values():
        assert {"mrr@10", "ndcg@10", "recall@10", "recall@15", "p50_ms", "p95_ms"} <= set(row)
    assert result["modes"]["bm25"]["mrr@10"] == 1.0
    assert main(["bench", "retrieval", "--queries", str(queries), "--json", "--mode", "bm25"]) == 0
    assert set(json.loads(capsys.readouterr().out)["modes"]) == {"bm25"}
