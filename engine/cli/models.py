"""`chartside models list|verify|add PATH --role ROLE`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine.errors import ChartsideError


def register(subparsers) -> None:
    parser = subparsers.add_parser("models", help="list, verify and add models")
    actions = parser.add_subparsers(dest="models_action", metavar="ACTION", required=True)

    listing = actions.add_parser("list", help="the models in the manifest and where they are")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(func=run_list)

    verifying = actions.add_parser("verify", help="check every model file against its sha256")
    verifying.set_defaults(func=run_verify)

    adding = actions.add_parser("add", help="add a GGUF model file a clinic copied in")
    adding.add_argument("path", type=Path)
    adding.add_argument("--role", action="append", dest="roles", default=[],
                        help="generate, classify, judge or summarise (repeatable; default: all four)")
    adding.add_argument("--name", default=None, help="manifest name (default: from the GGUF metadata)")
    adding.add_argument("--licence", default="unknown")
    adding.add_argument("--no-load-check", action="store_true", help="skip the test load")
    adding.add_argument("--use", action="store_true", help="also select it for its roles in settings")
    adding.set_defaults(func=run_add)


def run_list(args) -> int:
    from engine.models import load_manifest

    rows = []
    for entry in load_manifest():
        try:
            where, installed = str(entry.location()), entry.weights_file().exists()
        except ChartsideError:
            where, installed = "(package not installed)", False
        rows.append({**entry.to_dict(), "source": entry.source, "location": where, "installed": installed})
    if args.json:
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    for row in rows:
        mark = "installed" if row["installed"] else "MISSING"
        print(f"{row['name']:<32} {','.join(row['roles']):<36} {row['size'] / 1e6:8.1f} MB  {row['licence']:<12} {mark}")
        print(f"    {row['source']}")
    return 0


def run_verify(args) -> int:
    from engine.models import load_manifest, verify

    failures = 0
    for entry in load_manifest():
        try:
            verify(entry)
            print(f"ok    {entry.name}  sha256 {entry.sha256[:16]}…")
        except ChartsideError as exc:
            failures += 1
            print(f"FAIL  {entry.name}: {exc}")
    return 1 if failures else 0


def run_add(args) -> int:
    from engine.llm.gguf import add_gguf_model

    def progress(done: int, total: int, message: str) -> None:
        print(f"\r{message} {done * 100 // max(total, 1):3d}%", end="", file=sys.stderr, flush=True)

    entry = add_gguf_model(args.path, roles=args.roles or None, name=args.name, licence=args.licence,
                           load_check=not args.no_load_check, select=args.use, progress=progress)
    print(file=sys.stderr)
    print(f"added {entry.name}: roles {', '.join(entry.roles)}, context {entry.context_length}, "
          f"chat format {entry.chat_format or 'from GGUF template'}")
    return 0
