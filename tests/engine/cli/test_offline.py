"""The CLI's model paths run with every network connection blocked."""

import subprocess
import sys

import pytest

from tests.netguard import offline_env

pytestmark = pytest.mark.real_model


def _run(args, env, timeout=300):
    return subprocess.run([sys.executable, "-m", "engine.cli", *args], env=env, capture_output=True,
                          text=True, timeout=timeout)


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


def test_selftest_offline(tmp_path):
    env, log = offline_env(tmp_path)
    result = _run(["selftest"], env, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1] == "selftest ok"
    assert not log.exists(), log.read_text()
