"""`chartside kb build|status|add|list|remove|search`: the local knowledge base.

    chartside kb build              build (or rebuild what is stale in) the default index
    chartside kb add PATH...        add or update txt/md/pdf files (folders are searched); files
                                    that look like patient data are refused unless
                                    --allow-patient-data (audited in the vault)
    chartside kb list [--json]      the clinic's own documents
    chartside kb remove ID|PATH...  remove clinic documents
    chartside kb search TEXT        hybrid search, for checking what the assistant will see
                                    (--json: {"query", "searched", "hits"}; "searched" is the
                                    English query looked up, e.g. "hypothyroidism symptoms")
    chartside kb status [--json]    manifest, sizes and what (if anything) is stale
    chartside kb export FILE        write the built index (with clinic documents) to a bundle
    chartside kb import FILE        replace this desktop's index by a bundle: verified first
                                    (sha256 manifest, embedding model), then atomic

Progress goes to stderr (done/total and ETA); Ctrl+C cancels: during `add`, documents
already finished are kept; during `build`, nothing partial is kept.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine.cli._subcommands import add_action, add_build_action, add_command_group
from engine.knowledge.store import print_progress as _progress


def register(subparsers) -> None:
    actions = add_command_group(subparsers, "kb", "the local knowledge base: build, add, list, remove, search")
    add_build_action(actions, "build", _build, "build the default index, or rebuild what is stale",
                     force_help="rebuild everything from the sources")
    add_action(actions, "status", _status, "index manifest, sizes, staleness").add_argument("--json", action="store_true")

    add = add_action(actions, "add", _add, "add or update txt/md/pdf files (only changed files are re-embedded)")
    add.add_argument("paths", nargs="+", type=Path)
    add.add_argument("--json", action="store_true")
    add.add_argument("--allow-patient-data", action="store_true",
                     help="add files even where patient data is found (needs the vault passphrase: the override "
                          "is written to the audit log)")

    listing = add_action(actions, "list", _list, "list the clinic's own documents")
    listing.add_argument("--all", action="store_true", help="count the default documents too")
    listing.add_argument("--json", action="store_true")

    add_action(actions, "remove", _remove, "remove clinic documents by id or path").add_argument("items", nargs="+")

    export = add_action(actions, "export", _export, "write the built index to a verified bundle for other desktops")
    export.add_argument("file", type=Path)
    export.add_argument("--json", action="store_true")
    imported = add_action(actions, "import", _import,
                          "replace this desktop's index by a bundle (verified before anything is replaced)")
    imported.add_argument("file", type=Path)
    imported.add_argument("--json", action="store_true")

    search = add_action(actions, "search", _search, "hybrid search of the knowledge base")
    search.add_argument("text")
    search.add_argument("--mode", default="hybrid", choices=["bm25", "dense", "hybrid"])
    search.add_argument("-k", type=int, default=5)
    search.add_argument("--json", action="store_true")
    search.add_argument("--no-translate", dest="translate", action="store_false",
                        help="search the text as written (no concept / question-type translation)")


def _open(build: bool = True, force: bool = False):
    from engine.knowledge import open_default

    return open_default(build=build, progress=_progress, force=force)


def _build(args) -> int:
    kb = _open(force=args.force)  # the old index stays usable until the new one is published
    m = kb.manifest
    print(f"knowledge base ready: {kb.size} chunks from {m.documents if m else '?'} documents "
          f"({m.embedding if m else ''}); build timings {m.timings_s if m else {}}")
    return 0


def _status(args) -> int:
    from engine.knowledge import IndexParams, KnowledgeBase, default_kb_dir, make_embedder
    from engine.knowledge.store import Manifest
    from engine.settings import load_settings

    settings = load_settings()
    folder = default_kb_dir()
    kb = KnowledgeBase(folder, make_embedder(settings, verify=False), IndexParams.from_settings(settings))
    manifest = Manifest.read(folder)
    stale = sorted(kb.stale_parts(manifest))
    info = {"folder": str(folder), "stale": stale, "manifest": manifest.__dict__ if manifest else None}
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print(f"folder: {folder}")
        if manifest is None:
            print("no index yet: `chartside kb build` builds it")
        else:
            print(f"documents: {manifest.documents} ({manifest.user_documents} added by the clinic), chunks: {manifest.rows}")
            print(f"embedding: {manifest.embedding}; tokenizer: {manifest.tokenizer}; dense index: {manifest.dense_index}")
            print(f"corpus: {manifest.corpus}; built {manifest.built_at}")
        print("stale: " + (", ".join(stale) if stale else "nothing"))
    return 0


def _add(args) -> int:
    from engine.errors import PatientDataFound
    from engine.cancel import CancelToken
    from engine.knowledge.patient_data import PLAIN_TEXT_NOTICE

    print(f"note: {PLAIN_TEXT_NOTICE}", file=sys.stderr)
    kb = _open()
    token = CancelToken()
    try:
        result = kb.add_files(args.paths, progress=_progress, cancelled=token,
                              allow_patient_data=args.allow_patient_data, on_patient_data=_audit_override)
    except KeyboardInterrupt:
        token.cancel()
        raise
    except PatientDataFound as exc:
        _print_findings(exc.findings)
        raise
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"added {result['added']}, updated {result['updated']}, unchanged {result['unchanged']} "
              f"({result['chunks_embedded']} chunks embedded)")
        for error in result["errors"]:
            print(f"  skipped: {error}", file=sys.stderr)
    return 1 if result["errors"] and not (result["added"] or result["updated"] or result["unchanged"]) else 0


def _print_findings(findings: dict) -> None:
    """The refused files and their lines, masked (digits as #, names cut to a letter)."""
    for path, found in findings.items():
        print(f"{path}: looks like patient data on {len({f.line for f in found})} line(s):", file=sys.stderr)
        for finding in found:
            print(f"  {finding}", file=sys.stderr)


def _audit_override(summary: dict) -> None:
    """Write the override to the vault's audit log before anything is added (no vault, no override)."""
    from engine.cli.vault import read_passphrase
    from engine.errors import InputError
    from engine.knowledge.patient_data import audit_override
    from engine.memory.store import Vault
    from engine.settings import default_vault_path

    path = default_vault_path()
    if not path.exists():
        raise InputError("no vault for the override's audit row",
                         user_message="Adding patient data is recorded in the vault's audit log: create the vault "
                                      "first (`chartside vault init`). Nothing was added.")
    with Vault.open(path, read_passphrase()) as vault:
        audit_override(vault, summary)
    print(f"patient-data override for {len(summary)} file(s) written to the audit log", file=sys.stderr)


def _list(args) -> int:
    kb = _open()
    docs = kb.list_documents(origin=None if args.all and args.json else "user")
    if args.json:
        print(json.dumps(docs, indent=2))
        return 0
    for doc in docs:
        print(f"{doc['doc_id']}  {doc['chunks']:>3} chunks  {doc['title']}  ({doc['path']})")
    counts = kb.document_count()
    print(f"{counts.get('user', 0)} clinic documents; {counts.get('default', 0)} default documents (MedQuAD, CC BY 4.0)")
    return 0


def _remove(args) -> int:
    kb = _open()
    removed = kb.remove(args.items)
    for doc_id in removed:
        print(f"removed {doc_id}")
    if not removed:
        print("nothing matched", file=sys.stderr)
        return 1
    return 0


def _export(args) -> int:
    from engine.knowledge.bundle import export_bundle

    result = export_bundle(_open(build=False), args.file, progress=_progress)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"exported {result['documents']} documents ({result['clinic_documents']} added by the clinic), "
          f"{result['chunks']} chunks, to {result['file']} ({result['bytes'] / 2**20:.1f} MiB) in {result['seconds']:.1f} s")
    if result["clinic_documents"]:
        print("note: the bundle holds the clinic's documents in plain text; copy it only to the clinic's desktops",
              file=sys.stderr)
    return 0


