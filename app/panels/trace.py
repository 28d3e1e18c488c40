"""Why the answer looks the way it does: nodes with timings, retrieval and quality figures,
tokens against the budget, what the support check found (how many sentences it backed,
and each sentence it left out with why), and the pipeline graph with this turn's path
marked."""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (QFormLayout, QGroupBox, QHeaderView, QLabel, QPlainTextEdit, QProgressBar,
                               QTableWidget, QTableWidgetItem, QWidget)

from app.engine_messages import reason_text, step_name
from app.panels.widgets import WrappedLabel, escape, vbox
from engine.events import Done, Event, NodeFinished, NodeStarted

EDGE = re.compile(r"^\s*([A-Za-z_][\w]*)\s*-[-.]+>(?:\|[^|]*\|)?\s*([A-Za-z_][\w]*)")
DECLARATION = re.compile(r"^\s*([A-Za-z_][\w]*)\s*[\[(]")
RAN = QColor("#c8e6c9")
STEP_ROW_PX = 20
MERMAID_LINES = 5
DROPPED_SHOWN = 4
# Engine values the figures show, by their stable engine names (translated when shown).
VALUE_NAMES = {
    "agent": QT_TRANSLATE_NOOP("TraceValues", "agent"),
    "llm": QT_TRANSLATE_NOOP("TraceValues", "plain model (llm)"),
    "simple": QT_TRANSLATE_NOOP("TraceValues", "simple"),
    "moderate": QT_TRANSLATE_NOOP("TraceValues", "moderate"),
    "complex": QT_TRANSLATE_NOOP("TraceValues", "complex"),
    "grounding": QT_TRANSLATE_NOOP("TraceValues", "grounding"),
    "completeness": QT_TRANSLATE_NOOP("TraceValues", "completeness"),
    "accuracy": QT_TRANSLATE_NOOP("TraceValues", "accuracy"),
    "overall": QT_TRANSLATE_NOOP("TraceValues", "overall"),
}


def value_name(value: object) -> str:
    source = VALUE_NAMES.get(value) if isinstance(value, str) else None
    return QCoreApplication.translate("TraceValues", source) if source else _figure(value)
DROPPED_CHARS = 220
RUNNING = QColor("#fff9c4")


def mermaid_nodes(mermaid: str) -> list[str]:
    """Pipeline steps in the graph's order: declared nodes first, then edge sources, then
    edge targets; Mermaid's `__start__`/`__end__` markers are left out."""
    declared, sources, targets = [], [], []
    for line in mermaid.splitlines():
        edge = EDGE.match(line)
        if edge:
            sources.append(edge.group(1))
            targets.append(edge.group(2))
            continue
        declaration = DECLARATION.match(line)
        if declaration:
            declared.append(declaration.group(1))
    names: list[str] = []
    for name in (*declared, *sources, *targets):
        if name not in names and not name.startswith("__"):
            names.append(name)
    return names


def _figure(value: object) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


