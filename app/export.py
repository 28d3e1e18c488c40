"""Export a conversation or a patient record (Markdown, PDF, JSON) to a file the user picks.

The file is written by the engine at the user's explicit request; nothing is exported
automatically, and the engine records each export in the audit log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from app.folders import remember, start_folder

from app.workers import EngineRunner

CONVERSATION_FORMATS = {"md": "Markdown (*.md)", "pdf": "PDF (*.pdf)"}
PATIENT_FORMATS = {"pdf": "PDF (*.pdf)", "md": "Markdown (*.md)", "json": "JSON (*.json)"}


def format_for(path: str, selected_filter: str, formats: dict[str, str]) -> tuple[str, str]:
    """The format from the file suffix, else from the chosen filter; the path gets the suffix."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix in formats:
        return path, suffix
    fmt = next((f for f, label in formats.items() if label == selected_filter), next(iter(formats)))
    return f"{path}.{fmt}", fmt


def _ask_path(parent: QWidget, title: str, suggested: str, formats: dict[str, str]) -> tuple[str, str] | None:
    path, chosen = QFileDialog.getSaveFileName(parent, title, str(start_folder() / suggested),
                                               ";;".join(formats.values()))
    if not path:
        return None
    remember(path)
    return format_for(path, chosen, formats)


def _export(parent: QWidget, runner: EngineRunner, method, target: object, title: str, suggested: str,
            formats: dict[str, str], default_fmt: str, path: str | None, fmt: str | None,
            done: Callable[[str], None] | None) -> None:
    """Ask for a file when none is given, then run the engine export in a worker."""
    if path is None:
        picked = _ask_path(parent, title, suggested, formats)
        if picked is None:
            return
        path, fmt = picked
    runner.call(parent, method, target, path, fmt=fmt or default_fmt,
                on_result=lambda _r: done(path) if done else None)


def export_conversation(parent: QWidget, runner: EngineRunner, engine, session_id: object, *,
                        path: str | None = None, fmt: str | None = None,
                        done: Callable[[str], None] | None = None) -> None:
    _export(parent, runner, engine.patients.export_conversation, session_id,
            QCoreApplication.translate("Export", "Export conversation"), "conversation.md",
            CONVERSATION_FORMATS, "md", path, fmt, done)


def export_patient(parent: QWidget, runner: EngineRunner, engine, patient_id: object, *,
                   path: str | None = None, fmt: str | None = None,
                   done: Callable[[str], None] | None = None) -> None:
    _export(parent, runner, engine.patients.export_patient, patient_id,
            QCoreApplication.translate("Export", "Export patient record"), "patient.pdf",
            PATIENT_FORMATS, "json", path, fmt, done)