def _import(args) -> int:
    from engine.knowledge import IndexParams, default_kb_dir, make_embedder
    from engine.knowledge.bundle import import_bundle
    from engine.settings import load_settings

    settings = load_settings()
    result = import_bundle(args.file, default_kb_dir(), make_embedder(settings, verify=False),
                           IndexParams.from_settings(settings), progress=_progress)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"imported {result['documents']} documents ({result['clinic_documents']} added by the clinic), "
          f"{result['chunks']} chunks, exported {result['created_at']}, in {result['seconds']:.1f} s")
    return 0


def _search(args) -> int:
    from engine.bench.retrieval import default_expander, default_translator
    from engine.knowledge import HybridRetriever
    from engine.settings import load_settings

    kb = _open()
    translator = default_translator() if args.translate else None
    retriever = HybridRetriever.from_settings(kb, load_settings(), default_expander(), translator)
    plan = retriever.plan(args.text)
    searched = plan.english if plan is not None else args.text
    hits = retriever.search(args.text, k=args.k, mode=args.mode)
    if args.json:
        print(json.dumps({"query": args.text, "searched": searched, "hits": [h.search_hit() for h in hits]},
                         indent=2, ensure_ascii=False))
        return 0
    print(f"searched: {searched}")
    for i, hit in enumerate(hits, start=1):
        print(f"{i}. [{hit.doc_id}] {hit.title}  (score {hit.score:.4f}, ranks {hit.ranks})")
        print(f"   {hit.text[:200].replace(chr(10), ' ')}...")
        print(f"   {hit.url}  — {hit.licence}")
    return 0
