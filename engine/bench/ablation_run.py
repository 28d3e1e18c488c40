"""Conversation-major, resumable ablation runs with a JSON Lines checkpoint.

Each conversation runs under every scenario before the next conversation starts, so
every finished conversation is paired across all scenarios (the paired t-tests need
that) and a run stopped at any point still gives a fair report over the conversations
it finished. Every (conversation, scenario) starts with an empty response cache and a
fresh patient: conversations are independent of each other and of the order they ran
in, so a resumed run measures the same thing as an uninterrupted one.

The checkpoint (`checkpoint.jsonl` in the report folder) is append-only: a `start` line
per (re)start with the run's parameters, then one `conversation` line per finished
conversation with every scenario's per-turn records. It holds only the synthetic
evaluation conversations of resources/eval/conversations.jsonl (written by the team:
no patient's data, no PHI) and metrics about the engine's answers to them (scores,
tokens, timings, alert kinds, reference-grading figures; no answer text). That is why it may be a plain file
outside the encrypted vault; never point an ablation run at real patient conversations.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Callable

from engine.errors import InputError

CHECKPOINT_NAME = "checkpoint.jsonl"
# A resumed run must measure the same thing as the run it continues. The LLM judge may be
# switched: it scores answers after the turn and changes nothing the scenarios measure, and
# each conversation line records whether it ran, so the report says over how many it is.
MUST_MATCH = ("scenarios", "max_answer_tokens", "knowledge_choice", "model", "reference_graded")


class Checkpoint:
    """The append-only checkpoint file of one ablation run."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / CHECKPOINT_NAME

    def exists(self) -> bool:
        return self.path.exists() and self.path.stat().st_size > 0

    def lines(self) -> list[dict]:
        """Every complete line; a line torn by a crash mid-write is ignored."""
        if not self.path.exists():
            return []
        records = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError:
                continue
        return records

    def starts(self) -> list[dict]:
        return [line for line in self.lines() if line.get("kind") == "start"]

    def finished(self) -> dict[str, dict]:
        """Finished conversations by id, in the order they finished (a repeat keeps the first)."""
        done: dict[str, dict] = {}
        for line in self.lines():
            if line.get("kind") == "conversation":
                done.setdefault(line["conversation"], line)
        return done

    def begin(self, params: dict) -> None:
        """Record a (re)start; refuses parameters that would make the runs incomparable."""
        starts = self.starts()
        if starts:
            first = starts[0]
            changed = [key for key in MUST_MATCH if first.get(key) != params.get(key)]
            if changed:
                raise InputError(
                    f"checkpoint {self.path} was made with other {', '.join(changed)}",
                    user_message="The checkpoint in this folder comes from a run with other settings "
                                 f"({', '.join(changed)}); resume with the same ones or use another --out folder.")
        self._append({"kind": "start", **params})

    def add(self, conversation: dict, results: dict[str, list[dict]], seconds: float, *, llm_judge: bool) -> None:
        self._append({"kind": "conversation", "conversation": conversation["id"],
                      "language": conversation["language"], "seconds": round(seconds, 1), "llm_judge": llm_judge,
                      "results": results})

    def judged_conversations(self) -> int:
        """Finished conversations whose answers the LLM judge scored (older lines: judged if any score is there)."""
        def judged(line: dict) -> bool:
            if "llm_judge" in line:
                return bool(line["llm_judge"])
            return any(row.get("judge_quality") is not None for rows in line["results"].values() for row in rows)

        return sum(judged(line) for line in self.finished().values())

    def results(self) -> dict[str, list[dict]]:
        """Scenario -> per-turn rows of every finished conversation, scenarios in run order."""
        names = (self.starts() or [{}])[0].get("scenarios") or []
        results: dict[str, list[dict]] = {name: [] for name in names}
        for line in self.finished().values():
            for name, rows in line["results"].items():
                results.setdefault(name, []).extend(rows)
        return results

    def _append(self, record: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._drop_torn_tail()
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def _drop_torn_tail(self) -> None:
        """Cut a last line without its newline (a crash mid-write), so the next line stays whole."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n"):
            with self.path.open("r+b") as handle:
                handle.truncate(data.rfind(b"\n") + 1)


class EtaReporter:
    """Progress lines on stderr: conversation i/N, its time and the estimated time left."""

    def __init__(self, total: int, already_done: int, *,
                 clock: Callable[[], float] = time.monotonic, stream=None):
        self.total, self.done = total, already_done
        self.seconds: list[float] = []
        self.clock = clock
        self.stream = stream or sys.stderr
        self.started = clock()

    def conversation_started(self, conversation_id: str) -> None:
        self.started = self.clock()
        self._print(f"conversation {self.done + 1}/{self.total} {conversation_id}")

    def scenario_finished(self, name: str, seconds: float) -> None:
        self._print(f"  {name}: {seconds:.0f} s")

    def conversation_finished(self, conversation_id: str) -> float:
        """The ETA follows this process's own pace: a resumed run may run on a quieter
        machine, or with other code, than the conversations before it."""
        seconds = self.clock() - self.started
        self.done += 1
        self.seconds.append(seconds)
        mean = sum(self.seconds) / len(self.seconds)
        left = max(0, self.total - self.done)
        self._print(f"conversation {self.done}/{self.total} {conversation_id} done in {seconds:.0f} s; "
                    f"ETA {format_duration(mean * left)} for {left} more ({mean:.0f} s each)")
        return seconds

    def _print(self, line: str) -> None:
        print(line, file=self.stream, flush=True)


def format_duration(seconds: float) -> str:
    minutes = int(round(seconds / 60))
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


def run_pending(engine, conversations: list[dict], chosen: list[tuple[str, dict]], base_settings,
                checkpoint: Checkpoint, *, use_llm_judge: bool = False, grader=None,
                clock: Callable[[], float] = time.monotonic, stream=None) -> int:
    """Run every conversation the checkpoint lacks under every chosen scenario; returns how many ran.
    `grader`: an evaluation.ReferenceGrader whose metrics join each question turn's record."""
    from engine.bench.evaluation import recording_knowledge, run_conversation

    done = checkpoint.finished()
    pending = [c for c in conversations if c["id"] not in done]
    progress = EtaReporter(len(conversations), len(conversations) - len(pending), clock=clock, stream=stream)
    with recording_knowledge(engine) as recorder:
        for conversation in pending:
            progress.conversation_started(conversation["id"])
            results: dict[str, list[dict]] = {}
            for name, flags in chosen:
                settings = base_settings.with_flags(flags) if flags else base_settings
                engine.turns.clear_response_cache()
                began = clock()
                records = run_conversation(engine, conversation, settings, recorder, use_llm_judge=use_llm_judge,
                                           grader=grader)
                results[name] = [record.as_dict() for record in records]
                progress.scenario_finished(name, clock() - began)
            seconds = progress.conversation_finished(conversation["id"])
            checkpoint.add(conversation, results, seconds, llm_judge=use_llm_judge)
    return len(pending)
