"""Shared argparse set-up for commands that group actions (`chartside kb build`, ...).

The leading underscore keeps this module out of the command discovery in `engine.cli`.
"""

from __future__ import annotations

import argparse
from typing import Callable


def add_command_group(subparsers, name: str, help: str, *, metavar: str = "ACTION") -> argparse._SubParsersAction:
    """Add `chartside NAME` with required actions; the chosen one is stored as `NAME_command`."""
    parser = subparsers.add_parser(name, help=help)
    return parser.add_subparsers(dest=f"{name}_command", metavar=metavar, required=True)


def add_action(actions, name: str, func: Callable, help: str) -> argparse.ArgumentParser:
    """Add one action that runs `func(args)`; returns its parser for further arguments."""
    action = actions.add_parser(name, help=help)
    action.set_defaults(func=func)
    return action


def add_build_action(actions, name: str, func: Callable, help: str, *, force_help: str) -> argparse.ArgumentParser:
    """Add a build action with a `--force` flag that rebuilds even what is up to date."""
    action = add_action(actions, name, func, help)
    action.add_argument("--force", action="store_true", help=force_help)
    return action
