"""`chartside remote ...`: the clinic model server that may answer some LLM roles.

- `remote check [--json]`: reach the server configured in settings.toml once (`GET
  /v1/models`) with its TLS pin or CA and the token from the vault; say what it offers.
- `remote token set` / `remote token clear`: keep the server's bearer token in the vault
  (the token is read from `CHARTSIDE_REMOTE_TOKEN` or typed; the vault passphrase as for
  `chartside vault`).
- `remote pin CERT.pem`: the sha256 pin of the server certificate, for `tls_pin_sha256`.
"""

from __future__ import annotations

import getpass
import json
import os
import sys
from pathlib import Path

from engine.cli._subcommands import add_action, add_command_group
from engine.errors import InputError

TOKEN_ENV = "CHARTSIDE_REMOTE_TOKEN"


def register(subparsers) -> None:
    actions = add_command_group(subparsers, "remote", "the clinic model server (OpenAI-compatible), off by default")
    check = add_action(actions, "check", _check, "reach the configured server once and list its models")
    check.add_argument("--json", action="store_true")
    token = add_action(actions, "token", _token, "keep or remove the server's bearer token in the vault")
    token.add_argument("action", choices=["set", "clear"])
    pin = add_action(actions, "pin", _pin, "print the sha256 pin of a server certificate (PEM)")
    pin.add_argument("certificate", type=Path)


def _unlocked_engine():
    from engine.cli.vault import read_passphrase
    from engine.facade import Engine

    engine = Engine()
    if engine.patients.vault_exists():
        engine.patients.unlock(read_passphrase())
    return engine


def _check(args) -> int:
    engine = _unlocked_engine()
    try:
        if not engine.settings.remote.enabled:
            result = {"ok": False, "message": "No model server is configured ([remote] enabled = false)."}
        else:
            result = engine.models.check_remote()
    finally:
        engine.close()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    elif result["ok"]:
        offered = "offers" if result["model_offered"] else "does NOT offer"
        print(f"{result['host']}: reachable in {result['ms']} ms; models {', '.join(result['models'])}; "
              f"{offered} {engine.settings.remote.model}")
    else:
        print(result["message"], file=sys.stderr)
    return 0 if result["ok"] else 1


def _token(args) -> int:
    token = ""
    if args.action == "set":
        token = os.environ.get(TOKEN_ENV) or (getpass.getpass("Model server token: ") if sys.stdin.isatty() else "")
        if not token.strip():
            raise InputError("no token", user_message=f"Set {TOKEN_ENV} or type the token.")
    engine = _unlocked_engine()
    try:
        engine.models.set_remote_token(token)
    finally:
        engine.close()
    print("token kept in the vault" if token else "token removed from the vault")
    return 0


def _pin(args) -> int:
    from engine.llm.tls import pem_certificate_sha256

    try:
        print(pem_certificate_sha256(args.certificate.read_text(encoding="ascii")))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise InputError(str(exc), user_message="That file is not a PEM certificate.") from exc
    return 0
