"""`chartside bench KIND`: each module in `engine.bench` with `register(subparsers)` adds a KIND."""

from __future__ import annotations

import importlib
import pkgutil


def register(subparsers) -> None:
    parser = subparsers.add_parser("bench", help="measure speed and quality (prints JSON with --json)")
    kinds = parser.add_subparsers(dest="bench_kind", metavar="KIND", required=True)
    package = importlib.import_module("engine.bench")
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"engine.bench.{info.name}")
        if hasattr(module, "register"):
            module.register(kinds)
