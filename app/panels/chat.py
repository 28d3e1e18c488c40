"""The conversation: streamed answers with alerts above them, citations, stop and copy.

A turn runs `engine.ask(...)` in the serial worker lane. Events arrive as signals in
order: Status → NodeStarted/NodeFinished → Alerts (before any token) → Sources → Token… →
Done(result); `AnswerReplaced` swaps the shown draft for another, so one answer shows.
Tokens are buffered and the answer is re-rendered as Markdown at most every
`RENDER_INTERVAL_MS`, so a fast model cannot flood the event loop.

Everything the engine says around the answer is shown in the UI's language: alert bodies
(the engine gives them in both languages; a question in the other language also gets its
own), progress lines and step names (app.engine_messages). Under a finished answer, a note
says when the support check left sentences out or a statement is not matched to a source;
each `[n]` opens its source with the sentence that backs that statement highlighted.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import (QFrame, QLabel, QPlainTextEdit, QPushButton, QScrollArea, QSizePolicy,
                               QVBoxLayout, QWidget)

from app.citations import citation_target, link_citations
from app.engine_messages import alert_message, status_text, step_name, with_host
from app.errors import show_error, user_message
from app.i18n import current_language
from app.panels.widgets import RichTextCard, WrappedLabel, escape, hbox, heading, muted, vbox
from app.workers import EngineRunner, retire
from engine.events import Alerts, AnswerReplaced, Done, Event, NodeStarted, Sources, Status, Token

DEFAULT_SUPPORT_THRESHOLD = 0.6

RENDER_INTERVAL_MS = 50
PROGRESS_INTERVAL_MS = 1000
EMERGENCY_KINDS = {"emergency", "triage", "red_flag"}
ALERT_STYLES = {
    "emergency": "background: #ffebee; border: 2px solid #c62828; color: #b71c1c;",
    "caution": "background: #fff8e1; border: 2px solid #f9a825; color: #6d4c00;",
}


def alert_level(alert: dict) -> str:
    kind = str(alert.get("kind", "")).lower()
    return "emergency" if kind in EMERGENCY_KINDS or alert.get("severity") == "emergency" else "caution"


def text_language(text: str) -> str:
    return "ko" if any("\uac00" <= ch <= "\ud7a3" for ch in text) else "en"


LEFT_OUT_NOTICE = "left out"   # the `reason` the engine gives its "sentences were left out" notice


def support_findings(result: dict, threshold: float = DEFAULT_SUPPORT_THRESHOLD) -> dict:
    """What the support check found about a finished answer: `dropped` (sentences it left
    out), `weak` (shown sourced sentences under the threshold or without a source) and
    `unchecked` (an answer that no support check looked at: plain `llm` mode, or the
    model writing with the check switched off)."""
    trace = result.get("trace") or {}
    records = trace.get("support") or result.get("sentences") or []
    sourced = [r for r in records if r.get("kind") == "sourced"]
    answer = str(result.get("answer") or "")
    dropped = [r for r in sourced if r.get("source") is None and str(r.get("text") or "") not in answer]
    weak = [r for r in sourced if r not in dropped
            and (r.get("source") is None or r.get("support") is None or float(r["support"]) < threshold)]
    unchecked = bool(answer.strip()) and not records and not trace.get("cache_hit") \
        and not trace.get("cancelled") and not trace.get("llm_unavailable") \
        and (trace.get("mode") == "llm" or bool(result.get("sources")))
    return {"dropped": dropped, "weak": weak, "unchecked": unchecked}


def emphasised_guidance(text: str, records: list[dict]) -> str:
    """The answer with the engine's "when to get help now" line (sentence kind `guidance`)
    in bold, so it does not read as one more quoted sentence."""
    lines = {" ".join(str(r.get("text") or "").split()) for r in records if r.get("kind") == "guidance"}
    if not lines:
        return text
    return "\n".join(f"**{line.strip()}**" if " ".join(line.split()) in lines else line for line in text.split("\n"))


@dataclass
class AnswerProgress:
    """How far a streamed answer is: tokens so far, the measured speed and, from the
    answer's token limit, how long it can still take at most (answers usually end sooner)."""

    max_tokens: int | None = None
    started: float = field(default_factory=time.monotonic)
    first_token: float | None = None
    last_token: float | None = None
    tokens: int = 0

    def token(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if self.first_token is None:
            self.first_token = now
        self.last_token = now
        self.tokens += 1

    def waited(self, now: float | None = None) -> float:
        return (time.monotonic() if now is None else now) - self.started

    def rate(self) -> float | None:
        """Tokens per second since the first token (None until two tokens are in)."""
        if self.tokens < 2 or self.first_token is None or self.last_token <= self.first_token:
            return None
        return (self.tokens - 1) / (self.last_token - self.first_token)

    def seconds_left(self) -> float | None:
        rate = self.rate()
        if rate is None or not self.max_tokens:
            return None
        return max(0, self.max_tokens - self.tokens) / rate


class AlertBanner(RichTextCard):
    """One alert: emergencies in red with what to do now, allergy/interaction in amber."""

    def __init__(self, alert: dict, parent: QWidget | None = None, question_language: str | None = None):
        level = alert_level(alert)
        super().__init__(f"alert_{level}", f"{ALERT_STYLES[level]} border-radius: 6px;", parent)
        self.level = level
        heading = self.tr("Emergency") if level == "emergency" else self._caution_heading(alert)
        self.message = alert_message(alert)
        lines = [f"<b>{escape(heading)}</b>", escape(self.message)]
        # A question in the other language (a patient's own words) also gets the alert in
        # that language, for whoever reads it with the clinician.
        asked = alert_message(alert, question_language) if question_language else ""
        if question_language and question_language != current_language() and asked and asked != self.message:
            lines.append(f"<span style='color:#5d4037'>{escape(asked)}</span>")
        action = alert.get("action") or alert.get("what_to_do")
        if not action and level == "emergency":
            action = self.tr("Call emergency services (119) or go to the nearest emergency department now.")
        if action:
            what_now = self.tr("What to do now:")
            lines.append(f"<b>{escape(what_now)}</b> {escape(action)}")
        self.set_markup("<br>".join(line for line in lines if line))

    def _caution_heading(self, alert: dict) -> str:
        kind = str(alert.get("kind", "")).lower()
        if "allerg" in kind:
            return self.tr("Allergy")
        if "interaction" in kind:
            return self.tr("Drug interaction")
        if "contraindication" in kind:
            return self.tr("Contraindication")
        return self.tr("Caution")


class TurnView(QFrame):
    """One question and its answer."""

    citation_clicked = Signal(int, str)   # source number, the source sentence backing the cited one
    activated = Signal(dict)   # the finished turn, to show its sources and trace again

    def __init__(self, question: str, parent: QWidget | None = None,
                 support_threshold: float = DEFAULT_SUPPORT_THRESHOLD):
        super().__init__(parent)
        self.setObjectName("turnView")
        self.support_threshold = support_threshold
        self.question = WrappedLabel(question, objectName="question")
        self.question.setTextFormat(Qt.TextFormat.PlainText)
        self.question.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.question.setStyleSheet("background: #e3f2fd; border-radius: 8px; padding: 8px;")
        self.alerts_box = QVBoxLayout()
        self.alerts_box.setSpacing(6)
        self.answer = WrappedLabel(objectName="answer")
        self.answer.setTextFormat(Qt.TextFormat.MarkdownText)
        self.answer.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.answer.setOpenExternalLinks(False)
        self.answer.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.answer.linkActivated.connect(self._link)
        self.support_note = WrappedLabel(objectName="supportNote")
        self.support_note.setStyleSheet("background: #fff8e1; border-left: 4px solid #f9a825; color: #5d4037;"
                                        " padding: 4px 8px;")
        self.support_note.hide()
        self.status = QLabel(objectName="turnStatus")
        self.status.setStyleSheet("color: #616161;")
        self.copy_button = QPushButton(self.tr("Copy"), objectName="copyAnswer")
        self.copy_button.setEnabled(False)
        self.copy_button.clicked.connect(self.copy)

        vbox(self.question, self.alerts_box, self.answer, self.support_note, hbox((self.status, 1), self.copy_button),
             parent=self, margins=(4, 8, 4, 8))

        self.text = ""
        self.result: dict | None = None
        self.alerts: list[dict] = []
        self.sources: list[dict] = []
        self.progress: AnswerProgress | None = None
        self._dirty = False
        self._timer = QTimer(self, interval=RENDER_INTERVAL_MS)
        self._timer.timeout.connect(self._render_if_dirty)
        self._progress_timer = QTimer(self, interval=PROGRESS_INTERVAL_MS)
        self._progress_timer.timeout.connect(self.show_progress)

    # -- progress --------------------------------------------------------------------------
    def start_progress(self, max_tokens: int | None) -> None:
        """Show, under the answer and once a second, why it takes time and how long is left."""
        self.progress = AnswerProgress(max_tokens)
        self.show_progress()
        self._progress_timer.start()

    def show_progress(self) -> None:
        progress = self.progress
        if progress is None:
            return
        if not progress.tokens:
            self.status.setText(self.tr("Searching the sources and preparing the answer… %1 s")
                                .replace("%1", f"{progress.waited():.0f}"))
            return
        rate, left = progress.rate(), progress.seconds_left()
        text = self.tr("Writing: %n tokens so far", "", progress.tokens)
        if rate is not None:
            text += " · " + self.tr("%1 tokens/s").replace("%1", f"{rate:.1f}")
        if left is not None:
            text += " · " + self.tr("at most about %1 s left").replace("%1", f"{left:.0f}")
        self.status.setText(text)

    def _stop_progress(self) -> None:
        self._progress_timer.stop()

    def end_progress(self) -> None:
        """The turn ended without a result or an error (nothing to say about it any more)."""
        if self._progress_timer.isActive():
            self._stop_progress()
            self.status.clear()

    # -- streaming -------------------------------------------------------------------------
    def set_alerts(self, alerts: list[dict]) -> None:
        self.alerts = list(alerts)
        while self.alerts_box.count():
            widget = self.alerts_box.takeAt(0).widget()
            if widget is not None:
                retire(widget)
        ordered = sorted(self.alerts, key=lambda a: 0 if alert_level(a) == "emergency" else 1)
        language = text_language(self.question.text())
        for alert in ordered:
            self.alerts_box.addWidget(AlertBanner(alert, self, language))

    def set_sources(self, sources: list[dict]) -> None:
        self.sources = list(sources)
        self._dirty = True

    def append(self, piece: str) -> None:
        self.text += piece
        if self.progress is not None:
            self.progress.token()
        self._dirty = True
        if not self._timer.isActive():
            self._timer.start()

    def replace(self, text: str) -> None:
        """A new draft, or an earlier one restored, takes the place of what was shown."""
        self.text = text
        self._dirty = True
        if not self._timer.isActive():
            self._timer.start()

    def _render_if_dirty(self) -> None:
        if self._dirty:
            self.render()

    def render(self) -> None:
        self._dirty = False
        shown = self.shown_text()
        records = self.sentence_records()
        self.answer.setText(link_citations(emphasised_guidance(shown, records), len(self.sources), records))
        self.answer.setVisible(bool(shown.strip()) or not self.text.strip())

    def shown_text(self) -> str:
        """The answer without the lines that repeat what is shown beside it: an emergency
        banner's guidance (the emergency path answers with it), and the engine's notice that
        sentences were left out when the support note under the answer says so with the count."""
        repeats = {" ".join(str(text).split())
                   for alert in self.alerts if alert_level(alert) == "emergency"
                   for text in (alert_message(alert), *(alert.get("messages") or {}).values()) if text}
        if self.result is not None and support_findings(self.result, self.support_threshold)["dropped"]:
            repeats |= {" ".join(str(r.get("text") or "").split()) for r in self.sentence_records()
                        if r.get("kind") == "notice" and r.get("reason") == LEFT_OUT_NOTICE}
        if not repeats:
            return self.text
        kept = [line for line in self.text.split("\n") if " ".join(line.split()) not in repeats]
        return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()

    def sentence_records(self) -> list[dict]:
        """The finished answer's sentences with what backs each (trace.support), or []."""
        if self.result is None:
            return []
        trace = self.result.get("trace") or {}
        return list(trace.get("support") or self.result.get("sentences") or [])

    def show_support(self, result: dict) -> None:
        """The note under the answer when not every statement is backed by a source."""
        findings = support_findings(result, self.support_threshold)
        notes = []
        if findings["dropped"]:
            notes.append(self.tr("Sentences left out of this answer because no source supported them: %n "
                                 "(see the Trace tab).", "", len(findings["dropped"])))
        if findings["weak"]:
            notes.append(self.tr("Some statements could not be matched to a source: check them."))
        if findings["unchecked"]:
            notes.append(self.tr("No statement of this answer was checked against a source: check them."))
        self.support_note.setText(" ".join(notes))
        self.support_note.setVisible(bool(notes))

    def finish(self, result: dict) -> None:
        self._timer.stop()
        self._stop_progress()
        self.result = result
        self.text = str(result.get("answer") or self.text)
        self.sources = list(result.get("sources") or self.sources)
        if result.get("alerts") is not None and result.get("alerts") != self.alerts:
            self.set_alerts(result.get("alerts") or [])
        self.render()
        self.show_support(result)
        trace = result.get("trace") or {}
        notes = []
        if trace.get("cancelled"):
            notes.append(self.tr("Stopped."))
        if trace.get("cache_hit"):
            notes.append(self.tr("From the answer cache."))
        answered = trace.get("answered_by")
        if answered:
            where = answered["host"] if answered["remote"] else self.tr("this desktop")
            notes.append(self.tr("Answered by %1 on %2.").replace("%1", answered["model"]).replace("%2", where))
            if answered.get("fallback_reason"):
                notes.append(with_host(str(answered["fallback_reason"])))
        if self.progress is not None and self.progress.tokens and not trace.get("cancelled"):
            notes.append(self.tr("%n tokens in %1 s.", "", self.progress.tokens)
                         .replace("%1", f"{self.progress.waited():.0f}"))
        self.status.setText(" ".join(notes))
        self.copy_button.setEnabled(bool(self.text))

    def fail(self, message: str) -> None:
        self._timer.stop()
        self._stop_progress()
        self.render()
        self.status.setText(message)
        self.status.setStyleSheet("color: #c62828;")
        self.copy_button.setEnabled(bool(self.text))

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text)

    def _link(self, url: str) -> None:
        target = citation_target(url)
        if target is None:
            return
        number, index = target
        if self.result is not None:
            self.activated.emit(self.result)
        self.citation_clicked.emit(number, self.backing_sentence(index))

    def backing_sentence(self, index: int | None) -> str:
        """The source sentence that backs answer sentence `index` (the support check's best)."""
        records = self.sentence_records()
        if index is None or not 0 <= index < len(records):
            return ""
        return str(records[index].get("source_sentence") or "")

    def mousePressEvent(self, event) -> None:  # noqa: N802  (Qt override)
        if self.result is not None:
            self.activated.emit(self.result)
        super().mousePressEvent(event)


