"""`chartside bench liveqa [--json]`: the TREC 2017 LiveQA medical task over the default KB.

Queries are the 104 test questions as consumers sent them (subject + message); a second
row set (`"paraphrase"`) uses NIST's paraphrase of each. Relevance comes from
`liveqa_qrels.txt` (4-Excellent, 3-Incomplete, 2-Related, 1-Incorrect -> grades 3/2/1/0),
mapped through document aliases (a judged answer stored once under its MedQuAD id).

Per mode (bm25, dense, hybrid, hybrid+expansion) it reports the LiveQA average score (the
first returned document's grade, 0 when unjudged, averaged over all 104 questions),
MRR@10, nDCG@10, Recall@10/15 and p50/p95 latency (query embedding included); and, in the
same run on the same corpus, BM25 speed and score equality against rank_bm25.BM25Okapi.
Reference points: best official TREC 2017 run 0.637; BMC 2019 question entailment ~0.827.
(Ben Abacha et al., "Overview of the Medical Question Answering Task at TREC 2017 LiveQA".)
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from engine.bench.retrieval import (
    DEPTH,
    _ModeRetriever,
    default_expander,
    default_translator,
    map_aliases,
    modes_for,
    open_retriever,
    percentile,
    print_result,
    run_mode,
    summarise,
)
from engine.paths import shared_data_dir

GRADES = {"4-Excellent": 3.0, "3-Incomplete": 2.0, "2-Related": 1.0, "1-Incorrect": 0.0}
REFERENCE = {"trec2017_best_run": 0.637, "bmc2019_question_entailment": 0.827}


def load_liveqa(data_dir: Path | None = None) -> tuple[list[dict], dict[str, dict[str, float]]]:
    data_dir = data_dir or shared_data_dir()
    questions = [json.loads(line) for line in open(data_dir / "liveqa_test_questions.jsonl", encoding="utf-8") if line.strip()]
    qrels: dict[str, dict[str, float]] = {}
    for line in open(data_dir / "liveqa_qrels.txt", encoding="utf-8"):
        parts = line.split()
        if len(parts) != 3:
            continue
        number, judgment, answer_id = parts
        qrels.setdefault(f"TQ{number}", {})[answer_id] = GRADES.get(judgment, 0.0)
    return questions, qrels


def original_query(question: dict) -> str:
    subject = (question.get("subject") or "").strip()
    message = (question.get("message") or "").strip()
    return f"{subject}. {message}" if subject and subject.lower() not in message.lower() else message or subject


def average_score(rankings, judgments) -> float:
    """LiveQA average score: grade (0-3) of the first returned answer, 0 when unjudged."""
    if not rankings:
        return 0.0
    return sum((g.get(r[0], 0.0) if r else 0.0) for r, g in zip(rankings, judgments)) / len(rankings)


def bm25_speed(kb, queries: list[str], limit: int = 30) -> dict:
    """Our sparse BM25 vs rank_bm25.BM25Okapi over the same tokenized chunks, same queries."""
    from rank_bm25 import BM25Okapi

    from engine.knowledge.store import bm25_text
    from engine.text import tokenize

    corpus = [tokenize(bm25_text(c.title, c.text)) for c in kb.chunks(kb.chunk_ids)]
    reference = BM25Okapi(corpus, k1=kb.bm25.k1, b=kb.bm25.b)
    tokens = [tokenize(q) for q in queries[:limit]]
    ours_ms, theirs_ms, worst = [], [], 0.0
    for query in tokens:
        start = time.perf_counter()
        ours = kb.bm25.get_scores(query)
        ours_ms.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        theirs = reference.get_scores(query)
        theirs_ms.append((time.perf_counter() - start) * 1000)
        scale = np.maximum(np.abs(theirs), 1e-12)
        worst = max(worst, float(np.max(np.abs(ours - theirs) / scale)))
    ours_p50, theirs_p50 = percentile(ours_ms, 0.5), percentile(theirs_ms, 0.5)
    return {
        "queries": len(tokens),
        "chunks": kb.size,
        "ours_p50_ms": round(ours_p50, 3),
        "rank_bm25_p50_ms": round(theirs_p50, 2),
        "speedup": round(theirs_p50 / max(ours_p50, 1e-9), 1),
        "max_relative_difference": worst,
    }


def dense_recall(kb, queries: list[str], k: int = 10) -> dict:
    """Recall@k of HNSW and IVF against exact (flat) search, same vectors, same queries."""
    from engine.knowledge.dense import DenseIndex

    embed = getattr(kb.embedder, "embed_query", None) or (lambda q: kb.embedder.embed([q])[0])
    vectors = [embed(q) for q in queries]
    exact = DenseIndex("flat").build(kb.vectors)
    truth = [set(exact.search(v, k)[0].tolist()) for v in vectors]
    out = {"chunks": kb.size, "queries": len(queries), "k": k}
    for kind in ("hnsw", "ivf"):
        start = time.perf_counter()
        index = DenseIndex(kind).build(kb.vectors)
        build_s = time.perf_counter() - start
        hits, times = 0, []
        for vector, expected in zip(vectors, truth):
            t = time.perf_counter()
            rows = index.search(vector, k)[0]
            times.append((time.perf_counter() - t) * 1000)
            hits += len(expected & set(rows.tolist()))
        out[kind] = {"recall@10_vs_flat": round(hits / max(1, sum(len(t) for t in truth)), 4),
                     "build_s": round(build_s, 2), "p50_ms": round(percentile(times, 0.5), 3)}
    times = []
    for vector in vectors:
        t = time.perf_counter()
        exact.search(vector, k)
        times.append((time.perf_counter() - t) * 1000)
    out["flat"] = {"p50_ms": round(percentile(times, 0.5), 3)}
    return out


RRF_GRID = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
RRF_CRITERION = "ndcg@10"


def _fold_metrics(rankings, judgments) -> dict:
    row = {"avg_score": round(average_score(rankings, judgments), 4)}
    row.update({key: value for key, value in summarise(rankings, judgments, []).items() if not key.endswith("_ms")})
    row["queries"] = len(rankings)
    return row


def choose_rrf_weight(retriever, questions, qrels, *, grid=RRF_GRID, folds: int = 2,
                      criterion: str = RRF_CRITERION, depth: int = DEPTH) -> dict:
    """BM25's RRF weight (dense weight fixed) chosen by cross-validation on LiveQA.

    Question i belongs to fold i % folds (two folds: even and odd questions). For each
    fold the weight with the best `criterion` of plain hybrid retrieval on the *other*
    folds is chosen (ties: the first in `grid`), and the fold is reported at that weight:
    held-out figures of a weight it did not help choose. `cross_validated` pools every
    question ranked at the weight chosen without it. `in_sample` is every question at the
    configured weight and at the weight that is best on all of them (tuned on what it
    reports). The BM25 and dense lists are searched once; weights only re-fuse them."""
    from engine.knowledge.hybrid import reciprocal_rank_fusion

    judgments = map_aliases([qrels.get(q["qid"], {}) for q in questions], retriever.kb.aliases())
    lists = [retriever.candidate_lists(original_query(q), k=depth) for q in questions]
    dense_weight = retriever.weights["dense"]
    fused: dict[float, list[list[str]]] = {
        w: [[d for d, _ in reciprocal_rank_fusion(ls, retriever.rrf_k, {"bm25": w, "dense": dense_weight})[:depth]]
            for ls in lists]
        for w in dict.fromkeys([*grid, retriever.weights["bm25"]])
    }

    def metrics(indices, weight_of) -> dict:
        return _fold_metrics([fused[weight_of(i)][i] for i in indices], [judgments[i] for i in indices])

    everyone = list(range(len(questions)))
    out_folds, chosen_for = [], {}
    for fold in range(folds):
        tune = [i for i in everyone if i % folds != fold]
        report = [i for i in everyone if i % folds == fold]
        scores = {w: metrics(tune, lambda _i, w=w: w)[criterion] for w in grid}
        chosen = max(grid, key=lambda w: (scores[w], -grid.index(w)))
        chosen_for.update({i: chosen for i in report})
        out_folds.append({
            "tuned_on": f"questions i % {folds} != {fold}", "reported_on": f"questions i % {folds} == {fold}",
            "chosen_bm25_weight": chosen, f"tuning_{criterion}": {str(w): scores[w] for w in grid},
            "held_out": metrics(report, lambda _i, w=chosen: w),
        })
    all_scores = {w: metrics(everyone, lambda _i, w=w: w)[criterion] for w in grid}
    best = max(grid, key=lambda w: (all_scores[w], -grid.index(w)))
    setting = retriever.weights["bm25"]
    return {
        "mode": "hybrid", "criterion": criterion, "grid": list(grid), "dense_weight": dense_weight,
        "rrf_k": retriever.rrf_k, "folds": out_folds,
        "cross_validated": metrics(everyone, chosen_for.__getitem__),
        "in_sample": {"configured_bm25_weight": setting, "at_configured": metrics(everyone, lambda _i: setting),
                      "best_bm25_weight": best, "at_best": metrics(everyone, lambda _i: best)},
    }


def register(kinds) -> None:
    parser = kinds.add_parser("liveqa", help="TREC 2017 LiveQA-Med: average score, MRR, nDCG, recall, latency")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--mode", default="all", choices=["bm25", "dense", "hybrid", "hybrid+expansion", "all"])
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions (0 = all)")
    parser.add_argument("--no-paraphrase", action="store_true", help="skip the NIST paraphrase rows")
    parser.add_argument("--no-speed", action="store_true", help="skip the rank_bm25 comparison")
    parser.add_argument("--dense-recall", action="store_true", help="also measure HNSW/IVF recall against flat")
    parser.add_argument("--choose-rrf-weight", action="store_true",
                        help="only choose BM25's RRF weight by two-fold cross-validation (odd/even questions) "
                             "and report each fold at the weight chosen on the other")
    parser.set_defaults(func=run)


def evaluate_liveqa(retriever, expander, questions, qrels, modes, *, field: str = "original") -> dict:
    aliases = retriever.kb.aliases()
    judgments = map_aliases([qrels.get(q["qid"], {}) for q in questions], aliases)
    if field == "original":
        texts = [original_query(q) for q in questions]
    else:
        texts = [q.get("nist_paraphrase") or original_query(q) for q in questions]
    wrapped = _ModeRetriever(retriever, expander, default_translator())
    out = {}
    for mode in modes:
        run = run_mode(wrapped, texts, mode)
        row = {"avg_score": round(average_score(run.rankings, judgments), 4)}
        row.update(summarise(run.rankings, judgments, run.latencies_ms, run.cpu_ms))
        out[mode] = row
    return {"queries": len(texts), "modes": out}


def run(args) -> int:
    from engine.settings import load_settings

    settings = load_settings()
    start = time.perf_counter()
    retriever = open_retriever(settings)
    build_s = time.perf_counter() - start
    expander = default_expander()
    questions, qrels = load_liveqa()
    if args.limit:
        questions = questions[: args.limit]
    if args.choose_rrf_weight:
        print_result(choose_rrf_weight(retriever, questions, qrels), args.json)
        return 0
    modes = modes_for(args.mode, expander is not None)
    result = evaluate_liveqa(retriever, expander, questions, qrels, modes)
    if not args.no_paraphrase:
        result["paraphrase"] = evaluate_liveqa(retriever, expander, questions, qrels, modes, field="paraphrase")
    if not args.no_speed:
        result["bm25_speed"] = bm25_speed(retriever.kb, [original_query(q) for q in questions])
    if args.dense_recall:
        result["dense_recall"] = dense_recall(retriever.kb, [original_query(q) for q in questions])
    kb = retriever.kb
    result["index"] = {
        "chunks": kb.size,
        "documents": sum(kb.document_count().values()),
        "embedding": kb.manifest.embedding if kb.manifest else "",
        "open_s": round(build_s, 2),
        "load_s": round(kb.load_seconds, 3),
        "build_timings_s": kb.manifest.timings_s if kb.manifest else {},
    }
    result["reference_avg_score"] = REFERENCE
    print_result(result, args.json)
    return 0
