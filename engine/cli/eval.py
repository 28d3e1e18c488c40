"""`chartside eval ablation [--json] [--conversations N] [--out DIR] [--llm-judge] [--resume | --report-only]`.

Runs the seed's cumulative ablation scenarios over the team's conversation set
(resources/eval/conversations.jsonl: 40 five-turn conversations, half Korean) against a
throw-away encrypted store, conversation by conversation (each under every scenario),
appending each finished conversation to DIR/checkpoint.jsonl (see
engine.bench.ablation_run). `--resume` skips the conversations the checkpoint already
holds; `--report-only` rebuilds the report from the checkpoint without running anything.
The report (Markdown table, JSON summary, PNG charts) goes to DIR (default:
DATA_DIR/eval/ablation-TIMESTAMP); the summary is printed (JSON with --json).
"""

from __future__ import annotations

import json
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

from engine.agent.runtime_env import passive_openmp_waits
from engine.errors import InputError


def register(subparsers) -> None:
    parser = subparsers.add_parser("eval", help="evaluations: ablation of the agent's features")
    kinds = parser.add_subparsers(dest="eval_kind", metavar="KIND", required=True)
    ablation = kinds.add_parser("ablation", help="run the ablation scenarios over the conversation set")
    ablation.add_argument("--json", action="store_true")
    ablation.add_argument("--conversations", type=int, default=None, help="use the first N (alternating en/ko)")
    ablation.add_argument("--scenarios", default="", help="comma-separated subset of scenario names")
    ablation.add_argument("--out", type=Path, default=None, help="report and checkpoint folder")
    ablation.add_argument("--llm-judge", action="store_true", help="also score every answer with the LLM judge")
    ablation.add_argument("--max-answer-tokens", type=int, default=None, help="cap answers (default: settings)")
    ablation.add_argument("--kb", choices=["auto", "default", "subset"], default="auto",
                          help="knowledge base: the default index, a topic subset of it, or default when built")
    ablation.add_argument("--kb-docs", type=int, default=600, help="documents in the topic subset")
    again = ablation.add_mutually_exclusive_group()
    again.add_argument("--resume", action="store_true",
                       help="continue the run whose checkpoint is in --out, skipping finished conversations")
    again.add_argument("--report-only", action="store_true",
                       help="rebuild the table and charts from the checkpoint in --out; run nothing")
    ablation.set_defaults(func=run_ablation)


def command_line(args) -> str:
    """The command that reproduces this run (the flags that change what is measured, and --out)."""
    parts = ["chartside eval ablation"]
    if args.json:
        parts.append("--json")
    if args.llm_judge:
        parts.append("--llm-judge")
    if args.max_answer_tokens:
        parts.append(f"--max-answer-tokens {args.max_answer_tokens}")
    if args.conversations:
        parts.append(f"--conversations {args.conversations}")
    if args.scenarios:
        parts.append(f"--scenarios {args.scenarios}")
    if args.kb != "auto":
        parts.append(f"--kb {args.kb}")
    if args.kb == "subset" or args.kb_docs != 600:
        parts.append(f"--kb-docs {args.kb_docs}")
    if args.out:
        parts.append(f"--out {args.out}")
    if args.resume:
        parts.append("--resume")
    return " ".join(parts)


def run_ablation(args, engine=None) -> int:
    """`engine`: an unlocked Engine to use instead of a fresh real one (tests)."""
    from engine.bench.ablation_run import Checkpoint

    if (args.resume or args.report_only) and args.out is None:
        raise InputError("--resume/--report-only without --out",
                         user_message="--resume and --report-only need the run's folder: pass --out DIR.")
    if args.report_only:
        return _report(args, Checkpoint(args.out), args.out)
    from engine.bench.evaluation import now_stamp
    from engine.settings import data_dir

    folder = args.out or data_dir() / "eval" / f"ablation-{now_stamp()}"
    checkpoint = Checkpoint(folder)
    if checkpoint.exists() and not args.resume:
        raise InputError("checkpoint exists", user_message=f"{checkpoint.path} exists: pass --resume to continue "
                                                           "that run, or choose another --out folder.")
    _run(args, checkpoint, engine)
    return _report(args, checkpoint, folder)


