"""`chartside kb build|status|add|list|remove|search`: the local knowledge base.

    chartside kb build              build (or rebuild what is stale in) the default index
    chartside kb add PATH...        add or update txt/md/pdf files (folders are searched)
    chartside kb list [--json]      the clinic's own documents
    chartside kb remove ID|PATH...  remove clinic documents
    chartside kb search TEXT        hybrid search, for checking what the assistant will see
                                    (--json: {"query", "searched", "hits"}; "searched" is the
                                    English query looked up, e.g. "hypothyroidism symptoms")
    chartside kb status [--json]    manifest, sizes and what (if anything) is stale

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

    listing = add_action(actions, "list", _list, "list the clinic's own documents")
    listing.add_argument("--all", action="store_true", help="count the default documents too")
    listing.add_argument("--json", action="store_true")

    add_action(actions, "remove", _remove, "remove clinic documents by id or path").add_argument("items", nargs="+")

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
    from engine.knowledge import CancelToken

    kb = _open()
    token = CancelToken()
    try:
        result = kb.add_files(args.paths, progress=_progress, cancelled=token)
    except KeyboardInterrupt:
        token.cancel()
        raise
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"added {result['added']}, updated {result['updated']}, unchanged {result['unchanged']} "
              f"({result['chunks_embedded']} chunks embedded)")
        for error in result["errors"]:
            print(f"  skipped: {error}", file=sys.stderr)
    return 1 if result["errors"] and not (result["added"] or result["updated"] or result["unchanged"]) else 0


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
        print(json.dumps({"query": args.text, "searched": searched, "hits": [h.to_dict() for h in hits]},
                         indent=2, ensure_ascii=False))
        return 0
    print(f"searched: {searched}")
    for i, hit in enumerate(hits, start=1):
        print(f"{i}. [{hit.doc_id}] {hit.title}  (score {hit.score:.4f}, ranks {hit.ranks})")
        print(f"   {hit.text[:200].replace(chr(10), ' ')}...")
        print(f"   {hit.url}  — {hit.licence}")
    return 0
