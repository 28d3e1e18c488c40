"""What the nodes need from the rest of the engine, as narrow interfaces.

The nodes talk only to these protocols; `engine.agent.wiring` adapts the real services
(engine.clinical, engine.knowledge, engine.memory) to them, and unit tests of control flow
use small fakes. `AgentServices` bundles one turn's services with the settings, the LLM,
the token counter, the response cache and the cancel token (and, in degraded mode, why
there is no language model).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from engine.agent.cache import ResponseCache
from engine.agent.tokens import TokenManager
from engine.cancel import CancelToken
from engine.passage import Passage
from engine.protocols import LLM, Embedder
from engine.settings import Settings


class Clinical(Protocol):
    def extract(self, text: str) -> dict: ...

    def triage(self, text: str) -> dict: ...

    def conflicts(self, profile: dict, slots: dict) -> list[dict]: ...

    def warm_up(self) -> None:
        """Load what the first turn would otherwise load (the engine's warm-up calls it)."""


class Knowledge(Protocol):
    def search(self, query: str, k: int, *, profile: dict | None, expand: bool, docs_budget: int,
               bm25: bool, dense: bool) -> list[Passage]: ...


class PatientMemory(Protocol):
    """One patient's profile and conversation, vault-backed or in memory."""

    def profile(self) -> dict:
        """Slot JSON of the live profile (for conflict checks and query rewrite)."""

    def profile_summary(self, language: str) -> str:
        """Compact profile for the prompt, allergies first."""

    def fingerprint(self) -> str: ...

    def update_profile(self, slots: dict, text: str) -> list[dict]:
        """Store the turn's facts; returns changes (for the trace)."""

    def working_turns(self, count: int) -> list[dict]:
        """The last `count` turns, oldest first: {"user": str, "answer": str}."""

    def long_term(self, query: str, budget_tokens: int, language: str) -> str:
        """Summaries, semantic facts and related older turns within the budget."""

    def add_turn(self, user: str, result: dict) -> None: ...


@dataclass
class AgentServices:
    settings: Settings
    llm: LLM | None
    tokens: TokenManager
    clinical: Clinical | None = None
    knowledge: Knowledge | None = None
    memory: PatientMemory | None = None
    cache: ResponseCache | None = None
    embedder: Embedder | None = None
    cancel: CancelToken = field(default_factory=CancelToken)
    log: list[str] = field(default_factory=list)
    # Degraded mode: why no language model could be loaded (engine.errors.ModelUnavailable).
    # The nodes then make no LLM call and the answer gives the passages (engine.agent.degraded).
    llm_unavailable: Exception | None = None

    @property
    def flags(self):
        return self.settings.features