class TracePanel(QWidget):
    """Figures of the last answer above one table of the pipeline's steps: steps that ran
    are green with their time (×n when the refine loop ran them again), the running step
    is yellow, skipped steps stay plain."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("tracePanel")
        self.step_ms: dict[str, float] = {}
        self.step_runs: dict[str, int] = {}
        self.graph_nodes: list[str] = []

        self.summary = QFormLayout()
        self.summary.setVerticalSpacing(3)
        self.values: dict[str, QLabel] = {}
        for key, label in (("mode", self.tr("Mode")), ("model", self.tr("Model")),
                           ("cache_hit", self.tr("Cache hit")), ("query_complexity", self.tr("Complexity")),
                           ("searched", self.tr("Searched for")),
                           ("dynamic_k", self.tr("Documents (k)")), ("iterations", self.tr("Refine iterations")),
                           ("quality_score", self.tr("Quality score")), ("judgement", self.tr("Judge")),
                           ("total_ms", self.tr("Total time (ms)"))):
            value = WrappedLabel("–", objectName=f"trace_{key}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.values[key] = value
            self.summary.addRow(label, value)
        self.support_summary = WrappedLabel("–", objectName="traceSupport")
        self.dropped = WrappedLabel(objectName="traceDropped")
        self.dropped.setTextFormat(Qt.TextFormat.RichText)
        self.dropped.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.dropped.setStyleSheet("color: #5d4037;")
        self.dropped.hide()
        # The figures go in a label under the bar, not inside it: styles draw a bar's text
        # over the edge of its fill, where it is hard to read.
        self.tokens = QProgressBar(objectName="tokenBudget", minimum=0, maximum=1, textVisible=False)
        self.tokens.setFixedHeight(8)
        self.tokens_text = WrappedLabel("–", objectName="tokenBudgetText")
        self.summary.addRow(self.tr("Tokens / budget"), vbox(self.tokens, self.tokens_text))
        self.summary.addRow(self.tr("Support check"), vbox(self.support_summary, self.dropped))
        figures = QGroupBox(self.tr("This answer"))
        figures.setLayout(self.summary)


        self.steps = QTableWidget(0, 3, objectName="traceSteps")
        self.steps.setHorizontalHeaderLabels([self.tr("Step"), self.tr("ms"), self.tr("Runs")])
        self.steps.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.steps.verticalHeader().hide()
        self.steps.verticalHeader().setDefaultSectionSize(STEP_ROW_PX)
        self.steps.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.mermaid = QPlainTextEdit(objectName="pipelineMermaid", readOnly=True)
        self.mermaid.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        # Whole lines only (a half-shown last line reads as clipped); the rest scrolls.
        self.mermaid.setFixedHeight(self.mermaid.fontMetrics().lineSpacing() * MERMAID_LINES
                                    + 2 * self.mermaid.frameWidth() + int(self.mermaid.document().documentMargin()))
        steps_box = QGroupBox(self.tr("Pipeline"))
        vbox((self.steps, 1), QLabel(self.tr("Graph (Mermaid):")), self.mermaid, parent=steps_box)

        vbox(figures, (steps_box, 1), parent=self, margins=(4, 4, 4, 4))

    # -- the graph -------------------------------------------------------------------------
    def set_pipeline(self, mermaid: str) -> None:
        self.mermaid.setPlainText(mermaid)
        self.graph_nodes = mermaid_nodes(mermaid)
        self._reset_steps()

    def _reset_steps(self) -> None:
        self.step_ms.clear()
        self.step_runs.clear()
        self.steps.setRowCount(0)
        for name in self.graph_nodes:
            self._row(name)

    def _row(self, node: str) -> int:
        for row in range(self.steps.rowCount()):
            if self.steps.item(row, 0).text() == node:
                return row
        row = self.steps.rowCount()
        self.steps.insertRow(row)
        item = QTableWidgetItem(node)
        item.setToolTip(step_name(node))   # the id matches the graph below; the tooltip says it in words
        self.steps.setItem(row, 0, item)
        self.steps.setItem(row, 1, QTableWidgetItem(""))
        self.steps.setItem(row, 2, QTableWidgetItem(""))
        return row

    def _paint(self, row: int, colour: QColor) -> None:
        for column in range(3):
            self.steps.item(row, column).setBackground(colour)

    def ran(self) -> list[str]:
        """The steps that ran in this turn, in table order."""
        return [self.steps.item(r, 0).text() for r in range(self.steps.rowCount())
                if self.steps.item(r, 0).text() in self.step_runs]

    # -- a turn ----------------------------------------------------------------------------
    def start_turn(self) -> None:
        self._reset_steps()
        for value in self.values.values():
            value.setText("–")
        self.tokens.setMaximum(1)
        self.tokens.setValue(0)
        self.tokens_text.setText("–")
        self.show_support([], "")

    def on_event(self, event: Event) -> None:
        if isinstance(event, NodeStarted):
            row = self._row(event.node)
            self.step_runs[event.node] = self.step_runs.get(event.node, 0) + 1
            self.steps.item(row, 2).setText(f"×{self.step_runs[event.node]}")
            self.steps.item(row, 1).setText("…")
            self._paint(row, RUNNING)
        elif isinstance(event, NodeFinished):
            row = self._row(event.node)
            self.step_ms[event.node] = self.step_ms.get(event.node, 0.0) + float(event.ms)
            self.steps.item(row, 1).setText(f"{self.step_ms[event.node]:.1f}")
            self._paint(row, RAN)
        elif isinstance(event, Done):
            self.show_result(event.result)

    def show_result(self, result: dict, budget: int | None = None) -> None:
        trace = result.get("trace") or {}
        for key in ("mode", "model", "cache_hit", "query_complexity", "dynamic_k", "iterations", "quality_score"):
            self.values[key].setText(value_name(trace.get(key)))
        self.values["searched"].setText(str(trace.get("query_en") or trace.get("retrieval_query") or "–"))
        judgement = trace.get("judgement") or trace.get("quality") or {}
        if isinstance(judgement, dict) and judgement:
            shown = {k: v for k, v in judgement.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
            self.values["judgement"].setText(", ".join(f"{value_name(k)} {v:.2f}" for k, v in shown.items()) or "–")
        self.show_support(trace.get("support") or result.get("sentences") or [], str(result.get("answer") or ""))
        timings = trace.get("timings_ms") or {}
        total = timings.get("total", sum(v for v in timings.values() if isinstance(v, (int, float))))
        self.values["total_ms"].setText(f"{total:.0f}" if timings else "–")
        if not self.step_runs:
            for node in trace.get("nodes") or []:
                row = self._row(node)
                self.step_runs[node] = self.step_runs.get(node, 0) + 1
                self.steps.item(row, 2).setText(f"×{self.step_runs[node]}")
                ms = timings.get(node)
                self.steps.item(row, 1).setText(f"{ms:.1f}" if isinstance(ms, (int, float)) else "")
                self._paint(row, RAN)
        used = int(trace.get("prompt_tokens") or 0) + int(trace.get("completion_tokens") or 0)
        total_budget = budget or _budget_total(trace.get("budget"))
        if total_budget:
            self.tokens.setMaximum(max(total_budget, used))
            self.tokens.setValue(used)
            self.tokens_text.setText(self.tr("%1 prompt + %2 answer of %3").replace(
                "%1", str(trace.get("prompt_tokens") or 0)).replace(
                "%2", str(trace.get("completion_tokens") or 0)).replace("%3", str(total_budget)))
        else:
            self.tokens_text.setText(str(used))

    def show_support(self, records: list[dict], answer: str) -> None:
        """How many of the answer's sourced sentences the support check backed, and each
        sentence it left out (text, why, best score), so removed sentences are visible."""
        sourced = [r for r in records if r.get("kind") == "sourced"]
        dropped = [r for r in sourced if r.get("source") is None and str(r.get("text") or "") not in answer]
        if not sourced:
            self.support_summary.setText("–")
        else:
            backed = sum(1 for r in sourced if r.get("source") is not None)
            text = self.tr("%1 of %2 sentences backed by a source").replace("%1", str(backed)).replace(
                "%2", str(len(sourced)))
            if dropped:
                text += " · " + self.tr("%n left out of the answer:", "", len(dropped))
            self.support_summary.setText(text)
        items = []
        for record in dropped[:DROPPED_SHOWN]:
            why = reason_text(str(record.get("reason") or ""))
            score = record.get("support")
            figure = ""
            if isinstance(score, (int, float)):
                figure = " (" + self.tr("best match %1").replace("%1", f"{float(score):.2f}") + ")"
            text = str(record.get("text") or "")
            text = text if len(text) <= DROPPED_CHARS else text[:DROPPED_CHARS].rstrip() + "…"
            items.append(f"• “{escape(text)}” — <i>{escape(why)}</i>{escape(figure)}")
        if len(dropped) > DROPPED_SHOWN:
            items.append(escape(self.tr("… and %n more (point at this list to see them all).", "",
                                        len(dropped) - DROPPED_SHOWN)))
        self.dropped.setText("<br>".join(items))
        self.dropped.setToolTip("\n".join(f"• {r.get('text', '')} — {reason_text(str(r.get('reason') or ''))}"
                                           for r in dropped) if len(dropped) > DROPPED_SHOWN else "")
        self.dropped.setVisible(bool(items))


def _budget_total(budget: object) -> int | None:
    if isinstance(budget, (int, float)):
        return int(budget)
    if isinstance(budget, dict):
        if isinstance(budget.get("total"), (int, float)):
            return int(budget["total"])
    return None

