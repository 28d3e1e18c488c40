"""`chartside ask [--mode agent|llm] [--json] TEXT`: one turn, streamed to stdout.

Only one answer is ever printed: on a terminal the draft streams as it is written and a
draft that a corrective round replaces is erased; into a pipe or file only the final
answer is written, once the turn is done. `--json` prints the final turn only.
"""

from __future__ import annotations

import json
import shutil
import sys
import unicodedata

from engine.events import Alerts, AnswerReplaced, Done, Token


def register(subparsers) -> None:
    parser = subparsers.add_parser("ask", help="ask one question (streams the answer)")
    parser.add_argument("text", nargs="+", help="the question")
    parser.add_argument("--mode", choices=["agent", "llm"], default=None, help="agent (default) or plain llm chat")
    parser.add_argument("--json", action="store_true", help="print one JSON object (chat turn format)")
    parser.set_defaults(func=run)


def display_rows(text: str, columns: int) -> int:
    """Terminal rows `text` occupies (a Hangul syllable is two columns wide)."""
    columns = max(1, columns)
    rows = 0
    for line in text.split("\n"):
        width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)
        rows += max(1, -(-width // columns))
    return rows


class LiveAnswer:
    """The answer as the user sees it: streamed to a terminal, or written once at the end."""

    def __init__(self, stream, live: bool | None = None):
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self.text = ""

    def append(self, piece: str) -> None:
        self.text += piece
        if self.live:
            self.stream.write(piece)
            self.stream.flush()

    def replace(self, text: str) -> None:
        if self.live:
            self._erase()
            self.stream.write(text)
            self.stream.flush()
        self.text = text

    def finish(self, final: str) -> None:
        if not self.live:
            self.stream.write(final)
        elif final != self.text:
            self.replace(final)
        self.text = final
        self.stream.write("\n")
        self.stream.flush()

    def _erase(self) -> None:
        if not self.text:
            return
        rows = display_rows(self.text, shutil.get_terminal_size().columns)
        self.stream.write("\r" + (f"\x1b[{rows - 1}A" if rows > 1 else "") + "\x1b[J")


def run(args) -> int:
    from engine.facade import Engine

    engine = Engine()
    text = " ".join(args.text)
    result: dict = {}
    shown = LiveAnswer(sys.stdout)
    try:
        for event in engine.ask(text, mode=args.mode):
            if args.json:
                if isinstance(event, Done):
                    result = event.result
                continue
            if isinstance(event, Alerts):
                for alert in event.alerts:
                    print(f"[{alert.get('kind', 'alert')}] {alert.get('message', '')}", flush=True)
            elif isinstance(event, Token):
                shown.append(event.text)
            elif isinstance(event, AnswerReplaced):
                shown.replace(event.text)
            elif isinstance(event, Done):
                result = event.result
    except KeyboardInterrupt:
        engine.cancel()
        print("\n[stopped]", file=sys.stderr)
        return 130
    finally:
        engine.close()
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        shown.finish(str(result.get("answer") or ""))
        if (result.get("trace") or {}).get("cancelled"):
            print("[stopped before the answer was finished]")
        for number, source in enumerate(result.get("sources") or [], 1):
            print(f"[{number}] {source.get('title', source.get('doc_id'))} — {source.get('url', '')}")
    return 0 if result.get("answer") else 1
