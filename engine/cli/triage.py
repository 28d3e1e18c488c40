"""`chartside triage [--json] TEXT`: deterministic red-flag check; exit code 0 either way."""

from __future__ import annotations

import json

from engine.cli.extract import read_text


def register(subparsers) -> None:
    parser = subparsers.add_parser("triage", help="check TEXT for emergency red flags (chest pain, stroke, anaphylaxis...)")
    parser.add_argument("--json", action="store_true", help="print one JSON object on one line")
    parser.add_argument("text", nargs="+", help="the text; '-' reads it from standard input")
    parser.set_defaults(func=run)


def run(args) -> int:
    from engine.clinical import triage

    result = triage(read_text(args.text))
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(("EMERGENCY: " + str(result["category"]) + "\n" if result["emergency"] else "") + result["message"])
    return 0
