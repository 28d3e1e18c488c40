"""The `chartside` console script: engine subcommands, or the desktop app when none is given.

It lives in the GUI package because the engine never imports Qt or `app`; the engine's CLI
receives the app launcher as a callback.
"""

from __future__ import annotations

import sys


def _open_app(screenshot: str | None) -> int:
    from app.main import run_app

    return run_app(screenshot=screenshot)


def main(argv: list[str] | None = None) -> int:
    from engine.cli import main as engine_main

    return engine_main(argv, open_app=_open_app)


if __name__ == "__main__":
    sys.exit(main())