def _run(args, checkpoint, engine=None) -> None:
    passive_openmp_waits()
    from engine.bench.ablation import scenarios
    from engine.bench.ablation_run import run_pending
    from engine.bench.evaluation import ReferenceGrader, load_conversations, prepare_knowledge
    from engine.settings import LLMSettings, load_settings

    conversations = load_conversations(limit=args.conversations)
    base = engine.settings if engine is not None else load_settings()
    if args.max_answer_tokens:
        base = base.model_copy(update={"llm": base.llm.model_copy(update={"max_answer_tokens": args.max_answer_tokens})})
    wanted = {s.strip() for s in args.scenarios.split(",") if s.strip()}
    chosen = [(n, f) for n, f in scenarios() if not wanted or n in wanted]
    scratch = None
    if engine is None:
        from engine.facade import Engine

        scratch = Path(tempfile.mkdtemp(prefix="chartside-eval-"))
        engine = Engine(base, vault_path=scratch / "vault.db")
    try:
        if scratch is not None:
            engine.patients.unlock(secrets.token_urlsafe(24), create=True)
            knowledge = prepare_knowledge(engine, args.kb, args.kb_docs)
        else:
            knowledge = "as given to the engine"
        model = engine.llm.info("generate").name
        defaults = LLMSettings()
        checkpoint.begin({
            "scenarios": [name for name, _ in chosen], "llm_judge": args.llm_judge,
            "max_answer_tokens": args.max_answer_tokens, "knowledge_choice": args.kb, "model": model,
            "default_model": model == defaults.generate_model and base.llm.judge_model == defaults.judge_model,
            "real_run": scratch is not None, "knowledge_base": knowledge,
            "planned_conversations": len(conversations), "command": command_line(args),
            "service_notes": engine.service_notes, "reference_graded": True,
        })
        print(f"{len(chosen)} scenarios x {len(conversations)} conversations; model {model}; {knowledge}",
              file=sys.stderr, flush=True)
        run_pending(engine, conversations, chosen, base, checkpoint, use_llm_judge=args.llm_judge,
                    grader=ReferenceGrader(engine))
    finally:
        if scratch is not None:
            engine.close()
            shutil.rmtree(scratch, ignore_errors=True)


def _report(args, checkpoint, folder: Path) -> int:
    from engine.bench.ablation import compare, write_report

    starts = checkpoint.starts()
    finished = checkpoint.finished()
    if not starts or not finished:
        raise InputError(f"no finished conversation in {checkpoint.path}",
                         user_message=f"{checkpoint.path} holds no finished conversation yet; nothing to report.")
    first, last = starts[0], starts[-1]
    results = checkpoint.results()
    summary = compare(results)
    meta = {
        "model": first["model"], "default_model": first.get("default_model"),
        "real_run": all(s.get("real_run") for s in starts),
        "conversations": len(finished), "planned_conversations": last.get("planned_conversations"),
        "languages": {lang: sum(1 for f in finished.values() if f["language"] == lang)
                      for lang in sorted({f["language"] for f in finished.values()})},
        "turns": len(next(iter(results.values()), [])), "llm_judge": first.get("llm_judge"),
        "llm_judge_conversations": checkpoint.judged_conversations(),
        "max_answer_tokens": first.get("max_answer_tokens"), "knowledge_base": first.get("knowledge_base"),
        "command": first["command"], "resumed": len(starts) - 1,
        "resumed_with": sorted({s["command"] for s in starts[1:] if s.get("command") != first["command"]}),
        "report_command": f"chartside eval ablation --report-only --out {folder}" if args.report_only else None,
        "checkpoint": str(checkpoint.path), "service_notes": last.get("service_notes", []),
    }
    graded = sum(1 for line in finished.values()
                 if any("nugget_recall" in row for rows in line["results"].values() for row in rows))
    meta["graded_conversations"] = graded or None
    files = write_report(Path(folder), summary, results, meta)
    if args.json:
        print(json.dumps({"meta": meta, "summary": summary, "files": files}, indent=2, ensure_ascii=False))
    else:
        print(Path(files["table"]).read_text(encoding="utf-8"))
        print(f"report: {folder}")
    return 0
