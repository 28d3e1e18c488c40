"""Session fixtures for the reliability suite: real parts, built once.

- `small_shared_data`: the real ../shared/data, cut to a few MedQuAD topics (heart attack,
  chest pain, angina, blood pressure, diabetes, asthma, stroke...) plus some LiveQA judged
  answers, so that an index builds in seconds with the real embedding model;
- `clinical_pack` (from tests/conftest.py): the real MedCAT pack, built once per session;
- `minilm`: the real all-MiniLM-L6-v2 embedder (sha256-verified) behind the agent's memo;
- `kb_template`: the default index of `small_shared_data` built with it (real BM25 and
  FAISS), copied into each test's CHARTSIDE_HOME by `home_kb`;
- `make_engine`: an `Engine` over the real vault (minimum KDF count), real clinical
  service, real retrieval on `home_kb` and, unless a test passes another, `EndlessLLM`.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path

import pytest

from engine.agent.runtime_env import passive_openmp_waits

passive_openmp_waits()  # before torch or llama_cpp start OpenMP (see engine.agent.runtime_env)

from engine.paths import shared_data_dir  # noqa: E402
from tests.reliability.fakes import EndlessLLM  # noqa: E402

PASSPHRASE = "reliability 신뢰성 passphrase"
FAST_KDF = 10_000
TOPICS = ("Heart Attack", "Chest Pain", "Angina", "High Blood Pressure", "Diabetes", "Asthma", "Stroke",
          "Glaucoma", "Pneumonia")
PER_TOPIC = 6
JUDGED = 20


def write_subset(folder: Path, topics=TOPICS, per_topic: int = PER_TOPIC, judged: int = JUDGED) -> Path:
    """MedQuAD records with an answer on `topics` (at most `per_topic` each) and the first
    `judged` LiveQA judged answers, in the shared-data file format."""
    source = shared_data_dir()
    if not (source / "medquad.jsonl.gz").exists():
        pytest.skip(f"shared data not found at {source}")
    folder.mkdir(parents=True, exist_ok=True)
    counts = dict.fromkeys(topics, 0)
    with gzip.open(source / "medquad.jsonl.gz", "rt", encoding="utf-8") as src, \
            gzip.open(folder / "medquad.jsonl.gz", "wt", encoding="utf-8") as dst:
        for line in src:
            record = json.loads(line)
            focus = record.get("focus")
            if focus in counts and counts[focus] < per_topic and record.get("answer", "").strip():
                counts[focus] += 1
                dst.write(line)
    with gzip.open(source / "liveqa_judged_answers.jsonl.gz", "rt", encoding="utf-8") as src, \
            gzip.open(folder / "liveqa_judged_answers.jsonl.gz", "wt", encoding="utf-8") as dst:
        for number, line in enumerate(src):
            if number >= judged:
                break
            dst.write(line)
    (folder / "concepts.tsv").symlink_to(source / "concepts.tsv")
    return folder


@pytest.fixture(scope="session")
def small_shared_data(tmp_path_factory) -> Path:
    return write_subset(tmp_path_factory.mktemp("shared") / "data")


@pytest.fixture(scope="session")
def minilm():
    from engine.agent.embedding import MemoEmbedder
    from engine.knowledge import make_embedder
    from engine.settings import Settings

    embedder = MemoEmbedder(make_embedder(Settings()))
    embedder.embed(["warm up"])
    return embedder


def default_kb(folder: Path, embedder, shared: Path):
    """A KnowledgeBase over `folder` whose default corpus is `shared` (as `kb build` with
    CHARTSIDE_SHARED_DATA=shared would make it)."""
    from engine.knowledge import IndexParams, KnowledgeBase
    from engine.knowledge.corpus import corpus_fingerprint, load_default_documents
    from engine.settings import Settings

    return KnowledgeBase(folder, embedder, IndexParams.from_settings(Settings()),
                         corpus_source=lambda: load_default_documents(shared),
                         corpus_version=lambda: corpus_fingerprint(shared))


@pytest.fixture(scope="session")
def kb_template(tmp_path_factory, minilm, small_shared_data) -> Path:
    folder = tmp_path_factory.mktemp("kb_template") / "knowledge"
    kb = default_kb(folder, minilm, small_shared_data).open(build=True)
    kb.close()
    return folder


@pytest.fixture
def home_kb(chartside_home, kb_template, small_shared_data, minilm, monkeypatch):
    """The template index installed as this test's default knowledge base, opened."""
    from engine.knowledge import default_kb_dir

    monkeypatch.setenv("CHARTSIDE_SHARED_DATA", str(small_shared_data))
    folder = default_kb_dir()
    shutil.copytree(kb_template, folder)
    kb = default_kb(folder, minilm, small_shared_data).open(build=False)
    yield kb
    kb.close()


def fast_settings(**sections):
    """Default settings with the minimum KDF count, plus `section={field: value}` overrides."""
    from engine.settings import Settings

    settings = Settings()
    settings.vault.kdf_iterations = FAST_KDF
    for section, values in sections.items():
        for name, value in values.items():
            setattr(getattr(settings, section), name, value)
    return settings


@pytest.fixture
def make_engine(home_kb, minilm, clinical_pack):
    """`make_engine(llm=None, settings=None)`: an unlocked Engine with one patient
    (`engine.test_patient`); closed after the test. `llm="real"`: the engine's own
    llama.cpp runtime for `settings.llm`; None: an EndlessLLM."""
    from engine.facade import Engine

    made = []

    def make(llm=None, settings=None, *, knowledge=True):
        if llm is None:
            llm = EndlessLLM()
        engine = Engine(settings or fast_settings(), llm=None if llm == "real" else llm,
                        embedder=minilm, knowledge=None)
        if knowledge:
            engine.kb.use_knowledge_base(home_kb)
        engine.patients.unlock(PASSPHRASE, create=True)
        engine.test_patient = engine.patients.create_patient("Reliability Patient")["id"]
        made.append(engine)
        return engine

    yield make
    for engine in made:
        engine.close()


def run_turn(engine, text: str, **kwargs) -> tuple[list, dict]:
    """All events of one `Engine.ask` turn and the turn result."""
    from engine.events import Done

    events = list(engine.ask(text, **kwargs))
    assert isinstance(events[-1], Done)
    return events, events[-1].result


def vault_facts(engine, patient_id: int) -> dict[int, tuple]:
    """Every profile fact ever stored for a patient (any status): id -> (slot, name)."""
    from engine.memory.store import fetch_rows

    rows = fetch_rows(engine.patients.vault.db, "select id, slot, name from profile_facts where patient_id = ?",
                      [patient_id])
    return {row["id"]: (row["slot"], row["name"]) for row in rows}


def finished_turns(engine, patient_id: int) -> int:
    return sum(len(engine.patients.session_turns(s["id"])) for s in engine.patients.list_sessions(patient_id))


def rss_bytes() -> int:
    """Resident set size of this process (psutil when installed, else /proc/self/statm)."""
    try:
        import psutil
    except ImportError:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return psutil.Process().memory_info().rss
