"""Conversation export (Markdown, or PDF rendered from the same text) to a file the user chose.

PDF pages are drawn with matplotlib (already a dependency for the ablation charts): plain
text, wrapped, A4. Hangul needs a font with Korean glyphs: a font shipped in
resources/fonts, else an installed Noto CJK / Nanum font; without one, Korean characters
are replaced by matplotlib's missing-glyph box and the Markdown export should be used.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from engine.errors import InputError
from engine.paths import resources_dir

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
        lines += [turn.get("answer", ""), ""]
        for source in turn.get("sources") or []:
            lines.append(f"- [{source.get('n', '')}] {source.get('title') or source.get('doc_id')} {source.get('url', '')}")
        lines.append("")
    lines.append("Answers are information for clinicians, not a diagnosis.")
    return "\n".join(lines) + "\n"


def write_document(markdown: str, path: Path, fmt: str) -> Path:
    path = Path(path)
    if fmt in ("md", "markdown"):
        _atomic_write(path, markdown.encode("utf-8"))
        return path
    if fmt != "pdf":
        raise InputError(f"unknown export format {fmt!r}", user_message="Export format must be Markdown or PDF.")
    _write_pdf(markdown, path)
    return path


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _hangul_font() -> str | None:
    from matplotlib import font_manager

    shipped = sorted((resources_dir() / "fonts").glob("*.[ot]tf")) if (resources_dir() / "fonts").exists() else []
    if shipped:
        font_manager.fontManager.addfont(str(shipped[0]))
        return font_manager.FontProperties(fname=str(shipped[0])).get_name()
    for font in font_manager.fontManager.ttflist:
        if any(key in font.name for key in ("Noto Sans CJK", "Noto Sans KR", "NanumGothic", "Malgun", "AppleGothic")):
            return font.name
    return None


def _write_pdf(markdown: str, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    family = _hangul_font() or "DejaVu Sans"
    lines: list[str] = []
    for raw in markdown.splitlines():
        lines += textwrap.wrap(raw, WRAP) or [""]
    tmp = path.with_name(path.name + ".part")
    with PdfPages(tmp) as pdf:
        for start in range(0, max(1, len(lines)), LINES_PER_PAGE):
            figure = plt.figure(figsize=(8.27, 11.69))
            for row, line in enumerate(lines[start:start + LINES_PER_PAGE]):
                figure.text(0.06, 0.96 - row * 0.0162, line, family=family, fontsize=8.5, va="top")
            pdf.savefig(figure)
            plt.close(figure)
    os.replace(tmp, path)
