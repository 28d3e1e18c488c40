"""The demo engine: the real `Engine` over throw-away parts, for `chartside --screenshot`
and the GUI tests.

`demo_engine()` wires a real `engine.facade.Engine` (the real turn graph, clinical checks,
retrieval, support check, vault and exports) with:

- the scripted `FakeLLM` (`llm.backend = "fake"`): it "writes" the demo answer
  (`DEMO_REPLY`) when asked about amoxicillin, and a reply no source backs otherwise (the
  support check then gives the composer's answer); `[answer] writer = "model"`, so the
  support check guards what it wrote and leaves out the sentence no source supports;
- an encrypted vault (SQLCipher, as always) in a private temporary folder, created with the
  passphrase the user types and deleted with the folder on `close()` (or at exit): it
  never holds anything but what is typed into the demo;
- a tiny knowledge base built at start in the same folder from `DEMO_DOCUMENTS` (a few
  short passages written for this demo) with the real embedder, BM25 and FAISS;
- the clinical pack when one is installed (or loaded in this process); without one the
  demo runs without the clinical checks (noted in `service_notes`) rather than build one.

Nothing is written outside the temporary folder: the settings the GUI changes apply to
this engine only (`update_settings` does not save them). It is never used to answer a
real question.
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from pathlib import Path

from engine.container import UNSET
from engine.facade import Engine
from engine.llm.fake import FakeLLM
from engine.llm.types import ChatMessage
from engine.settings import Settings
from engine.text import has_hangul

DEMO_VERSION = "chartside-demo-1"
DEMO_LICENCE = "Chartside demo text, CC BY 4.0"
DEMO_ATTRIBUTION = "Written for the Chartside demo"
# What the status bar names as the model: the demo has none, its replies are scripted.
DEMO_MODEL_NAME = "demo (scripted)"

DEMO_QUESTION = {
    "ko": "58세 여성, 고혈압으로 암로디핀 5mg 복용 중이고 페니실린 알레르기가 있어요. 목이 아프고 열이 나는데 아목시실린을 먹어도 되나요?",
    "en": "58-year-old woman on amlodipine 5 mg for hypertension, allergic to penicillin. "
          "She has a sore throat and fever. Can she take amoxicillin?",
}

# What the fake model writes about amoxicillin: two sentences the sources back and one they
# do not (the support check leaves it out and says so).
DEMO_BACKED = {
    "ko": ("아목시실린은 페니실린 계열 항생제이므로 페니실린 알레르기가 있는 분께는 피해야 합니다.",
           "인후통과 발열은 대부분 바이러스 감염으로 생기며 항생제가 필요하지 않은 경우가 많습니다."),
    "en": ("Amoxicillin is a penicillin-class antibiotic, so it should be avoided with a penicillin allergy.",
           "Most sore throats with fever are caused by viruses and do not need antibiotics."),
}
DEMO_LEFT_OUT = {
    "ko": "세균성 인두염이 의심되면 진료하는 의사가 페니실린 계열이 아닌 대체 약을 고려할 수 있습니다.",
    "en": "If a bacterial infection is suspected, the treating clinician can consider a non-penicillin alternative.",
}
DEMO_REPLY = {language: " ".join((*backed, DEMO_LEFT_OUT[language])) for language, backed in DEMO_BACKED.items()}
UNSOURCED_REPLY = {
    "ko": "데모 모드입니다. 실제 답변을 받으려면 모델과 지식 베이스를 설치하세요.",
    "en": "This is the demo mode. Install the models and the knowledge base for real answers.",
}
DEMO_WORDS = ("amoxicillin", "아목시실린")


def _documents():
    """The demo's knowledge base: short passages written for this demo (not copied from
    any source)."""
    from engine.knowledge.corpus import Document

    texts = [
        ("demo/penicillin-allergy", "Penicillin allergy",
         "People allergic to penicillin may also react to related antibiotics such as amoxicillin and ampicillin. "
         "Amoxicillin is a penicillin-class antibiotic, so it should be avoided by people with a penicillin "
         "allergy. Tell every clinician and pharmacist about the allergy. An allergic reaction can cause hives, "
         "itching, swelling of the face and trouble breathing."),
        ("demo/sore-throat", "Sore throat",
         "Most sore throats with fever are caused by viruses and do not need antibiotics. They usually get "
         "better on their own within a week. Antibiotics help only when bacteria cause the infection, as in "
         "strep throat. Rest, fluids and warm salt-water gargles ease the pain."),
        ("demo/high-blood-pressure", "High blood pressure (hypertension)",
         "High blood pressure, or hypertension, often has no symptoms. Amlodipine is a calcium channel blocker "
         "that lowers blood pressure; it is usually taken once a day. Swollen ankles, headache and flushing are "
         "common side effects of amlodipine. Keep taking it unless the prescriber says otherwise."),
        ("demo/chest-pain", "Chest pain",
         "Sudden chest pain that feels like pressure or squeezing, or that spreads to the arm, neck or jaw, can "
         "be a heart attack. Call emergency services right away and do not drive yourself to the hospital."),
        ("demo/fever", "Fever in adults",
         "A fever is a body temperature of 38 degrees Celsius or higher. Most fevers go away within a few days. "
         "See a doctor if a fever lasts more than three days or comes with a stiff neck or confusion."),
    ]
    return [Document(doc_id=doc_id, title=title, text=text, source="Chartside demo", licence=DEMO_LICENCE,
                     attribution=DEMO_ATTRIBUTION)
            for doc_id, title, text in texts]


def _question(messages: list[ChatMessage]) -> str:
    """The question of a generation prompt (after its last `Question:` heading)."""
    text = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
    for heading in ("Question:", "질문:"):
        if heading in text:
            text = text.rsplit(heading, 1)[1]
    return text


def demo_reply(role: str, messages: list[ChatMessage]) -> str | None:
    """The fake model's answer to a generation prompt (other calls get its default reply,
    which the engine treats as the unusable output of a small model)."""
    if role != "generate":
        return None
    question = _question(messages)
    language = "ko" if has_hangul(question) else "en"
    if any(word in question.casefold() for word in DEMO_WORDS):
        return DEMO_REPLY[language]
    return UNSOURCED_REPLY[language]


def demo_settings(settings: Settings | None = None) -> Settings:
    """The demo's settings: the fake model writing, the support check guarding it, and a
    throw-away vault's cheaper key derivation."""
    settings = (settings or Settings()).model_copy(deep=True)
    settings.llm.backend = "fake"
    settings.answer.writer = "model"
    settings.answer.support_check = True
    settings.vault.kdf_iterations = 10_000
    settings.vault.synchronous = "NORMAL"
    return settings


