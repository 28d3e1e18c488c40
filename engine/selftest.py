"""`chartside selftest`: an offline end-to-end check of this installation or frozen build.

Each entry of `CHECKS` is "module:function"; the function takes the loaded Settings and
returns a one-line description of what it verified, or raises. Features add their own
check here (one line each).
"""

from __future__ import annotations

import importlib
import time
from typing import Callable, Iterator

from engine.settings import Settings

CHECKS: list[str] = [
    "engine.llm.selftest:check_models",
    "engine.llm.selftest:check_generation",
    "engine.memory.selftest:check_vault",
    "engine.clinical.selftest:check",
    "engine.knowledge.selftest:check_index",
    "engine.agent.selftest:check_agent_graph",
]


def run_checks(settings: Settings) -> Iterator[tuple[str, bool, str, float]]:
    """Yield (check name, ok, message, seconds) for every check, continuing past failures."""
    for ref in CHECKS:
        module_name, _, func_name = ref.partition(":")
        start = time.perf_counter()
        try:
            func: Callable[[Settings], str] = getattr(importlib.import_module(module_name), func_name)
            message, ok = func(settings), True
        except Exception as exc:  # a selftest reports every failure, whatever its type
            message, ok = f"{type(exc).__name__}: {exc}", False
        yield ref, ok, message, time.perf_counter() - start
