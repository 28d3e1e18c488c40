"""The whole local stack runs with every network connection blocked.

Child processes get `tests/netguard.py` as sitecustomize: any name lookup or internet
connection is recorded and fails. The engine must set its own offline switches.
"""

import gzip
import itertools
import json
import subprocess
import sys

import pytest

from engine.paths import shared_data_dir
from tests.netguard import offline_env

pytestmark = pytest.mark.real_model


def _run(args, env, timeout=600):
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def small_shared_data(tmp_path):
    """The real shared data, with the knowledge sources cut to a few hundred records."""
    source = shared_data_dir()
    folder = tmp_path / "shared_data"
    folder.mkdir()
    (folder / "concepts.tsv").symlink_to(source / "concepts.tsv")
    for name, keep in (("medquad.jsonl.gz", 300), ("liveqa_judged_answers.jsonl.gz", 100)):
        with gzip.open(source / name, "rt", encoding="utf-8") as src, \
                gzip.open(folder / name, "wt", encoding="utf-8") as dst:
            dst.writelines(itertools.islice(src, keep))
    return folder


def test_guard_itself_blocks_connections(tmp_path):
    env, log = offline_env(tmp_path)
    code = "import socket; socket.create_connection(('example.org', 80))"
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "create_connection" in log.read_text()


def test_ask_llm_mode_offline(tmp_path):
    env, log = offline_env(tmp_path)
    result = _run(["ask", "--mode", "llm", "What is high blood pressure?"], env)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.strip()) > 10
    assert not log.exists(), log.read_text()


def test_index_build_and_selftest_offline(tmp_path, small_shared_data):
    env, log = offline_env(tmp_path)
    env["CHARTSIDE_SHARED_DATA"] = str(small_shared_data)
    built = _run(["kb", "build"], env)
    assert built.returncode == 0, built.stdout + built.stderr
    result = _run(["selftest"], env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1] == "selftest ok"
    turn = _run(["ask", "--json", "I am allergic to penicillin. Can I take amoxicillin for a sore throat?"], env)
    assert turn.returncode == 0, turn.stdout + turn.stderr
    answer = json.loads(turn.stdout.strip().splitlines()[-1])
    assert answer["answer"]
    assert any(alert["kind"] == "allergy_conflict" for alert in answer["alerts"])
    assert answer["sources"] and all(source["doc_id"] for source in answer["sources"])
    assert "retrieve" in answer["trace"]["nodes"]
    assert not log.exists(), log.read_text()
