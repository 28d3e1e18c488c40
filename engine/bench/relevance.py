"""`chartside bench relevance --json`: fit the composer's relevance weights on the sets tuned on.

The composer picks an answer's sentences by a weighted sum of each candidate's features
(`composer.RELEVANCE_FEATURES`: similarity to the question, kind cues, topic and answering
pages, …). The weights were first set by hand, one question at a time. This bench answers
every question of the tuning sets (`FIT_SETS`, already looked at; never the held-out ones),
records the features of every candidate sentence the composer weighed, labels a candidate
that holds one of the question's fact phrases, and fits a conditional logit: per question,
a softmax over its candidates, so that the weights learn which candidate to prefer within one
question's pool, not which questions are easy. Weights are reported in similarity units
(similarity's weight is 1), the scale `RELEVANCE_FLOOR` is written in, beside the weights in
use. The held-out sets then say whether the fitted weights carry over
(`chartside bench answers`).
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from pathlib import Path

import numpy as np

FIT_SETS = ("dev", "dev2", "dev3", "heldout", "heldout2", "heldout3", "heldout4", "heldout5")
L2 = 1.0  # ridge on the weights (in feature units), so that a rare feature does not run away


def register(kinds) -> None:
    parser = kinds.add_parser("relevance", help="fit the composer's relevance weights on the tuning sets")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--splits", default=",".join(FIT_SETS), help="the answer sets to fit on, comma-separated")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    parser.set_defaults(func=run)


@contextlib.contextmanager
def recording_features():
    """Collect (pool texts, feature rows) from every `relevance_features` call while inside."""
    from engine.agent import composer

    calls: list[tuple[list[str], np.ndarray]] = []
    original = composer.relevance_features

    def recorded(query_vector, pool, vectors, **kwargs):
        rows = original(query_vector, pool, vectors, **kwargs)
        calls.append(([item.text for item in pool], rows))
        return rows

    composer.relevance_features = recorded
    try:
        yield calls
    finally:
        composer.relevance_features = original


def pools(engine, items: list[dict], progress=None) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per question, its candidates' feature rows and whether each holds one of its fact phrases."""
    from engine.bench import answers
    from engine.bench.grading import phrase_in

    model = engine.llm.info("generate").name
    settings = answers.mode_settings(engine.settings, "composer")
    out = []
    for n, item in enumerate(items, 1):
        with recording_features() as calls:
            answers.ask_once(engine, model, item["q"], settings, engine.kb.search)
        rows: dict[str, np.ndarray] = {}
        for texts, features in calls:
            for text, row in zip(texts, features):
                rows.setdefault(text, row)
        if rows:
            phrases = [p for group in item["nuggets"] for p in group]
            labels = np.array([any(phrase_in(p, text) for p in phrases) for text in rows], dtype=float)
            out.append((np.array(list(rows.values())), labels))
        if progress:
            progress(n, len(items))
    return out


def fit(pools: list[tuple[np.ndarray, np.ndarray]], l2: float = L2) -> np.ndarray:
    """Conditional-logit weights: maximise, per question, the softmax share of its labelled
    candidates, with a ridge penalty. Questions with no labelled or only labelled candidates
    say nothing about preference and are left out."""
    from scipy.optimize import minimize
    from scipy.special import logsumexp

    used = [(x, y) for x, y in pools if 0 < np.count_nonzero(y) < len(y)]
    width = used[0][0].shape[1]

    def loss(w):
        total, grad = l2 * w @ w, 2 * l2 * w
        for x, y in used:
            scores = x @ w
            log_p = scores - logsumexp(scores)
            p = np.exp(log_p)
            share = y / y.sum()
            total -= share @ log_p
            grad -= share @ x - p @ x
        return total, grad

    return minimize(loss, np.zeros(width), jac=True, method="L-BFGS-B").x


def run(args) -> int:
    from engine.agent import composer
    from engine.agent.runtime_env import passive_openmp_waits
    from engine.bench import answers
    from engine.facade import Engine
    from engine.settings import load_settings

    passive_openmp_waits()
    sets = answers.team_sets()
    items = [item for name in args.splits.split(",") if name for item in sets[name]]
    started = time.perf_counter()
    engine = Engine(load_settings())
    try:
        data = pools(engine, items, progress=lambda n, total: print(f"\r{n}/{total} questions", end="",
                                                                     file=sys.stderr, flush=True))
    finally:
        engine.close()
    print(file=sys.stderr)
    weights = fit(data)
    scaled = weights / weights[0] if weights[0] > 0 else weights
    result = {
        "splits": args.splits.split(","),
        "questions": len(data),
        "candidates": int(sum(len(y) for _, y in data)),
        "labelled": int(sum(y.sum() for _, y in data)),
        "weights_in_use": dict(zip(composer.RELEVANCE_FEATURES, map(float, composer.relevance_weights()))),
        "fitted": {name: round(float(w), 3) for name, w in zip(composer.RELEVANCE_FEATURES, scaled)},
        "fitted_raw": {name: round(float(w), 3) for name, w in zip(composer.RELEVANCE_FEATURES, weights)},
        "seconds": round(time.perf_counter() - started, 1),
    }
    text = json.dumps(result, ensure_ascii=False, indent=None if args.json else 2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0
