"""`chartside bench kinds --json [--set FILE ...]`: how often the composer reads the kind of
question right (definition, causes, ..., "what should I do") on the question-kind sets.

The kind picks a composed answer's lead, the sentences it prefers and their order, so a
misread question ("What helps a sore throat?" read as a definition) gets an answer to
another question. resources/eval/question_kinds/dev.jsonl and heldout.jsonl were looked at
while the cues were written; heldout2.jsonl was not (reported apart, `tuned_on`). No model
is loaded.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.clinical.eval_sets import read_jsonl
from engine.paths import resources_dir

SETS = ("dev.jsonl", "heldout.jsonl", "heldout2.jsonl")
TUNED_ON = frozenset({"dev.jsonl", "heldout.jsonl"})


def register(subparsers) -> None:
    parser = subparsers.add_parser("kinds", help="question kinds read right on the question-kind sets")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--set", type=Path, action="append", default=None,
                        help="question-kind JSONL (repeatable; default: the team's three sets)")
    parser.add_argument("--errors", action="store_true", help="list every misread question")
    parser.set_defaults(func=run)


def default_sets() -> list[Path]:
    return [resources_dir() / "eval" / "question_kinds" / name for name in SETS]


def score(cases: list[dict]) -> dict:
    """Share read right, overall and per language, and the misread questions."""
    from engine.agent.composer import asked_kind

    misread = []
    right = {"en": [0, 0], "ko": [0, 0]}
    for case in cases:
        kind = asked_kind(case["q"])
        tally = right.setdefault(case["lang"], [0, 0])
        tally[1] += 1
        if kind == case["kind"]:
            tally[0] += 1
        else:
            misread.append({"id": case["id"], "q": case["q"], "expected": case["kind"], "read": kind})
    total = sum(t[1] for t in right.values())
    return {"cases": total, "right": total - len(misread),
            "accuracy": round((total - len(misread)) / total, 3) if total else None,
            "by_language": {lang: {"cases": n, "right": ok, "accuracy": round(ok / n, 3)}
                            for lang, (ok, n) in sorted(right.items()) if n},
            "misread": misread}


def run(args) -> int:
    report: dict = {"command": "chartside bench kinds --json", "sets": {}}
    for path in args.set or default_sets():
        entry = score(read_jsonl(path))
        misread = entry.pop("misread")
        if args.errors:
            entry["misread"] = misread
        report["sets"][path.name] = {"tuned_on": path.name in TUNED_ON, **entry}
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for name, entry in report["sets"].items():
            print(f"{name} ({'tuned on' if entry['tuned_on'] else 'held out'}): {entry['right']}/{entry['cases']} "
                  f"read right ({entry['accuracy']})")
    return 0
