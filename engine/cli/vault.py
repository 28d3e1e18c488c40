"""`chartside vault ...`: create, check, rekey the encrypted store; list, export and delete
patients; print the audit log.

The passphrase comes from `CHARTSIDE_PASSPHRASE` when set (scripts and tests), else from
a hidden prompt; `rekey` reads the new one from `CHARTSIDE_NEW_PASSPHRASE` or prompts
twice. `--vault PATH` overrides the default `data_dir()/vault.db`.
"""

from __future__ import annotations

import getpass
import json
import os
import sys
from pathlib import Path

from engine.errors import InputError

PASSPHRASE_ENV = "CHARTSIDE_PASSPHRASE"
NEW_PASSPHRASE_ENV = "CHARTSIDE_NEW_PASSPHRASE"


def register(subparsers) -> None:
    parser = subparsers.add_parser("vault", help="encrypted patient store: init, check, rekey, export, delete")
    parser.add_argument("--vault", type=Path, default=None, help="vault file (default: DATA_DIR/vault.db)")
    actions = parser.add_subparsers(dest="vault_action", metavar="ACTION", required=True)

    actions.add_parser("init", help="create the vault").set_defaults(func=_init)
    actions.add_parser("check", help="open, run cipher_integrity_check, show schema").set_defaults(func=_check)
    actions.add_parser("rekey", help="change the passphrase").set_defaults(func=_rekey)
    patients = actions.add_parser("patients", help="list patients")
    patients.add_argument("--json", action="store_true")
    patients.set_defaults(func=_patients)
    export = actions.add_parser("export", help="export one patient's record")
    export.add_argument("patient_id", type=int)
    export.add_argument("file", type=Path)
    export.add_argument("--format", choices=["json", "markdown"], default=None, help="default: from the file suffix")
    export.set_defaults(func=_export)
    audit = actions.add_parser("audit", help="print the audit log: time, event, patient id, ids and counts")
    audit.add_argument("--limit", type=int, default=None, metavar="N", help="only the N most recent rows")
    audit.set_defaults(func=_audit)
    delete = actions.add_parser("delete-patient", help="delete a patient and all their rows (then VACUUM)")
    delete.add_argument("patient_id", type=int)
    delete.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    delete.set_defaults(func=_delete)


def _path(args) -> Path:
    from engine.memory.store import default_vault_path

    return args.vault or default_vault_path()


def read_passphrase(prompt: str = "Vault passphrase: ", env: str = PASSPHRASE_ENV, confirm: bool = False) -> str:
    value = os.environ.get(env)
    if value:
        return value
    if not sys.stdin.isatty():
        raise InputError(f"no passphrase: set {env} or use a terminal", user_message=f"Set {env} or run interactively.")
    first = getpass.getpass(prompt)
    if confirm and getpass.getpass("Repeat: ") != first:
        raise InputError("passphrases differ", user_message="The two passphrases differ.")
    return first


def _open(args, create: bool = False):
    from engine.memory.store import Vault

    return Vault.open(_path(args), read_passphrase(confirm=create and not _path(args).exists()), create=create)


def _init(args) -> int:
    path = _path(args)
    existed = path.exists()
    with _open(args, create=True) as vault:
        state = "opened existing" if existed else "created"
        print(f"{state} vault {vault.path} ({len(vault.migrations())} migrations)")
    return 0


def _check(args) -> int:
    with _open(args) as vault:
        problems = vault.integrity_problems()
        print(f"vault {vault.path}: migrations {', '.join(vault.migrations())}")
        print(f"patients: {len(vault.list_patients())}; integrity: {'ok' if not problems else problems}")
        return 0 if not problems else 1


def _rekey(args) -> int:
    with _open(args) as vault:
        new = read_passphrase("New passphrase: ", NEW_PASSPHRASE_ENV, confirm=True)
        vault.rekey(new)
    print("passphrase changed")
    return 0


def _patients(args) -> int:
    with _open(args) as vault:
        rows = vault.list_patients()
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        for row in rows:
            print(f"{row['id']}\t{row['display_name']}\tupdated {row['updated_at']}")
    return 0


def _export(args) -> int:
    from engine.memory.export import export_patient

    fmt = args.format or ("markdown" if args.file.suffix.lower() in {".md", ".markdown"} else "json")
    with _open(args) as vault:
        path = export_patient(vault, args.patient_id, args.file, fmt)
    print(f"exported patient {args.patient_id} to {path} ({fmt})")
    return 0


def _audit(args) -> int:
    """One tab-separated line per row, oldest first. Rows hold ids, event names, formats and
    counts, never patient text; this command's own unlock is the last row (`vault.open`)."""
    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit {args.limit}", user_message="--limit must be at least 1.")
    with _open(args) as vault:
        rows = vault.audit_log(last=args.limit)
    print("time\tevent\tpatient\tdetail")
    for row in rows:
        patient = "-" if row["patient_id"] is None else str(row["patient_id"])
        detail = json.dumps(row["detail"], ensure_ascii=False, sort_keys=True) if row["detail"] else "-"
        print(f"{row['at']}\t{row['event']}\t{patient}\t{detail}")
    return 0


def _delete(args) -> int:
    with _open(args) as vault:
        vault.get_patient(args.patient_id)
        if not args.yes:
            if not sys.stdin.isatty():
                raise InputError("no --yes without a terminal", user_message="Add --yes to delete non-interactively.")
            if input(f"Delete patient {args.patient_id} and all their records? [y/N] ").strip().lower() != "y":
                print("not deleted")
                return 1
        counts = vault.delete_patient(args.patient_id)
    print(f"deleted patient {args.patient_id}: {sum(counts.values())} rows")
    return 0
