"""`chartside bench retrieval --queries FILE [--json] [--mode bm25|dense|hybrid|all]`.

FILE is JSONL, one query a line: `{"id", "query", "relevant": [doc_id, ...]}` or with graded
`"relevance": {doc_id: grade}` (grade > 0 is relevant). Evaluates over the default knowledge
base and prints `{"queries": n, "modes": {MODE: {"mrr@10", "ndcg@10", "recall@10",
"recall@15", "p50_ms", "p95_ms"}}}`, MODE among bm25, dense, hybrid, hybrid+expansion.

A bilingual set (lines with `query_ko` and `query_en` instead of `query`, an optional
`topic` list of on-topic documents and a `split`: dev, heldout or another held-out name, as in
resources/eval/retrieval/) is also reported per language and split under `"sets"`:
`{LANG: {SPLIT: {MODE: {..., "topic_mrr@10"}}}}`, so Korean sits beside English and
held-out figures apart from the ones tuned on. `--sets` runs the project's own sets.

Metric definitions (shared with `bench liveqa`):
- nDCG@10 with linear gains (the grade) and log2(rank + 1) discounts, ideal DCG from all
  judged grades of the query;
- MRR@10 and Recall@k count a document as relevant when its grade is > 0;
- they are averaged over the queries that have at least one relevant document;
- latency is wall time per query for the whole search, query embedding included
  (p50/p95 over all queries, after a short warm-up).
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

ALL_MODES = ("bm25", "dense", "hybrid", "hybrid+expansion")
DEPTH = 15


# --- metrics ------------------------------------------------------------------------------


def mrr_at(ranked: Sequence[str], grades: Mapping[str, float], k: int = 10) -> float:
    for i, doc in enumerate(ranked[:k], start=1):
        if grades.get(doc, 0) > 0:
            return 1.0 / i
    return 0.0


def ndcg_at(ranked: Sequence[str], grades: Mapping[str, float], k: int = 10) -> float:
    dcg = sum(grades.get(doc, 0) / math.log2(i + 1) for i, doc in enumerate(ranked[:k], start=1))
    ideal = sorted((g for g in grades.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(i + 1) for i, g in enumerate(ideal, start=1))
    return dcg / idcg if idcg > 0 else 0.0


def recall_at(ranked: Sequence[str], grades: Mapping[str, float], k: int) -> float:
    relevant = {d for d, g in grades.items() if g > 0}
    if not relevant:
        return 0.0
    return len(relevant & set(ranked[:k])) / len(relevant)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def summarise(rankings: Sequence[Sequence[str]], judgments: Sequence[Mapping[str, float]],
              latencies_ms: Sequence[float], cpu_ms: Sequence[float] = ()) -> dict:
    judged = [(r, g) for r, g in zip(rankings, judgments) if any(v > 0 for v in g.values())]
    n = max(1, len(judged))
    out = {
        "mrr@10": round(sum(mrr_at(r, g) for r, g in judged) / n, 4),
        "ndcg@10": round(sum(ndcg_at(r, g) for r, g in judged) / n, 4),
        "recall@10": round(sum(recall_at(r, g, 10) for r, g in judged) / n, 4),
        "recall@15": round(sum(recall_at(r, g, 15) for r, g in judged) / n, 4),
        "p50_ms": round(percentile(latencies_ms, 0.5), 2),
        "p95_ms": round(percentile(latencies_ms, 0.95), 2),
    }
    if cpu_ms:
        # CPU time of the whole process per query (both retrievers' threads added up):
        # what a query costs when the machine is busy with other work.
        out["cpu_p50_ms"] = round(percentile(cpu_ms, 0.5), 2)
    return out


# --- running ------------------------------------------------------------------------------


@dataclass
class ModeRun:
    rankings: list[list[str]]
    latencies_ms: list[float]
    cpu_ms: list[float]


def run_mode(retriever, queries: Sequence[str], mode: str, *, depth: int = DEPTH, warmup: int = 3) -> ModeRun:
    """Rank every query in one mode, timing each search (wall and process CPU time)."""
    base, expand = (mode.split("+")[0], mode.endswith("+expansion"))
    for query in queries[:warmup]:
        retriever.rank(query, mode=base, k=depth, expand=expand)
    run = ModeRun([], [], [])
    for query in queries:
        start, start_cpu = time.perf_counter(), time.process_time()
        ranking = retriever.rank(query, mode=base, k=depth, expand=expand)
        run.latencies_ms.append((time.perf_counter() - start) * 1000)
        run.cpu_ms.append((time.process_time() - start_cpu) * 1000)
        run.rankings.append(ranking.doc_ids)
    return run


def evaluate(retriever, queries: Sequence[str], judgments: Sequence[Mapping[str, float]],
             modes: Iterable[str]) -> dict:
    out: dict[str, dict] = {}
    for mode in modes:
        run = run_mode(retriever, queries, mode)
        out[mode] = summarise(run.rankings, judgments, run.latencies_ms, run.cpu_ms)
    return out


LANGUAGES = ("ko", "en")
SPLITS = ("dev", "heldout", "all")


def evaluate_bilingual(retriever, items: Sequence[dict], modes: Iterable[str],
                       aliases: Mapping[str, str] | None = None) -> dict:
    """Question-specific (`relevant`) and topic (`topic`) metrics per language, split and mode."""
    aliases = aliases or {}
    relevant = map_aliases([{d: 1.0 for d in item["relevant"]} for item in items], aliases)
    topic = map_aliases([{d: 1.0 for d in item.get("topic") or item["relevant"]} for item in items], aliases)
    out: dict[str, dict] = {}
    for lang in LANGUAGES:
        queries = [item[f"query_{lang}"] for item in items]
        named = [item.get("split", "dev") for item in items]
        per_split: dict[str, dict] = {split: {} for split in [*SPLITS[:-1], *dict.fromkeys(named), "all"]}
        for mode in modes:
            run = run_mode(retriever, queries, mode)
            for split in per_split:
                chosen = [i for i, item in enumerate(items) if split == "all" or item.get("split", "dev") == split]
                if not chosen:
                    continue
                row = summarise([run.rankings[i] for i in chosen], [relevant[i] for i in chosen],
                                [run.latencies_ms[i] for i in chosen], [run.cpu_ms[i] for i in chosen])
                topic_row = summarise([run.rankings[i] for i in chosen], [topic[i] for i in chosen], [])
                row["topic_mrr@10"] = topic_row["mrr@10"]
                row["topic_recall@10"] = topic_row["recall@10"]
                row["queries"] = len(chosen)
                per_split[split][mode] = row
        out[lang] = {split: rows for split, rows in per_split.items() if rows}
    return out


def project_sets() -> list[Path]:
    from engine.paths import resources_dir

    folder = resources_dir() / "eval" / "retrieval"
    return sorted(folder.glob("*.jsonl"))


def load_items(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def open_retriever(settings=None, *, progress: bool = True):
    """A retriever over the default knowledge base (built if needed, progress on stderr)."""
    from engine.knowledge import HybridRetriever, open_default
    from engine.knowledge.store import print_progress
    from engine.settings import load_settings

    settings = settings or load_settings()
    kb = open_default(settings, progress=print_progress if progress else None)
    return HybridRetriever.from_settings(kb, settings)


def default_expander():
    """What `+expansion` modes use: concept names (concepts.tsv), the clinical Korean ->
    English concept expander, and anything registered with `register_expander`."""
    from engine.knowledge.expansion import ChainExpander, ConceptNameExpander, plugged_expander

    expanders = []
    try:
        expanders.append(ConceptNameExpander.from_tsv())
    except OSError:
        pass
    try:
        from engine.clinical import KoreanConceptExpander

        expanders.append(KoreanConceptExpander())
    except ImportError:
        pass
    plugged = plugged_expander()
    if plugged is not None:
        expanders.append(plugged)
    if not expanders:
        return None
    return expanders[0] if len(expanders) == 1 else ChainExpander(expanders)


def default_translator():
    """What `+expansion` modes translate queries with: concepts from the clinical pack and
    question types (engine.knowledge.translation); None without the clinical pack."""
    try:
        from engine.clinical import PackConceptFinder
        from engine.knowledge.translation import QueryTranslator
    except ImportError:
        return None
    return QueryTranslator(PackConceptFinder())


class _ModeRetriever:
    """Wraps a HybridRetriever so `+expansion` modes use the expander and translator and
    others do not."""

    def __init__(self, retriever, expander, translator=None):
        self.retriever, self.expander, self.translator = retriever, expander, translator

    def rank(self, query, *, mode, k, expand):
        self.retriever.expander = self.expander if expand else None
        self.retriever.translator = self.translator if expand else None
        return self.retriever.rank(query, mode=mode, k=k, expand=expand)


def modes_for(arg: str, have_expander: bool) -> list[str]:
    if arg == "all":
        return [m for m in ALL_MODES if have_expander or m != "hybrid+expansion"]
    return [arg]


def load_queries(path: Path) -> tuple[list[str], list[str], list[dict[str, float]]]:
    ids, texts, judgments = [], [], []
    with open(path, encoding="utf-8") as handle:
        for n, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            item = json.loads(line)
            ids.append(str(item.get("id", n)))
            texts.append(item["query"])
            if "relevance" in item:
                judgments.append({str(k): float(v) for k, v in item["relevance"].items()})
            else:
                judgments.append({str(d): 1.0 for d in item.get("relevant", [])})
    return ids, texts, judgments


def map_aliases(judgments: Sequence[Mapping[str, float]], aliases: Mapping[str, str]) -> list[dict[str, float]]:
    """Judgments on alias ids (e.g. LiveQA answer ids) moved to the stored document id."""
    out = []
    for grades in judgments:
        mapped: dict[str, float] = {}
        for doc, grade in grades.items():
            target = aliases.get(doc, doc)
            mapped[target] = max(mapped.get(target, 0.0), grade)
        out.append(mapped)
    return out


def register(kinds) -> None:
    parser = kinds.add_parser("retrieval", help="MRR/nDCG/recall and latency of BM25, dense and hybrid retrieval")
    parser.add_argument("--queries", type=Path, help="JSONL with id, query, relevant/relevance "
                        "(or a bilingual set with query_ko/query_en, topic, split)")
    parser.add_argument("--sets", action="store_true", help="the project's Korean/English sets in resources/eval/retrieval")
    parser.add_argument("--no-translate", dest="translate", action="store_false",
                        help="+expansion modes without query translation (concept names only, as before)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--mode", default="all", choices=["bm25", "dense", "hybrid", "hybrid+expansion", "all"])
    parser.set_defaults(func=run)


def run(args) -> int:
    from engine.settings import load_settings

    if args.queries is None and not args.sets:
        raise SystemExit("bench retrieval: give --queries FILE or --sets")
    settings = load_settings()
    retriever = open_retriever(settings)
    expander = default_expander()
    modes = modes_for(args.mode, expander is not None)
    wrapped = _ModeRetriever(retriever, expander, default_translator() if args.translate else None)
    paths = project_sets() if args.sets else [args.queries]
    results = {}
    for path in paths:
        items = load_items(path)
        if items and "query_ko" in items[0]:
            sets = evaluate_bilingual(wrapped, items, modes, retriever.kb.aliases())
            results[path.stem] = {"queries": len(items), "modes": sets["ko"]["all"], "sets": sets}
        else:
            _, texts, judgments = load_queries(path)
            judgments = map_aliases(judgments, retriever.kb.aliases())
            results[path.stem] = {"queries": len(texts), "modes": evaluate(wrapped, texts, judgments, modes)}
    result = results[paths[0].stem] if len(paths) == 1 else {"sets": results}
    print_result(result, args.json)
    return 0


def print_result(result: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, indent=2))
        return
    if "queries" in result:
        print(f"queries: {result['queries']}")
    if "modes" in result:
        print(format_table(result["modes"]))
    for key, value in result.items():
        if key in ("queries", "modes"):
            continue
        if key == "sets":
            for name, rows in value.items():
                if isinstance(rows, dict) and "modes" in rows:
                    print(f"\n{name}:")
                    print_result(rows, False)
                elif isinstance(rows, dict):
                    for split, modes in rows.items():
                        print(f"\n{name} {split}:")
                        print(format_table(modes))
            continue
        if isinstance(value, dict) and "modes" in value:
            print(f"\n{key}:")
            print_result(value, False)
        else:
            print(f"{key}: {json.dumps(value)}")


COLUMNS = ("avg_score", "mrr@10", "ndcg@10", "recall@10", "recall@15", "topic_mrr@10", "topic_recall@10",
           "p50_ms", "p95_ms", "cpu_p50_ms", "queries")


def format_table(modes: Mapping[str, Mapping[str, float]]) -> str:
    present = {c for row in modes.values() for c in row}
    columns = [c for c in COLUMNS if c in present] + sorted(present - set(COLUMNS))
    lines = ["| mode | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for mode, row in modes.items():
        lines.append(f"| {mode} | " + " | ".join(str(row.get(c, "")) for c in columns) + " |")
    return "\n".join(lines)
