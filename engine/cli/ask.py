"""`chartside ask [--mode agent|llm] [--json] TEXT`: one turn, streamed to stdout.

Only one answer is ever printed: on a terminal the draft streams as it is written and a
draft that a corrective round replaces is erased; into a pipe or file only the final
answer is written, once the turn is done. `--json` prints the final turn only.
Alerts are printed first, one `[kind] message` line each; the answer opens with the same
texts (an emergency's guidance, the conflict alerts), so they are not printed twice: a
message that only states an emergency prints its guidance once, as the alert line.
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


def source_lines(sources: list[dict], opening: int = 60) -> list[str]:
    """`[n] title — url`, one per source. MedQuAD splits some pages into several answers under
    one question, so two sources can share a title and URL; a repeat also shows how its passage
    opens, so that the reader can tell [1] from [2]."""
    lines, seen = [], set()
    for number, source in enumerate(sources, 1):
        title, url = source.get("title", source.get("doc_id")), source.get("url", "")
        line = f"[{number}] {title} — {url}"
        passage = " ".join(str(source.get("passage") or source.get("text") or "").split())
        if (title, url) in seen and passage:
            cut = passage if len(passage) <= opening else passage[:opening].rsplit(" ", 1)[0] + " …"
            line += f' (another passage of this page: "{cut}")'
        seen.add((title, url))
        lines.append(line)
    return lines


class LiveAnswer:
    """The answer as the user sees it: streamed to a terminal, or written once at the end."""

    def __init__(self, stream, live: bool | None = None):
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self.text = ""
        self.shown = ""
        self.printed: list[str] = []

    def already_printed(self, message: str) -> None:
        """`message` is on screen already (an alert line): the answer's copy of it at its
        start is not printed again."""
        if message.strip():
            self.printed.append(message.strip())

    def visible(self, text: str) -> str:
        """`text` without the leading blocks that repeat printed alert messages."""
        rest = text.lstrip()
        while True:
            head = next((m for m in self.printed if rest.startswith(m)), None)
            if head is None:
                return rest
            rest = rest[len(head):].lstrip()

    def append(self, piece: str) -> None:
        self.text += piece
        self._show(self.visible(self.text))

    def replace(self, text: str) -> None:
        self.text = text
        self._show(self.visible(text))

    def _show(self, visible: str) -> None:
        if self.live:
            if visible.startswith(self.shown):
                self.stream.write(visible[len(self.shown):])
            else:
                self._erase()
                self.stream.write(visible)
            self.stream.flush()
        self.shown = visible

    def finish(self, final: str) -> None:
        visible = self.visible(final)
        if not self.live:
            self.stream.write(visible)
        elif visible != self.shown:
            self._erase()
            self.stream.write(visible)
        self.text, self.shown = final, visible
        if visible:
            self.stream.write("\n")
        self.stream.flush()

    def _erase(self) -> None:
        if not self.shown:
            return
        rows = display_rows(self.shown, shutil.get_terminal_size().columns)
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
                    shown.already_printed(str(alert.get("message") or ""))
            elif isinstance(event, Token):
                shown.append(event.text)
            elif isinstance(event, AnswerReplaced):
                shown.replace(event.text)
            elif isinstance(event, Done):
                result = event.result
    except KeyboardInterrupt:
        engine.turns.cancel()
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
        for line in source_lines(result.get("sources") or []):
            print(line)
    return 0 if result.get("answer") else 1
