"""`chartside bench extract --json`: slot extraction quality and speed, triage, conflicts.

- extraction: per-slot precision/recall/F1 on resources/clinical/eval/extraction.jsonl
  (or `--set FILE`), p50/p95 latency per utterance (three passes after warm-up), and
  the median of five runs on a 6,000-character note made of the set's utterances;
- triage: red-flag recall, category accuracy and false-alarm rate on triage.jsonl;
- conflicts: the acceptance pairs (penicillin x amoxicillin, sulfa x sulfamethoxazole,
  aspirin-sensitive x ibuprofen, warfarin x NSAID) and an unrelated control;
- pack: build time (from the manifest), in-process load time (MedCAT deserialisation plus
  warm-up) and a cold start in a fresh Python process (imports included).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

NOTE_CHARS = 6000
COLD_START = (
    "import time; t=time.perf_counter(); import engine; from engine.clinical.slots import get_pack; "
    "p=get_pack(); print(round(time.perf_counter()-t, 3), round(p.load_seconds, 3))"
)


def register(subparsers) -> None:
    parser = subparsers.add_parser("extract", help="clinical extraction F1 and latency, triage recall, conflict checks")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--set", type=Path, default=None, help="extraction JSONL (default: the team's set)")
    parser.add_argument("--triage-set", type=Path, default=None, help="triage JSONL (default: the team's set)")
    parser.add_argument("--no-cold-start", action="store_true", help="skip the fresh-process start-up timing")
    parser.add_argument("--errors", action="store_true", help="include every utterance with a wrong or missing slot")
    parser.add_argument("--no-similar", action="store_true",
                        help="skip triage with the similar-emergency check (it loads the embedder)")
    parser.set_defaults(func=run)


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def _note(texts: list[str]) -> str:
    """A 6,000-character note made of the set's utterances, repeated as needed."""
    note = ""
    while len(note) < NOTE_CHARS:
        for text in texts:
            note += text + " "
            if len(note) >= NOTE_CHARS:
                break
    return note[:NOTE_CHARS]


def extraction_report(rows: list[dict], pack, include_errors: bool) -> dict:
    from engine.bench.clinical_scores import score_extraction
    from engine.clinical.slots import extract

    predictions = [extract(row["text"], pack) for row in rows]
    timings = []
    for _ in range(3):
        for row in rows:
            started = time.perf_counter()
            extract(row["text"], pack)
            timings.append((time.perf_counter() - started) * 1000)
    note = _note([row["text"] for row in rows])
    note_runs = []
    for _ in range(5):
        started = time.perf_counter()
        extract(note, pack)
        note_runs.append((time.perf_counter() - started) * 1000)
    score = score_extraction(rows, predictions, pack)
    languages: dict[str, int] = {}
    for row in rows:
        languages[row.get("lang", "?")] = languages.get(row.get("lang", "?"), 0) + 1
    report = {
        "utterances": len(rows),
        "languages": languages,
        "overall": score.overall(),
        "per_slot": {slot: counts.report() for slot, counts in sorted(score.per_slot.items())},
        "latency_ms": {"p50": round(statistics.median(timings), 3), "p95": round(_percentile(timings, 0.95), 3),
                       "mean": round(statistics.fmean(timings), 3), "runs": len(timings)},
        "note_6000_chars_ms": {"median": round(statistics.median(note_runs), 2), "max": round(max(note_runs), 2),
                               "chars": len(note)},
    }
    if include_errors:
        report["errors"] = score.errors
    return report


def triage_report(rows: list[dict]) -> dict:
    """The red-flag rules alone."""
    from engine.bench.clinical_scores import score_triage
    from engine.clinical.red_flags import triage

    return score_triage(rows, [triage(row["text"]) for row in rows])


