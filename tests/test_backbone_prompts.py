"""Prompt templates: sections, identical few-shot prefix, errors with file:line, lookup order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tkgqa_ray.backbones.prompts import PromptError, PromptLibrary, prompts_dir


def lib(tmp_path: Path, text: str, name: str = "r") -> PromptLibrary:
    (tmp_path / "m").mkdir(exist_ok=True)
    (tmp_path / "m" / f"{name}.txt").write_text(text)
    return PromptLibrary(tmp_path)


FEWSHOT = """\
{# a note for authors #}
### system
Be brief. Schema: {{ json_schema }}
### user
Q: example
### assistant
{"a": 1}
### user
Q: {{ question }}
{% if hint %}Hint: {{ hint }}{% endif %}
"""


def test_sections_and_identical_prefix(tmp_path):
    p = lib(tmp_path, FEWSHOT)
    a = p.render("m", "r", {"question": "first?", "hint": ""}, json_schema={"type": "object"})
    b = p.render("m", "r", {"question": "second?", "hint": "x"}, json_schema={"type": "object"})
    assert [m["role"] for m in a] == ["system", "user", "assistant", "user"]
    assert a[:3] == b[:3]  # the few-shot prefix is byte-identical across questions
    assert a[0]["content"] == 'Be brief. Schema: {"type": "object"}'
    assert a[2]["content"] == '{"a": 1}'
    assert a[3]["content"] == "Q: first?" and b[3]["content"] == "Q: second?\nHint: x"


def test_prefix_may_not_use_request_variables(tmp_path):
    p = lib(tmp_path, "### system\nAbout {{ question }}\n### user\n{{ question }}\n")
    with pytest.raises(PromptError, match=r"r\.txt:1: .*question.*only the last"):
        p.render("m", "r", {"question": "q"})


def test_missing_variable_names_file_and_line(tmp_path):
    p = lib(tmp_path, "### system\nfixed\n\n### user\n{{ question }} {{ facts }}\n")
    with pytest.raises(PromptError, match=r"r\.txt:4: 'facts' is undefined"):
        p.render("m", "r", {"question": "q"})


def test_last_section_must_be_user(tmp_path):
    with pytest.raises(PromptError, match=r"r\.txt:3: the last section"):
        lib(tmp_path, "### user\nhi\n### assistant\nhello\n").render("m", "r", {})


def test_text_before_first_header_and_syntax_errors(tmp_path):
    with pytest.raises(PromptError, match=r"r\.txt:1: text before"):
        lib(tmp_path, "oops\n### user\nhi\n").render("m", "r", {})
    with pytest.raises(PromptError, match=r"s\.txt:3: "):
        lib(tmp_path, "### user\nline two\n{% if %}\n", name="s").render("m", "s", {})


def test_missing_template(tmp_path):
    (tmp_path / "m").mkdir()
    with pytest.raises(PromptError, match="not found"):
        PromptLibrary(tmp_path).render("m", "nope", {})


def test_lookup_env_var_then_repo(tmp_path, monkeypatch):
    monkeypatch.setenv("TKGQA_PROMPTS_DIR", str(tmp_path))
    assert prompts_dir() == tmp_path
    monkeypatch.delenv("TKGQA_PROMPTS_DIR")
    repo_prompts = Path(__file__).resolve().parents[1] / "prompts"
    assert prompts_dir() == repo_prompts and (repo_prompts / "_shared" / "repair.txt").exists()


def test_repair_turn_renders_error(tmp_path):
    p = PromptLibrary()  # the repository's prompts/_shared/repair.txt
    turn = p.repair_turn("answers: Field required", {"type": "object"})
    assert turn["role"] == "user"
    assert "answers: Field required" in turn["content"] and '{"type": "object"}' in turn["content"]