class DemoEngine(Engine):
    """An `Engine` whose vault and knowledge base live in a private temporary folder,
    removed on `close()`; see the module docstring."""

    def __init__(self, settings: Settings, llm: FakeLLM, *, embedder=UNSET, clinical=UNSET,
                 knowledge_from: Path | None = None):
        self.scratch = Path(tempfile.mkdtemp(prefix="chartside-demo-"))
        self._removal = weakref.finalize(self, shutil.rmtree, self.scratch, ignore_errors=True)
        self._demo_llm = llm
        super().__init__(settings, llm=llm, embedder=embedder, clinical=clinical,
                         vault_path=self.scratch / "vault.db")
        try:
            if knowledge_from is not None:
                shutil.copytree(knowledge_from, self.scratch / "knowledge")
            self.kb.use_knowledge_base(self._build_knowledge_base())
        except BaseException:
            self.close()
            raise

    def _build_knowledge_base(self):
        return build_knowledge_base(self.scratch / "knowledge", self.embedder, self.settings)

    def update_settings(self, settings: Settings) -> None:
        """Apply, not save: the demo leaves the user's settings file alone; the fake model stays."""
        self.apply_settings(demo_settings(settings))
        self.container.use_llm(self._demo_llm)
        if self.kb.opened is None:  # the embedding or retrieval settings changed
            self.kb.use_knowledge_base(self._build_knowledge_base())

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._removal()


def build_knowledge_base(folder: Path, embedder, settings: Settings):
    """The demo's knowledge base in `folder` (built there unless it is already, and open)."""
    from engine.knowledge import IndexParams, KnowledgeBase

    documents = _documents()
    base = KnowledgeBase(folder, embedder, IndexParams.from_settings(settings),
                         corpus_source=lambda: list(documents), corpus_version=lambda: DEMO_VERSION)
    return base.open(build=True)


def demo_engine(settings: Settings | None = None, *, token_delay: float = 0.0, embedder=None,
                knowledge_from: Path | None = None) -> Engine:
    """A real `Engine` for the demo (see the module docstring). `token_delay`: seconds
    before each word the fake model streams; `embedder`: one to share (tests build it once),
    by default the settings' sentence-transformers model; `knowledge_from`: a folder where
    `build_knowledge_base` built the demo's knowledge base, copied rather than built again
    (tests build it once)."""
    settings = demo_settings(settings)
    llm = FakeLLM(default=UNSOURCED_REPLY["en"], respond=demo_reply, token_delay=token_delay, name=DEMO_MODEL_NAME)
    with_pack = pack_available()
    engine = DemoEngine(settings, llm, embedder=UNSET if embedder is None else embedder,
                        clinical=UNSET if with_pack else None, knowledge_from=knowledge_from)
    if not with_pack:
        engine.service_notes.append("clinical checks off in the demo: no clinical pack is installed")
    return engine


def pack_available() -> bool:
    """Whether the clinical pack is loaded or installed (the demo never builds one)."""
    from engine.clinical import pack, slots

    return slots.process_pack() is not None or any(
        (folder / pack.MANIFEST).exists() for folder in (pack.pack_dir(), pack.bundled_pack_dir()))
