"""`chartside chat [--json] --script FILE [--flags name=value,...] [--mode agent|llm]`.

Runs the lines of FILE (one user message per line; blank lines and lines starting with
'#' are skipped) as one conversation against a fresh patient in the encrypted store, and
prints one JSON object per turn (the `Done` result of the facade). The store lives under
`CHARTSIDE_HOME`; when that is unset, a temporary folder holds a throw-away store
(removed afterwards) while settings, models and the knowledge base come from the usual
data folder. `CHARTSIDE_PASSPHRASE` unlocks or creates the store without a prompt.
The services load (with progress on stderr) before the first turn.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import sys
import tempfile
from datetime import datetime
from pathlib import Path

from engine.agent.runtime_env import passive_openmp_waits

from engine.errors import InputError


def register(subparsers) -> None:
    parser = subparsers.add_parser("chat", help="run a scripted conversation (one message per line)")
    parser.add_argument("--script", type=Path, required=True, help="text file, one user message per line")
    parser.add_argument("--json", action="store_true", help="print one JSON object per turn")
    parser.add_argument("--flags", default="", help="feature flags, e.g. self_refine=false,response_cache=false")
    parser.add_argument("--mode", choices=["agent", "llm"], default=None)
    parser.set_defaults(func=run)


def read_script(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc}", user_message=f"Cannot read the script file {path}.") from exc
    messages = [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not messages:
        raise InputError(f"{path} has no messages", user_message="The script file has no messages.")
    return messages


def run(args) -> int:
    passive_openmp_waits()
    from engine.cli.vault import read_passphrase
    from engine.facade import Engine
    from engine.settings import load_settings, parse_flags

    messages = read_script(args.script)
    settings = load_settings()
    if args.flags:
        settings = settings.with_flags(parse_flags(args.flags))
    scratch = None if os.environ.get("CHARTSIDE_HOME") else Path(tempfile.mkdtemp(prefix="chartside-chat-"))
    vault_path = scratch / "vault.db" if scratch else None
    engine = Engine(settings, vault_path=vault_path)
    try:
        passphrase = os.environ.get("CHARTSIDE_PASSPHRASE") or (secrets.token_urlsafe(24) if scratch else None)
        if passphrase is None:
            passphrase = read_passphrase()
        engine.patients.unlock(passphrase, create=not engine.patients.vault_exists())
        warmed = engine.warm_up(progress=_print_warm_up_step)
        print(f"ready in {sum(warmed['seconds'].values()):.1f} s", file=sys.stderr, flush=True)
        for note in warmed["notes"]:
            print(f"note: {note}", file=sys.stderr, flush=True)
        patient = engine.patients.create_patient(f"chat script {datetime.now():%Y-%m-%d %H:%M:%S}")
        session = engine.patients.new_session(patient["id"])
        for text in messages:
            result = _turn(engine, text, patient["id"], session["id"], args.mode, stream=not args.json)
            if args.json:
                print(json.dumps(result, ensure_ascii=False), flush=True)
    finally:
        engine.close()
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    return 0


def _print_warm_up_step(done: int, total: int, step: str) -> None:
    """Loading runs before the first turn, so that turn's timings are its own."""
    if step != "ready":
        print(f"loading {step} ({done + 1}/{total})", file=sys.stderr, flush=True)


def _turn(engine, text: str, patient_id: int, session_id: int, mode: str | None, *, stream: bool) -> dict:
    from engine.cli.ask import LiveAnswer
    from engine.events import Alerts, AnswerReplaced, Done, Token

    result: dict = {}
    shown = LiveAnswer(sys.stdout)
    if stream:
        print(f"\n> {text}", flush=True)
    for event in engine.ask(text, patient_id=patient_id, session_id=session_id, mode=mode):
        if isinstance(event, Done):
            result = event.result
        elif stream and isinstance(event, Alerts):
            for alert in event.alerts:
                print(f"[{alert.get('kind', 'alert')}] {alert.get('message', '')}", flush=True)
        elif stream and isinstance(event, Token):
            shown.append(event.text)
        elif stream and isinstance(event, AnswerReplaced):
            shown.replace(event.text)
    if stream:
        shown.finish(str(result.get("answer") or ""))
    return result
