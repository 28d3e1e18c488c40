"""The `chartside` command.

Each module in this package that defines `register(subparsers)` adds one subcommand, so
features add commands without editing a central list. A registered command sets
`func(args) -> int` on its parser.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Callable

import engine  # noqa: F401  (offline switches first)
from engine.errors import ChartsideError

COMMAND_MODULES_PACKAGE = "engine.cli"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="chartside",
        description="Offline medical-knowledge assistant. Without a command, opens the app.",
    )
    parser.add_argument("--screenshot", metavar="FILE.png", help="save a screenshot of the main window offscreen and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    package = importlib.import_module(COMMAND_MODULES_PACKAGE)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{COMMAND_MODULES_PACKAGE}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: list[str] | None = None, *, open_app: Callable[[str | None], int] | None = None) -> int:
    """Run a subcommand; with none, call `open_app(screenshot)` (supplied by the GUI package,
    which the engine never imports)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            if open_app is None:
                parser.print_help()
                return 2
            return int(open_app(args.screenshot) or 0)
        return int(args.func(args) or 0)
    except ChartsideError as exc:
        print(f"chartside: {exc.user_message}", file=sys.stderr)
        detail = str(exc)
        if detail and detail != exc.user_message:
            print(f"  detail: {detail}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nchartside: stopped.", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
