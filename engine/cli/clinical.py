"""`chartside clinical build-pack | status`: the MedCAT concept pack behind `extract`."""

from __future__ import annotations

import json

from engine.cli._subcommands import add_action, add_build_action, add_command_group


def register(subparsers) -> None:
    actions = add_command_group(subparsers, "clinical", "build or inspect the clinical concept pack (MedCAT)", metavar="COMMAND")
    add_build_action(actions, "build-pack", run_build, "build the pack from ../shared/data/concepts.tsv and resources/clinical",
                     force_help="rebuild even when the pack is up to date")
    add_action(actions, "status", run_status, "print the pack's manifest and whether it is up to date")


def run_build(args) -> int:
    from engine.clinical.pack import build_pack, is_current, pack_dir, read_manifest
    from engine.clinical.slots import reset_loaded_pack

    if not args.force and is_current():
        print(json.dumps({"built": False, "reason": "up to date", "path": str(pack_dir()), **(read_manifest() or {})}))
        return 0
    manifest = build_pack()
    reset_loaded_pack()
    print(json.dumps({"built": True, "path": str(pack_dir()), **manifest}))
    return 0


def run_status(args) -> int:
    from engine.clinical.lexicon import korean_term_count
    from engine.clinical.pack import concepts_path, inputs_hash, pack_dir, read_manifest

    manifest = read_manifest()
    current = None
    if manifest is not None and concepts_path().exists():
        current = manifest.get("inputs_sha256") == inputs_hash()
    print(json.dumps({"path": str(pack_dir()), "present": manifest is not None, "up_to_date": current,
                      "korean_names_in_lexicon": korean_term_count(), "manifest": manifest}, ensure_ascii=False))
    return 0
