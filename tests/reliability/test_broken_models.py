"""Broken model files: corrupted (bytes flipped), truncated, wrong sha256, missing.

Each gives a named engine.errors exception when it is verified or loaded (never a crash
or a silently garbled model), and an `Engine` whose generating model is broken answers
in degraded mode instead of failing the turn. Copies of the real default GGUF are
damaged here; the installed model is never touched.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from engine.errors import InputError, ModelUnavailable, ModelVerificationError
from engine.events import Status
from engine.facade import DEGRADED_STATUS
from engine.llm.runtime import LlamaRuntime
from engine.models import ModelEntry, add_user_model, get_model, sha256_file
from engine.settings import LLMSettings
from tests.reliability.conftest import fast_settings, run_turn

DEFAULT_GGUF = "smollm2-135m-instruct-q4_1"
FLIPPED_BYTES = 4096


@pytest.fixture(scope="module")
def broken_files(tmp_path_factory):
    """Damaged copies of the default GGUF: tensor bytes flipped (loads, but garbled),
    header bytes flipped, and the first half only."""
    original = get_model(DEFAULT_GGUF).weights_file()
    data = original.read_bytes()
    folder = tmp_path_factory.mktemp("broken_models")
    flipped = bytearray(data)
    middle = len(flipped) // 2
    flipped[middle:middle + FLIPPED_BYTES] = bytes(b ^ 0xFF for b in flipped[middle:middle + FLIPPED_BYTES])
    header = bytearray(data)
    for offset in range(8, 4096, 7):
        header[offset] ^= 0xFF
    files = {"flipped": bytes(flipped), "header": bytes(header), "truncated": data[: len(data) // 2]}
    paths = {}
    for name, content in files.items():
        paths[name] = folder / f"{name}.gguf"
        paths[name].write_bytes(content)
    paths["missing"] = folder / "missing.gguf"
    paths["original"] = original
    yield paths
    for name in files:  # 300 MB: not worth keeping among pytest's last three temporary folders
        paths[name].unlink()


def entry(name: str, path, *, like_original: bool = True, sha256: str | None = None) -> ModelEntry:
    """A clinic manifest entry for `path`: with the original's sha256 and size (so damage
    shows at verification), or with the damaged file's own (as if it had been recorded so)."""
    base = get_model(DEFAULT_GGUF)
    if like_original or not path.exists():
        digest, size = base.sha256, base.size
    else:
        digest, size = sha256_file(path), path.stat().st_size
    return ModelEntry(name=name, kind="gguf", roles=base.roles, sha256=sha256 or digest, size=size,
                      licence="test", path=str(path), chat_format="chatml", parameters=base.parameters)


def register(entries: list[ModelEntry]) -> None:
    for model in entries:
        add_user_model(model)


def llm_settings(name: str) -> LLMSettings:
    settings = LLMSettings(max_answer_tokens=8)
    for role in ("generate", "classify", "judge", "summarise"):
        setattr(settings, f"{role}_model", name)
    return settings


CASES = {
    # name: (entry kwargs, expected error, detail that names the problem)
    "flipped": (dict(like_original=True), ModelVerificationError, "sha256"),
    "truncated": (dict(like_original=True), ModelVerificationError, "size"),
    "wrong-sha": (dict(like_original=True, sha256="0" * 64), ModelVerificationError, "sha256"),
    "missing": (dict(like_original=True), ModelUnavailable, "missing"),
    "header-recorded": (dict(like_original=False), ModelUnavailable, "failed to load"),
    "truncated-recorded": (dict(like_original=False), ModelUnavailable, "failed to load"),
}


def case_path(case: str, broken_files: dict):
    return {"flipped": broken_files["flipped"], "truncated": broken_files["truncated"],
            "wrong-sha": broken_files["original"], "missing": broken_files["missing"],
            "header-recorded": broken_files["header"], "truncated-recorded": broken_files["truncated"]}[case]


def register_cases(broken_files: dict) -> None:
    register([entry(case, case_path(case, broken_files), **kwargs) for case, (kwargs, _, _) in CASES.items()])


def test_loading_a_broken_model_raises_a_named_error(broken_files):
    register_cases(broken_files)
    seen = {}
    for case, (_, expected, detail) in CASES.items():
        runtime = LlamaRuntime(llm_settings(case))
        with pytest.raises(expected) as raised:
            runtime.info("generate")
        assert detail in str(raised.value), f"{case}: {raised.value}"
        assert raised.value.user_message  # what the app shows
        seen[case] = type(raised.value).__name__
        runtime.close()
    print(f"\nbroken models: {len(seen)} faults, each a named error on load: "
          + ", ".join(f"{case} -> {name}" for case, name in seen.items()))


def test_models_verify_names_every_broken_file_and_fails(broken_files, chartside_home):
    register_cases(broken_files)
    result = subprocess.run([sys.executable, "-m", "engine.cli", "models", "verify"], capture_output=True, text=True,
                            env={**os.environ, "CHARTSIDE_HOME": str(chartside_home)}, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = {line.split()[1].rstrip(":"): line for line in result.stdout.splitlines() if line.split()}
    for case in ("flipped", "truncated", "wrong-sha", "missing"):
        assert lines[case].startswith("FAIL"), lines[case]
    assert "sha256" in lines["flipped"] and "size" in lines["truncated"] and "missing" in lines["missing"]
    assert lines[DEFAULT_GGUF].startswith("ok"), "the installed model itself must still verify"
    assert "Traceback" not in result.stderr


def test_adding_a_truncated_or_non_gguf_file_is_refused(broken_files, tmp_path, capsys):
    from engine.cli import main

    assert main(["models", "add", str(broken_files["truncated"]), "--name", "half"]) == 2
    assert "chartside:" in capsys.readouterr().err
    not_gguf = tmp_path / "notes.gguf"
    not_gguf.write_bytes(b"this is not a model at all")
    from engine.llm.gguf import add_gguf_model

    with pytest.raises(InputError):
        add_gguf_model(not_gguf)
    with pytest.raises(ModelUnavailable):
        add_gguf_model(broken_files["header"], name="header")
    assert all(m.name not in ("half", "header") for m in _manifest())


def _manifest():
    from engine.models import load_manifest

    return load_manifest()


@pytest.mark.parametrize("case", list(CASES))
def test_an_engine_with_a_broken_model_answers_in_degraded_mode(case, broken_files, make_engine):
    register_cases(broken_files)
    settings = fast_settings()
    settings.llm = llm_settings(case)
    engine = make_engine(llm="real", settings=settings)
    events, result = run_turn(engine, "What are the warning signs of a heart attack?", patient_id=engine.test_patient)
    assert Status(DEGRADED_STATUS) in events
    assert "language model is unavailable" in result["answer"]
    assert result["trace"]["llm_unavailable"]
    assert result["sources"] and "[1]" in result["answer"]