class Composer(QPlainTextEdit):
    """Enter sends, Shift+Enter adds a line; Enter while a Hangul syllable is still being
    composed belongs to the input method, not to us."""

    submitted = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("composer")
        self.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled, True)
        self.setTabChangesFocus(True)
        self._composing = False

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:  # noqa: N802  (Qt override)
        self._composing = bool(event.preeditString())
        super().inputMethodEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802  (Qt override)
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not self._composing and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            text = self.toPlainText().strip()
            if text:
                self.submitted.emit(text)
            event.accept()
            return
        super().keyPressEvent(event)


class ChatPanel(QWidget):
    turn_started = Signal()
    turn_event = Signal(object)      # every engine event, for the trace panel
    sources_received = Signal(list)
    turn_finished = Signal(dict)     # the Done result
    citation_clicked = Signal(int, str)
    turn_activated = Signal(dict)
    busy_changed = Signal(bool)
    question_sent = Signal(object, str)   # session id (or None), the question: before the turn runs

    def __init__(self, engine, runner: EngineRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("chatPanel")
        self._engine, self._runner = engine, runner
        self.patient_id: object = None
        self.session_id: object = None
        self.mode: str | None = None
        self._turn: TurnView | None = None
        self._stop = threading.Event()
        self._running = False
        self._history_request = 0

        self.header = heading("", "chatHeader", "padding: 4px;")
        self.transcript = QWidget(objectName="transcript")
        self.turns = QVBoxLayout(self.transcript)
        self.turns.addStretch(1)
        self.scroll = QScrollArea(objectName="transcriptScroll", widgetResizable=True)
        self.scroll.setWidget(self.transcript)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.placeholder = muted("", "chatPlaceholder", "padding: 24px;")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.turns.insertWidget(0, self.placeholder)
        self.status = QLabel(objectName="chatStatus")
        self.status.setStyleSheet("color: #455a64;")
        self.composer = Composer()
        self.composer.setPlaceholderText(self.tr("Ask a question (Korean or English). Enter sends, Shift+Enter adds a line."))
        self.composer.setFixedHeight(84)
        self.send_button = QPushButton(self.tr("Send"), objectName="sendButton")
        self.stop_button = QPushButton(self.tr("Stop"), objectName="stopButton")
        self.stop_button.setEnabled(False)
        self.stop_button.setStyleSheet("QPushButton:enabled { color: #c62828; font-weight: 600; }")

        bottom = hbox((self.composer, 1), vbox(self.send_button, self.stop_button))
        vbox(self.header, (self.scroll, 1), self.status, bottom, parent=self, margins=(6, 6, 6, 6))

        self._scroll_timer = QTimer(self, singleShot=True, interval=0)
        self._scroll_timer.timeout.connect(self._scroll_bottom)
        self.composer.submitted.connect(self.send)
        self.send_button.clicked.connect(lambda: self.send(self.composer.toPlainText().strip()))
        self.stop_button.clicked.connect(self.stop)
        self.set_context(None, None)

    # -- context ---------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._running

    def set_context(self, patient: dict | None, session: dict | None) -> None:
        """Show the conversation of `session` (or a fresh general conversation)."""
        if self._running:
            self.stop()
        self.patient_id = (patient or {}).get("id")
        self.session_id = (session or {}).get("id")
        if patient is None:
            self.header.setText(self.tr("General question (no patient selected, nothing is saved)"))
        else:
            self.header.setText(self.tr("Patient: %1").replace("%1", patient["name"]))
        self.clear()
        if session is not None:
            self._history_request += 1
            request = self._history_request
            self._runner.call(self, self._engine.patients.session_turns, session["id"],
                              on_result=lambda turns: self._show_history(request, turns))

    def rename_header(self, patient: dict) -> None:
        if patient.get("id") == self.patient_id:
            self.header.setText(self.tr("Patient: %1").replace("%1", patient["name"]))

    def clear(self) -> None:
        while self.turns.count() > 2:
            widget = self.turns.takeAt(1).widget()
            if widget is not None:
                retire(widget)
        self._turn = None
        self.placeholder.setText(self.tr(
            "Chartside answers from the local knowledge base and shows its sources. "
            "It does not replace a clinical assessment."))
        self.placeholder.show()

    def _show_history(self, request: int, turns: list[dict]) -> None:
        if request != self._history_request:
            return
        for turn in turns:
            view = self._add_turn(turn.get("user", ""))
            view.set_alerts(turn.get("alerts") or [])
            view.finish(turn)
        if turns:
            self.turn_activated.emit(turns[-1])
        self._scroll_to_end()

    def _add_turn(self, question: str) -> TurnView:
        self.placeholder.hide()
        view = TurnView(question, support_threshold=self._support_threshold())
        view.citation_clicked.connect(self.citation_clicked)
        view.activated.connect(self.turn_activated)
        self.turns.insertWidget(self.turns.count() - 1, view)
        return view

    def turn_views(self) -> list[TurnView]:
        views = []
        for index in range(self.turns.count()):
            widget = self.turns.itemAt(index).widget()
            if isinstance(widget, TurnView):
                views.append(widget)
        return views

    def _scroll_to_end(self) -> None:
        """After layout has caught up (a timer owned by the panel dies with it)."""
        self._scroll_timer.start()

    def _scroll_bottom(self) -> None:
        bar = self.scroll.verticalScrollBar()
        bar.setValue(bar.maximum())

    # -- a turn ----------------------------------------------------------------------------
    def send(self, text: str) -> None:
        if not text or self._running:
            return
        self.composer.clear()
        self._turn = self._add_turn(text)
        self._turn.start_progress(self._max_answer_tokens())
        self._set_running(True)
        self._stop.clear()
        self.question_sent.emit(self.session_id, text)
        self.turn_started.emit()
        kwargs = {key: value for key, value in (("patient_id", self.patient_id), ("session_id", self.session_id),
                                                ("mode", self.mode)) if value is not None}
        self._runner.stream(self, _turn_events, self._engine, text, kwargs, self._stop, on_event=self._on_event,
                            on_error=self._on_error, on_finished=self._on_finished)
        self._scroll_to_end()

    def _support_threshold(self) -> float:
        answer = getattr(getattr(self._engine, "settings", None), "answer", None)
        return float(getattr(answer, "support_threshold", DEFAULT_SUPPORT_THRESHOLD))

    def _max_answer_tokens(self) -> int | None:
        llm = getattr(getattr(self._engine, "settings", None), "llm", None)
        return getattr(llm, "max_answer_tokens", None)

    def stop(self) -> None:
        """Stop the running turn before its next token; what was streamed stays."""
        if not self._running:
            return
        self._stop.set()
        self._engine.turns.cancel()
        self.stop_button.setEnabled(False)
        self.status.setText(self.tr("Stopping…"))

    def _on_event(self, event: Event) -> None:
        turn = self._turn
        if turn is None:
            return
        if isinstance(event, Token):
            turn.append(event.text)
            return
        if isinstance(event, AnswerReplaced):
            turn.replace(event.text)
            return
        self.turn_event.emit(event)
        if isinstance(event, Status):
            self.status.setText(status_text(event.message))
        elif isinstance(event, NodeStarted):
            self.status.setText(self.tr("Step: %1").replace("%1", step_name(event.node)))
        elif isinstance(event, Alerts):
            turn.set_alerts(event.alerts)
        elif isinstance(event, Sources):
            turn.set_sources(event.sources)
            self.sources_received.emit(list(event.sources))
        elif isinstance(event, Done):
            turn.finish(event.result)
            self.turn_finished.emit(event.result)
            self._scroll_to_end()

    def _on_error(self, exc: BaseException) -> None:
        if self._turn is not None:
            self._turn.fail(user_message(exc))
        show_error(self.window(), exc)

    def _on_finished(self) -> None:
        self._set_running(False)
        self.status.clear()
        if self._turn is not None:
            self._turn.end_progress()

    def _set_running(self, running: bool) -> None:
        self._running = running
        self.send_button.setEnabled(not running)
        self.stop_button.setEnabled(running)
        self.busy_changed.emit(running)


def _turn_events(engine, text: str, kwargs: dict, stop: threading.Event):
    """Runs in the worker: forwards the engine's events and re-sends a stop request after
    each one, because a stop pressed before the turn began would otherwise be lost."""
    for event in engine.ask(text, **kwargs):
        if stop.is_set():
            engine.turns.cancel()
        yield event
