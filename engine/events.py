"""Events the engine yields while it answers a turn.

The GUI turns each event into a Qt signal in a worker; the CLI prints tokens and the
final result. `Done.result` is the turn in the `chartside chat --json` format (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    @property
    def kind(self) -> str:
        return type(self).__name__


@dataclass(frozen=True)
class NodeStarted(Event):
    node: str


@dataclass(frozen=True)
class NodeFinished(Event):
    node: str
    ms: float
    detail: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Token(Event):
    text: str


@dataclass(frozen=True)
class AnswerReplaced(Event):
    """The answer shown so far is replaced by `text`; the tokens that follow extend it.

    Sent when a corrective round starts a new draft (`text` is the emergency guidance or
    empty) and when an earlier, better draft is restored (`text` is that draft), so a
    reader only ever sees one answer.
    """

    text: str


@dataclass(frozen=True)
class Sources(Event):
    sources: list


@dataclass(frozen=True)
class Alerts(Event):
    alerts: list


@dataclass(frozen=True)
class Status(Event):
    """A human-readable progress line (model loading, index building...)."""

    message: str


@dataclass(frozen=True)
class Done(Event):
    result: dict
