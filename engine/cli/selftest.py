"""`chartside selftest`: offline end-to-end check; the last line is `selftest ok` on success."""

from __future__ import annotations


def register(subparsers) -> None:
    parser = subparsers.add_parser("selftest", help="check models, indexes and store offline")
    parser.set_defaults(func=run)


def run(args) -> int:
    from engine.selftest import run_checks
    from engine.settings import load_settings

    failures = 0
    for name, ok, message, seconds in run_checks(load_settings()):
        print(f"{'ok  ' if ok else 'FAIL'} {name} ({seconds:.2f}s): {message}", flush=True)
        failures += not ok
    if failures:
        print(f"selftest failed: {failures} check(s)")
        return 1
    print("selftest ok")
    return 0
