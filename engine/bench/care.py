"""`chartside bench care --json [--set FILE ...]`: the "when to get help now" line on the seek-care sets.

Each question of resources/eval/answers/seek_care_{dev,heldout}.jsonl goes through what a
turn does before its answer: the clinical service's extraction and triage (red-flag rules,
then the similar-emergency check), then engine.agent.care_guidance. A question that should
be told when to get help passes when its answer opens with the line and the line names every
warning-sign group of the case, or when an emergency alert opens it instead (that is
stronger advice; its guidance is checked for the same signs and reported apart). A question
that should not be told passes when neither opens its answer. The dev set was looked at
while the table was written; the held-out set was not (reported apart, `tuned_on`).
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.paths import resources_dir

SETS = ("seek_care_dev.jsonl", "seek_care_heldout.jsonl")


def register(subparsers) -> None:
    parser = subparsers.add_parser("care", help="'when to get help now' guidance on the seek-care sets")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--set", type=Path, action="append", default=None,
                        help="seek-care JSONL (repeatable; default: the team's dev and held-out sets)")
    parser.add_argument("--errors", action="store_true", help="include every case that did not pass")
    parser.set_defaults(func=run)


def default_sets() -> list[Path]:
    return [resources_dir() / "eval" / "answers" / name for name in SETS]


def read_cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def score_case(case: dict, line: str, emergency_message: str) -> dict:
    """One case's verdict: whether urgent-care advice was given, and which sign groups it names."""
    given = bool(line or emergency_message)
    text = (line or emergency_message).lower()
    missing = [group for group in case.get("flags", []) if not any(p.lower() in text for p in group)]
    expected = bool(case["care"])
    passed = (given and not missing) if expected else not given
    return {"id": case["id"], "lang": case["lang"], "expected": expected, "line": bool(line),
            "emergency": bool(emergency_message), "flags": len(case.get("flags", [])),
            "flags_met": len(case.get("flags", [])) - len(missing) if given else 0,
            "missing": missing, "passed": passed}


def summarise(verdicts: list[dict]) -> dict:
    positives = [v for v in verdicts if v["expected"]]
    negatives = [v for v in verdicts if not v["expected"]]
    given = [v for v in positives if v["line"] or v["emergency"]]
    flags = sum(v["flags"] for v in positives)
    return {
        "cases": len(verdicts), "positives": len(positives), "negatives": len(negatives),
        "passed": sum(v["passed"] for v in verdicts),
        "pass_rate": round(sum(v["passed"] for v in verdicts) / len(verdicts), 3) if verdicts else None,
        "care_recall": round(len(given) / len(positives), 3) if positives else None,
        "by_emergency_alert": sum(1 for v in positives if v["emergency"]),
        "sign_coverage": round(sum(v["flags_met"] for v in positives) / flags, 3) if flags else None,
        "false_guidance": sum(1 for v in negatives if v["line"] or v["emergency"]),
        "by_language": {lang: {"cases": len(rows), "passed": sum(v["passed"] for v in rows)}
                        for lang in sorted({v["lang"] for v in verdicts})
                        for rows in [[v for v in verdicts if v["lang"] == lang]]},
    }


def run(args) -> int:
    from engine.agent.care_guidance import care_guidance
    from engine.facade import Engine
    from engine.text import detect_language

    engine = Engine()
    clinical = engine.clinical
    if clinical is None:
        from engine.errors import ChartsideError

        raise ChartsideError("no clinical service", user_message="The clinical pack is not available: "
                                                                  "run `chartside clinical build-pack` first.")
    report: dict = {"command": "chartside bench care --json", "sets": {}}
    for path in args.set or default_sets():
        verdicts = []
        for case in read_cases(path):
            text = case["q"]
            verdict = clinical.triage(text)
            emergency = verdict.get("message", "") if verdict.get("emergency") else ""
            alerts = [{"kind": "emergency", "message": emergency}] if emergency else []
            line = care_guidance(text, clinical.extract(text), alerts, detect_language(text))
            verdicts.append(score_case(case, line, emergency))
        entry = {"tuned_on": "heldout" not in path.name, **summarise(verdicts)}
        if args.errors:
            entry["errors"] = [v for v in verdicts if not v["passed"]]
        report["sets"][path.name] = entry
    engine.close()
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for name, entry in report["sets"].items():
            print(f"{name} ({'tuned on' if entry['tuned_on'] else 'held out'}): {entry['passed']}/{entry['cases']} "
                  f"passed; care recall {entry['care_recall']}, sign coverage {entry['sign_coverage']}, "
                  f"false guidance {entry['false_guidance']}")
    return 0
