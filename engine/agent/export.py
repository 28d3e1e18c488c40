"""Conversation export (Markdown, or PDF rendered from the same text) to a file the user chose.

PDF pages are drawn with matplotlib (already a dependency for the ablation charts): plain
text, wrapped by display width (a Hangul syllable takes two columns), A4. Hangul is drawn
with the CJK font that `engine.fonts` finds (a bundled font, else the `noto-cjk-sans-otc`
package); only without either would Korean characters become missing-glyph boxes.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

from engine.errors import InputError
from engine.fonts import cjk_font_files, korean_family
from engine.memory.export import STOPPED_LABEL, write_owner_only

LINES_PER_PAGE = 58
WRAP = 95


def conversation_markdown(patient_name: str, session: dict, turns: list[dict]) -> str:
    lines = [f"# Conversation — {patient_name}", "", f"Started: {session.get('created_at', '')}", ""]
    for number, turn in enumerate(turns, 1):
        lines += [f"## Turn {number}", "", f"**Question:** {turn['user']}", ""]
        for alert in turn.get("alerts") or []:
            lines.append(f"> **{alert.get('kind', 'alert')}:** {alert.get('message', '')}")
        if turn.get("alerts"):
            lines.append("")
        if (turn.get("trace") or {}).get("cancelled"):
            lines.append(STOPPED_LABEL)
        lines += [turn.get("answer", ""), ""]
        for source in turn.get("sources") or []:
            lines.append(f"- [{source.get('n', '')}] {source.get('title') or source.get('doc_id')} {source.get('url', '')}")
        lines.append("")
    lines.append("Answers are information for clinicians, not a diagnosis.")
    return "\n".join(lines) + "\n"


def write_document(markdown: str, path: Path, fmt: str) -> Path:
    """Write `markdown` as Markdown or PDF. The file holds patient data: it is created
    owner-only (0600) beside its final name and renamed into place, like the vault's export."""
    path = Path(path)
    if fmt in ("md", "markdown"):
        write_owner_only(path, lambda handle: handle.write(markdown.encode("utf-8")))
        return path
    if fmt != "pdf":
        raise InputError(f"unknown export format {fmt!r}", user_message="Export format must be Markdown or PDF.")
    write_owner_only(path, lambda handle: _write_pdf(markdown, handle))
    return path


@lru_cache(maxsize=1)
def _hangul_font() -> str | None:
    """Register the CJK font files with matplotlib (once) and name the Korean family."""
    from matplotlib import font_manager

    for path in cjk_font_files():
        known = {font.fname for font in font_manager.fontManager.ttflist}
        if str(path) not in known:
            font_manager.fontManager.addfont(str(path))
        family = korean_family(font.name for font in font_manager.fontManager.ttflist if font.fname == str(path))
        if family:
            return family
    return korean_family(font.name for font in font_manager.fontManager.ttflist)


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def wrap_columns(line: str, width: int = WRAP) -> list[str]:
    """Wrap at spaces so that no line is wider than `width` columns; split longer words."""
    rows: list[str] = []
    current = ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current else word
        if _columns(candidate) <= width:
            current = candidate
            continue
        if current:
            rows.append(current)
        current = word
        while _columns(current) > width:
            cut = 1
            while _columns(current[:cut + 1]) <= width:
                cut += 1
            rows.append(current[:cut])
            current = current[cut:]
    rows.append(current)
    return rows


def _write_pdf(markdown: str, handle: BinaryIO) -> None:
    """Pages drawn on plain `Figure`s (no pyplot state: this runs in the GUI's worker threads)."""
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure

    family = _hangul_font() or "DejaVu Sans"
    lines: list[str] = []
    for raw in markdown.splitlines():
        lines += wrap_columns(raw.rstrip())
    with PdfPages(handle) as pdf:
        for start in range(0, max(1, len(lines)), LINES_PER_PAGE):
            figure = Figure(figsize=(8.27, 11.69))
            for row, line in enumerate(lines[start:start + LINES_PER_PAGE]):
                figure.text(0.06, 0.96 - row * 0.0162, line, family=family, fontsize=8.5, va="top")
            pdf.savefig(figure)
