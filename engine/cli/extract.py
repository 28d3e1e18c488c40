"""`chartside extract [--json] TEXT`: the clinical slots of TEXT (Korean, English or mixed)."""

from __future__ import annotations

import json
import sys

from engine.errors import InputError


def register(subparsers) -> None:
    parser = subparsers.add_parser("extract", help="extract clinical slots (demographics, conditions, drugs, vitals...) from TEXT")
    parser.add_argument("--json", action="store_true", help="print one JSON object on one line")
    parser.add_argument("text", nargs="+", help="the text; '-' reads it from standard input")
    parser.set_defaults(func=run)


def read_text(words: list[str]) -> str:
    text = sys.stdin.read() if words == ["-"] else " ".join(words)
    if not text.strip():
        raise InputError("no text given")
    return text


def run(args) -> int:
    from engine.clinical import extract

    slots = extract(read_text(args.text))
    print(json.dumps(slots, ensure_ascii=False, indent=None if args.json else 2))
    return 0
