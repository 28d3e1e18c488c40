"""`chartside eval ablation [--json] [--conversations N] [--out DIR] [--llm-judge]`.

Runs the seed's cumulative ablation scenarios over the team's conversation set
(resources/eval/conversations.jsonl: 40 five-turn conversations, half Korean) against a
throw-away encrypted store, and writes a Markdown table, a JSON summary and PNG charts
to DIR (default: DATA_DIR/eval/ablation-TIMESTAMP). Prints the summary (JSON with --json).
"""

from __future__ import annotations

import json
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

from engine.agent.runtime_env import passive_openmp_waits


def register(subparsers) -> None:
    parser = subparsers.add_parser("eval", help="evaluations: ablation of the agent's features")
    kinds = parser.add_subparsers(dest="eval_kind", metavar="KIND", required=True)
    ablation = kinds.add_parser("ablation", help="run the ablation scenarios over the conversation set")
    ablation.add_argument("--json", action="store_true")
    ablation.add_argument("--conversations", type=int, default=None, help="use the first N (alternating en/ko)")
    ablation.add_argument("--scenarios", default="", help="comma-separated subset of scenario names")
    ablation.add_argument("--out", type=Path, default=None, help="report folder")
    ablation.add_argument("--llm-judge", action="store_true", help="also score every answer with the LLM judge")
    ablation.add_argument("--max-answer-tokens", type=int, default=None, help="cap answers (default: settings)")
    ablation.add_argument("--kb", choices=["auto", "default", "subset"], default="auto",
                          help="knowledge base: the default index, a topic subset of it, or default when built")
    ablation.add_argument("--kb-docs", type=int, default=600, help="documents in the topic subset")
    ablation.set_defaults(func=run_ablation)


def run_ablation(args) -> int:
    passive_openmp_waits()
    from engine.agent.ablation import compare, scenarios, write_report
    from engine.agent.evaluation import load_conversations, now_stamp, prepare_knowledge, run_conversations
    from engine.facade import Engine
    from engine.settings import data_dir, load_settings

    conversations = load_conversations(limit=args.conversations)
    base = load_settings()
    if args.max_answer_tokens:
        base = base.model_copy(update={"llm": base.llm.model_copy(update={"max_answer_tokens": args.max_answer_tokens})})
    wanted = {s.strip() for s in args.scenarios.split(",") if s.strip()}
    chosen = [(n, f) for n, f in scenarios() if not wanted or n in wanted]
    scratch = Path(tempfile.mkdtemp(prefix="chartside-eval-"))
    engine = Engine(base, vault_path=scratch / "vault.db")
    results: dict[str, list[dict]] = {}
    try:
        engine.unlock(secrets.token_urlsafe(24), create=True)
        knowledge = prepare_knowledge(engine, args.kb, args.kb_docs)
        for name, flags in chosen:
            settings = base.with_flags(flags) if flags else base
            engine.clear_response_cache()
            print(f"scenario {name}: {len(conversations)} conversations", file=sys.stderr, flush=True)
            records = run_conversations(engine, conversations, settings, use_llm_judge=args.llm_judge,
                                        progress=lambda done, total, cid: print(f"  {done}/{total} {cid}",
                                                                                file=sys.stderr, flush=True))
            results[name] = [r.as_dict() for r in records]
        summary = compare(results)
        folder = args.out or data_dir() / "eval" / f"ablation-{now_stamp()}"
        meta = {"model": engine.llm.info("generate").name, "conversations": len(conversations),
                "turns": sum(len(c["turns"]) for c in conversations),
                "knowledge_base": knowledge,
                "command": "chartside eval ablation" + (f" --conversations {args.conversations}" if args.conversations else "")
                + (f" --scenarios {args.scenarios}" if args.scenarios else "")
                + (f" --kb {args.kb}" if args.kb != "auto" else "")
                + (" --llm-judge" if args.llm_judge else "")
                + (f" --max-answer-tokens {args.max_answer_tokens}" if args.max_answer_tokens else ""),
                "service_notes": engine.service_notes}
        files = write_report(folder, summary, results, meta)
    finally:
        engine.close()
        shutil.rmtree(scratch, ignore_errors=True)
    output = {"meta": meta, "summary": summary, "files": files}
    if args.json:
        print(json.dumps(output, indent=2, ensure_ascii=False))
    else:
        print(Path(files["table"]).read_text(encoding="utf-8"))
        print(f"report: {folder}")
    return 0
