"""Every export to a file the user chose: one patient's record (JSON or Markdown) and one
conversation (Markdown), each also as PDF rendered from the same Markdown.

This is the one place PHI leaves the encrypted vault, and only on the user's explicit
request: the file is written owner-only (0600) next to its final name and renamed into
place, and the export is audited (format and size, never the path or content).
"""

from __future__ import annotations

import json
import os
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO, Callable

from engine.errors import InputError
from engine.fonts import cjk_font_files, korean_family
from engine.memory.store import Vault

FORMATS = {"json": "json", "md": "markdown", "markdown": "markdown"}
STOPPED_LABEL = "**Answer (stopped by the user before it was finished):**"


def patient_record(vault: Vault, patient_id: int) -> dict:
    """Everything stored for one patient, as plain data."""
    from engine.memory.hierarchy import HierarchicalMemory
    from engine.memory.profile import ProfileStore

    profile = ProfileStore(vault)
    patient = vault.get_patient(patient_id)
    memory = HierarchicalMemory(vault, profile=profile)
    sessions = []
    for session in vault.list_sessions(patient_id):
        sessions.append({**session, "turns": vault.list_turns(session_id=session["id"])})
    return {
        "format": "chartside-patient-export",
        "version": 1,
        "exported_at": vault.now_text(),
        "patient": patient,
        "profile": profile.profile(patient_id, include_retracted=True),
        "summary": {"en": profile.summary(patient_id, "en"), "ko": profile.summary(patient_id, "ko")},
        "memory_summaries": memory.summaries(patient_id=patient_id),
        "safety_events": vault.safety_events(patient_id),
        "sessions": sessions,
    }


def export_patient(vault: Vault, patient_id: int, path: Path, fmt: str = "json") -> Path:
    kind = FORMATS.get(fmt.lower())
    if kind is None:
        raise InputError(f"unknown export format {fmt!r}", user_message="Export format must be JSON or Markdown.")
    record = patient_record(vault, patient_id)
    text = json.dumps(record, ensure_ascii=False, indent=2) if kind == "json" else to_markdown(record)
    data = text.encode("utf-8")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_owner_only(path, lambda handle: handle.write(data))
    vault.audit("patient.export", patient_id, {"format": kind, "bytes": len(data)})
    return path


def write_owner_only(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """Write a file that holds patient data: created owner-only (0600) beside its final
    name, synced, then renamed into place; a failed write leaves nothing behind."""
    partial = path.with_name(path.name + ".part")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def to_markdown(record: dict) -> str:
    patient = record["patient"]
    lines = [
        f"# {patient['display_name']}",
        "",
        f"Patient id {patient['id']} · created {patient['created_at']} · exported {record['exported_at']}",
        "",
        "## Profile summary",
        "",
        record["summary"]["en"],
        "",
        "## Profile facts",
        "",
        "| slot | item | status | first seen | last seen | mentions |",
        "|---|---|---|---|---|---|",
    ]
    profile = record["profile"]
    for field, value in profile["demographics"].items():
        if value is not None:
            seen = profile["demographics_provenance"].get(field, {})
            lines.append(
                f"| demographics | {field}: {_cell(value)} | active | {seen.get('first_seen', '')} "
                f"| {seen.get('observed_at', '')} | {seen.get('mentions', '')} |"
            )
    for slot, entries in profile.items():
        if not isinstance(entries, list):
            continue
        for entry in entries:
            provenance = entry["provenance"]
            status = entry["status"] + (f" ({entry['status_reason']})" if entry.get("status_reason") else "")
            lines.append(
                f"| {slot} | {_cell(_item_text(slot, entry))} | {status} | {provenance['first_seen']} "
                f"| {provenance['observed_at']} | {provenance['mentions']} |"
            )
    if record.get("safety_events"):
        lines += ["", "## Safety events", "", "| when | alert | shown | stopped |", "|---|---|---|---|"]
        for event in record["safety_events"]:
            lines.append(f"| {event['created_at']} | {_cell(event.get('category') or event['kind'])}: "
                         f"{_cell(event.get('message') or '')} | {_cell(event.get('shown') or '')} "
                         f"| {'yes' if event.get('stopped') else 'no'} |")
    if record["memory_summaries"]:
        lines += ["", "## Conversation summaries", ""]
        for summary in record["memory_summaries"]:
            span = f"{summary['first_position']}-{summary['last_position']}"
            lines.append(f"- session {summary['session_id']}, turns {span}: {summary['summary']}")
    for session in record["sessions"]:
        lines += ["", f"## Session {session['id']}" + (f": {session['title']}" if session.get("title") else ""), ""]
        for turn in session["turns"]:
            lines += [f"### Turn {turn['position']} · {turn['created_at']}", "", f"**User:** {turn['user_text']}", ""]
            stopped = bool((turn.get("trace") or {}).get("cancelled"))
            if turn.get("answer") or stopped:
                label = STOPPED_LABEL if stopped else "**Answer:**"
                lines += [f"{label} {turn.get('answer') or ''}".rstrip(), ""]
            for alert in turn.get("alerts") or []:
                lines.append(f"- alert ({alert.get('kind', '')}): {alert.get('message', '')}")
            sources = [str(s.get("doc_id", "")) for s in turn.get("sources") or [] if isinstance(s, dict)]
            if sources:
                lines.append(f"- sources: {', '.join(sources)}")
    return "\n".join(lines).rstrip() + "\n"


def _item_text(slot: str, entry: dict) -> str:
    from engine.memory.summary import describe

    text = describe(entry, slot, "en")
    return ("no " + text) if entry.get("negated") else text


def _cell(value) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


# -- conversations and PDF ---------------------------------------------------------------
# PDF pages are drawn with matplotlib (already a dependency for the ablation charts): plain
# text, wrapped by display width (a Hangul syllable takes two columns), A4. Hangul is drawn
# with the CJK font that `engine.fonts` finds (a bundled font, else the `noto-cjk-sans-otc`
# package); only without either would Korean characters become missing-glyph boxes.
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