def similar_triage_report(rows: list[dict], set_name: str) -> dict:
    """What the product does: the rules, then the similar-emergency check (real embedder)."""
    from engine.bench.clinical_scores import score_triage
    from engine.clinical.similar_emergencies import EMERGENCY_SETS, SimilarEmergencies, triage_with_similar
    from engine.knowledge import make_embedder
    from engine.settings import load_settings

    embedder = make_embedder(load_settings())
    similar = SimilarEmergencies(lambda texts: embedder.embed(list(texts)))
    verdicts = [triage_with_similar(row["text"], similar) for row in rows]
    report = score_triage(rows, verdicts)
    report["caught_by_similarity_only"] = sum(v["detected_by"] == "similar" for v in verdicts)
    report["sample"] = "in-sample (its messages are the check's examples)" if set_name in EMERGENCY_SETS else "out-of-sample"
    return report


ACCEPTANCE_CONFLICTS = [
    ("penicillin allergy x amoxicillin", {"allergies": [{"name": "penicillin"}]}, {"medications": [{"name": "amoxicillin"}]}, "allergy_conflict"),
    ("sulfa allergy x sulfamethoxazole", {"allergies": [{"name": "sulfa drugs"}]}, {"medications": [{"name": "sulfamethoxazole and trimethoprim"}]}, "allergy_conflict"),
    ("aspirin-sensitive x ibuprofen", {"allergies": [{"name": "aspirin"}]}, {"medications": [{"name": "ibuprofen"}]}, "allergy_conflict"),
    ("warfarin x NSAID (naproxen)", {"medications": [{"name": "warfarin"}]}, {"medications": [{"name": "naproxen"}]}, "interaction"),
    ("control: penicillin allergy x acetaminophen", {"allergies": [{"name": "penicillin"}]}, {"medications": [{"name": "acetaminophen"}]}, None),
    ("control: warfarin x omeprazole", {"medications": [{"name": "warfarin"}]}, {"medications": [{"name": "omeprazole"}]}, None),
]


def conflicts_report() -> dict:
    from engine.clinical.drug_alerts import conflicts

    cases = []
    for label, profile, slots, expected in ACCEPTANCE_CONFLICTS:
        kinds = sorted({alert["kind"] for alert in conflicts(profile, slots, language="en")})
        passed = (expected in kinds) if expected else not kinds
        cases.append({"case": label, "expected": expected, "alerts": kinds, "pass": passed})
    return {"passed": sum(c["pass"] for c in cases), "cases": cases}


def pack_report(cold_start: bool) -> tuple[dict, object]:
    from engine.clinical.lexicon import korean_term_count
    from engine.clinical.pack import pack_dir
    from engine.clinical.slots import get_pack, load_and_warm_up

    started = time.perf_counter()
    pack = get_pack()
    first_call = time.perf_counter() - started
    reloaded = load_and_warm_up(pack.path or pack_dir())
    report = {
        "concepts": pack.manifest.get("concepts"),
        "names": pack.manifest.get("names"),
        "korean_names_in_lexicon": korean_term_count(),
        "build_seconds": pack.manifest.get("build_seconds"),
        "get_pack_seconds": round(first_call, 3),
        "load_seconds": round(reloaded.load_seconds, 3),
    }
    if cold_start:
        output = subprocess.run([sys.executable, "-c", COLD_START], capture_output=True, text=True, check=True).stdout.split()
        report["cold_start_seconds"] = {"process_to_ready": float(output[0]), "pack_load_and_warm_up": float(output[1])}
    return report, pack


def run(args) -> int:
    from engine.clinical.eval_sets import eval_dir, read_jsonl

    pack_info, pack = pack_report(not args.no_cold_start)
    extraction_rows = read_jsonl(args.set or eval_dir() / "extraction.jsonl")
    triage_rows = read_jsonl(args.triage_set or eval_dir() / "triage.jsonl")
    report = {
        "extraction": extraction_report(extraction_rows, pack, args.errors),
        "triage": triage_report(triage_rows),
        **({} if args.no_similar else
           {"triage_with_similar": similar_triage_report(triage_rows, (args.triage_set or Path("triage.jsonl")).name)}),
        "conflicts": conflicts_report(),
        "pack": pack_info,
    }
    print(json.dumps(report, ensure_ascii=False, indent=None if args.json else 2))
    return 0
