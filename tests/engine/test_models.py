"""The model manifest and sha256 verification, on the real installed model files."""

import shutil

import pytest

from engine.errors import InputError, ModelUnavailable, ModelVerificationError
from engine.models import ModelEntry, get_model, load_manifest, sha256_file, verify


def test_manifest_has_the_default_models_for_every_role():
    roles = {role for entry in load_manifest() for role in entry.roles}
    assert {"generate", "classify", "judge", "summarise", "embed", "tokenize"} <= roles
    for entry in load_manifest():
        assert len(entry.sha256) == 64 and entry.size > 0 and entry.licence


def test_default_models_verify():
    for entry in load_manifest():
        assert verify(entry).exists()


def test_wrong_sha256_is_refused(tmp_path):
    source = get_model("cl100k_base")
    copy = tmp_path / "cl100k_base.tiktoken"
    shutil.copy(source.weights_file(), copy)
    with open(copy, "r+b") as handle:
        handle.seek(100)
        handle.write(b"X")
    tampered = ModelEntry(name="tampered", kind="tiktoken", roles=("tokenize",), sha256=source.sha256,
                          size=source.size, licence="MIT", path=str(copy))
    with pytest.raises(ModelVerificationError):
        verify(tampered)


def test_missing_file_and_missing_package_are_named_errors(tmp_path):
    missing = ModelEntry(name="gone", kind="gguf", roles=("generate",), sha256="0" * 64, size=1,
                         licence="x", path=str(tmp_path / "gone.gguf"))
    with pytest.raises(ModelUnavailable):
        verify(missing)
    not_installed = ModelEntry(name="np", kind="gguf", roles=("generate",), sha256="0" * 64, size=1,
                               licence="x", path="m.gguf", package="no-such-pkg", module="no_such_pkg_xyz")
    with pytest.raises(ModelUnavailable):
        verify(not_installed)


@pytest.mark.real_model
def test_add_a_clinic_gguf_model_reads_metadata_and_assigns_roles(tmp_path, chartside_home):
    from engine.llm.gguf import add_gguf_model

    copy = tmp_path / "clinic-model.gguf"
    shutil.copy(get_model("smollm2-135m-instruct-q4_1").weights_file(), copy)
    entry = add_gguf_model(copy, roles=["judge"], name="clinic-judge", select=True)
    assert entry.context_length == 8192
    assert entry.sha256 == sha256_file(copy)
    assert get_model("clinic-judge").roles == ("judge",)
    from engine.settings import load_settings

    assert load_settings().llm.judge_model == "clinic-judge"
    assert load_settings().llm.generate_model == "smollm2-135m-instruct-q4_1"


@pytest.mark.real_model
def test_add_refuses_non_gguf_and_truncated_files(tmp_path):
    from engine.llm.gguf import add_gguf_model

    text = tmp_path / "notes.gguf"
    text.write_text("not a model")
    with pytest.raises(InputError):
        add_gguf_model(text)
    truncated = tmp_path / "truncated.gguf"
    with open(get_model("smollm2-135m-instruct-q4_1").weights_file(), "rb") as handle:
        truncated.write_bytes(handle.read(2_000_000))
    with pytest.raises(ModelUnavailable):
        add_gguf_model(truncated)
