"""The release check's "cited answer" test (packaging/build.py `citation_problem`): it is run
here on the non-frozen CLI's output for the same question the frozen build is asked, and on
outputs that must fail it."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALLED = Path(os.path.expanduser("~/.local/share/Chartside"))


def load_build():
    # by path: the folder's name is also the name of a common PyPI package
    spec = importlib.util.spec_from_file_location("chartside_release_build", REPO / "packaging" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_outputs_without_a_cited_answer_fail_the_check():
    problem = load_build().citation_problem
    assert problem("High blood pressure is common. [1]\n[1] What is High Blood Pressure? — https://x\n") is None
    assert "no source line" in problem("High blood pressure is common.\n")
    assert "cites no source" in problem("High blood pressure is common.\n[1] What is High Blood Pressure? — x\n")
    assert "[2]" in problem("It is common [1] and treatable [2].\n[1] What is High Blood Pressure? — x\n")
    assert "no source line" in problem("")


@pytest.mark.real_model
def test_the_cli_answer_to_the_release_question_is_cited(tmp_path):
    if not (INSTALLED / "knowledge").is_dir() or not (INSTALLED / "clinical").is_dir():
        pytest.skip(f"no installed knowledge index and clinical pack under {INSTALLED}")
    home = tmp_path / "home"
    shutil.copytree(INSTALLED / "knowledge", home / "knowledge")
    shutil.copytree(INSTALLED / "clinical", home / "clinical")
    env = {**os.environ, "CHARTSIDE_HOME": str(home), "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "app.entry", "ask", "What is high blood pressure?"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert load_build().citation_problem(proc.stdout) is None, proc.stdout
