"""Degraded mode: the answer when no language model can be loaded.

A missing, corrupt or unloadable model file must not stop the clinic's work: the turn
still runs triage, conflict checks and retrieval (none of them needs the model), and the
answer says plainly that the model is unavailable, then gives the safety alerts and the
retrieved passages with their source numbers, so every statement stays cited.
"""

from __future__ import annotations

from engine.agent.state import TurnState
from engine.errors import ModelVerificationError

PASSAGE_CHARS = 500

TEXTS = {
    "en": {
        "unavailable": "The language model is unavailable, so Chartside could not write an answer.",
        "verification": "A model file failed its integrity check (sha256); reinstall the model.",
        "missing": "The model file is missing or could not be loaded; check Settings > Models.",
        "passages": "Passages retrieved from the knowledge base for this question (read them with a clinician):",
        "no_passages": "No passages were found in the knowledge base for this question.",
        "alerts": "Safety alerts:",
        "llm_mode": "Switch to agent mode to see passages from the knowledge base.",
        "not_composed": "Chartside could not put an answer together from the sources this time (an internal fault, "
                        "recorded in the trace); the safety alerts and the retrieved passages follow.",
    },
    "ko": {
        "unavailable": "언어 모델을 사용할 수 없어 Chartside가 답변을 작성하지 못했습니다.",
        "verification": "모델 파일의 무결성 검사(sha256)에 실패했습니다. 모델을 다시 설치하세요.",
        "missing": "모델 파일이 없거나 불러올 수 없습니다. 설정 > 모델을 확인하세요.",
        "passages": "이 질문에 대해 지식 베이스에서 찾은 문단입니다 (임상의와 함께 확인하세요):",
        "no_passages": "지식 베이스에서 이 질문에 맞는 문단을 찾지 못했습니다.",
        "alerts": "안전 경고:",
        "llm_mode": "지식 베이스의 문단을 보려면 에이전트 모드로 전환하세요.",
        "not_composed": "이번에는 출처로 답변을 구성하지 못했습니다(내부 오류로, 추적 기록에 남겼습니다). 안전 경고와 "
                        "지식 베이스에서 찾은 문단을 아래에 보여 드립니다.",
    },
}


def _texts(language: str) -> dict:
    return TEXTS.get(language, TEXTS["en"])


def unavailable_notice(problem: BaseException, language: str) -> str:
    """One or two plain sentences: the model is unavailable, and why."""
    texts = _texts(language)
    reason = texts["verification"] if isinstance(problem, ModelVerificationError) else texts["missing"]
    return f"{texts['unavailable']} {reason}"


def _excerpt(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= PASSAGE_CHARS:
        return text
    cut = text[:PASSAGE_CHARS].rsplit(" ", 1)[0]
    return cut + " …"


def not_composed_notice(language: str) -> str:
    """The notice when the model is there but writing the answer failed on a fault of the engine's own."""
    return _texts(language)["not_composed"]


def degraded_answer(state: TurnState, notice: str) -> str:
    """The emergency message first (as in a normal answer), the `notice` (`unavailable_notice`,
    `not_composed_notice`), the other alerts, then the retrieved passages numbered like the sources."""
    texts = _texts(state.language)
    parts = []
    emergency = next((a.get("message", "") for a in state.alerts if a.get("kind") == "emergency"), "")
    if emergency:
        parts.append(emergency)
    parts.append(notice)
    others = [a.get("message", "") for a in state.alerts if a.get("kind") != "emergency" and a.get("message")]
    if others:
        parts.append(texts["alerts"] + "\n" + "\n".join(f"- {message}" for message in others))
    if state.documents:
        lines = []
        for number, doc in enumerate(state.documents, 1):
            title = f" {doc.title}:" if doc.title else ""
            lines.append(f"[{number}]{title} {_excerpt(getattr(doc, 'passage', '') or doc.text)}")
        parts.append(texts["passages"] + "\n" + "\n".join(lines))
    elif state.needs_retrieval:
        parts.append(texts["no_passages"])
    return "\n\n".join(parts)


def degraded_plain_answer(language: str, problem: BaseException) -> str:
    """`llm` mode has no retrieval: the notice and where to find passages."""
    return f"{unavailable_notice(problem, language)} {_texts(language)['llm_mode']}"
