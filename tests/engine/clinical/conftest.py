"""One real MedCAT pack per test session, built from ../shared/data/concepts.tsv and the
lexicons into a temporary directory (about 5-10 s), then installed as the process pack."""

from __future__ import annotations

import pytest

from engine.clinical import pack as pack_module


@pytest.fixture(scope="session")
def built_pack_dir(tmp_path_factory):
    if not pack_module.concepts_path().exists():
        pytest.skip(f"concepts.tsv not found at {pack_module.concepts_path()}")
    target = tmp_path_factory.mktemp("clinical") / "pack"
    pack_module.build_pack(target)
    return target


@pytest.fixture(scope="session")
def clinical_pack(built_pack_dir):
    pack = pack_module.load_and_warm_up(built_pack_dir)
    previous = pack_module.install_process_pack(pack)
    yield pack
    pack_module.install_process_pack(previous)
