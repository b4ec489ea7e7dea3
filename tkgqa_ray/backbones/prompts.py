"""Render ``prompts/<method>/<role>.txt`` templates into chat messages.

Template format (Jinja2, ``StrictUndefined``): sections introduced by a line ``### system``,
``### user`` or ``### assistant``. Everything before the **last** section is the fixed prefix
(system prompt + few-shot user/assistant pairs); the last section must be ``### user`` and is
the only one that sees the request's inputs. The prefix is rendered once per template with
static variables only (``json_schema`` of the role's output), so it is byte-identical across
questions and vLLM's prefix cache applies; a prefix that references a per-question variable is
rejected at load time with ``file:line``.

Lines starting with ``##`` followed by a space and anything other than a role (e.g. ``## note``)
are ordinary text; use Jinja comments ``{# ... #}`` for notes to prompt authors.

Prompt folder lookup: an explicit ``prompts_dir``; ``$TKGQA_PROMPTS_DIR``; the packaged copy
``tkgqa_ray/_prompts`` (wheel builds); the repository checkout's ``prompts/``.
"""

from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

ROLES = ("system", "user", "assistant")
_HEADER = re.compile(r"^###[ \t]+(system|user|assistant)[ \t]*$")
REPAIR_TEMPLATE = ("_shared", "repair")  # the retry turn after an invalid JSON output


class PromptError(ValueError):
    """A missing or malformed template, or a variable the template needs but was not given."""


def prompts_dir(explicit: str | Path | None = None) -> Path:
    candidates: list[Path] = []
    if explicit:
        candidates.append(Path(explicit))
    if os.environ.get("TKGQA_PROMPTS_DIR"):
        candidates.append(Path(os.environ["TKGQA_PROMPTS_DIR"]))
    here = Path(__file__).resolve()
    candidates.append(here.parents[1] / "_prompts")  # packaged (see docs/backbones.md)
    candidates.append(here.parents[2] / "prompts")  # repository checkout / editable install
    for c in candidates:
        if c.is_dir():
            return c
    raise PromptError(
        "no prompts folder found (tried " + ", ".join(map(str, candidates)) + "); set TKGQA_PROMPTS_DIR"
    )


def _json(value: Any, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=False)


_ENV = jinja2.Environment(
    undefined=jinja2.StrictUndefined,
    autoescape=False,
    keep_trailing_newline=False,
    trim_blocks=True,
    lstrip_blocks=True,
)
_ENV.filters["json"] = _json


@dataclass(frozen=True)
class _Section:
    role: str
    line: int  # 1-based line of the header
    template: jinja2.Template
    source: str


@dataclass
class Template:
    """One parsed prompt file; ``render`` returns OpenAI-style chat messages."""

    path: Path
    sections: list[_Section]

    @classmethod
    def load(cls, path: Path) -> "Template":
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise PromptError(f"prompt template not found: {path}") from None
        sections: list[_Section] = []
        current: tuple[str, int] | None = None
        body: list[str] = []

        def flush() -> None:
            if current is None:
                stray = re.sub(r"\{#.*?#\}", "", "\n".join(body), flags=re.S).strip()
                if stray:
                    raise PromptError(f"{path}:1: text before the first '### system|user|assistant' header")
                return
            role, line = current
            source = "\n".join(body).strip("\n")
            try:
                # Offset line numbers so Jinja errors point into the file.
                tmpl = _ENV.from_string("\n" * line + source)
            except jinja2.TemplateSyntaxError as exc:
                raise PromptError(f"{path}:{exc.lineno}: {exc.message}") from None
            sections.append(_Section(role, line, tmpl, source))

        for lineno, raw in enumerate(text.splitlines(), start=1):
            m = _HEADER.match(raw)
            if m:
                flush()
                current, body = (m.group(1), lineno), []
            else:
                body.append(raw)
        flush()
        if not sections:
            raise PromptError(f"{path}:1: no '### user' section")
        if sections[-1].role != "user":
            raise PromptError(f"{path}:{sections[-1].line}: the last section must be '### user' (the question turn)")
        return cls(path, sections)

    def _render_section(self, s: _Section, variables: dict[str, Any]) -> str:
        try:
            return s.template.render(**variables).strip("\n")
        except jinja2.UndefinedError as exc:
            raise PromptError(f"{self.path}:{s.line}: {exc.message} (section '### {s.role}')") from None
        except jinja2.TemplateError as exc:
            raise PromptError(f"{self.path}:{s.line}: {exc}") from None

    def render_prefix(self, static: dict[str, Any]) -> list[dict[str, str]]:
        """The fixed messages (all but the last section); may use only ``static`` variables."""
        out = []
        for s in self.sections[:-1]:
            try:
                content = s.template.render(**static).strip("\n")
            except jinja2.UndefinedError as exc:
                raise PromptError(
                    f"{self.path}:{s.line}: {exc.message}: only the last '### user' section may use "
                    f"per-request variables (the prefix must be identical across questions)"
                ) from None
            out.append({"role": s.role, "content": content})
        return out

    def render_last(self, variables: dict[str, Any]) -> dict[str, str]:
        s = self.sections[-1]
        return {"role": s.role, "content": self._render_section(s, variables)}


class PromptLibrary:
    """Loads and caches templates from one prompts folder; thread-safe."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = prompts_dir(root)
        self._templates: dict[tuple[str, str], Template] = {}
        self._prefixes: dict[tuple[str, str, str], list[dict[str, str]]] = {}
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:  # picklable for Ray: templates reload lazily
        return {"root": self.root}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.root = state["root"]
        self._templates, self._prefixes, self._lock = {}, {}, threading.Lock()

    def template(self, method: str, role: str) -> Template:
        key = (method, role)
        with self._lock:
            if key not in self._templates:
                self._templates[key] = Template.load(self.root / method / f"{role}.txt")
            return self._templates[key]

    def render(
        self, method: str, role: str, inputs: dict[str, Any], json_schema: dict[str, Any] | None = None
    ) -> list[dict[str, str]]:
        """Chat messages for one request: the cached fixed prefix + the rendered question turn."""
        tmpl = self.template(method, role)
        static = {"json_schema": _json(json_schema) if json_schema is not None else ""}
        pkey = (method, role, static["json_schema"])
        with self._lock:
            prefix = self._prefixes.get(pkey)
        if prefix is None:
            prefix = tmpl.render_prefix(static)
            with self._lock:
                self._prefixes[pkey] = prefix
        reserved = set(inputs) & set(static)
        if reserved:
            raise PromptError(f"{tmpl.path}: input name(s) {sorted(reserved)} are reserved")
        last = tmpl.render_last({**static, **inputs})
        return [dict(m) for m in prefix] + [last]

    def repair_turn(self, error: str, json_schema: dict[str, Any] | None) -> dict[str, str]:
        """The user turn appended after an invalid output (``prompts/_shared/repair.txt``)."""
        tmpl = self.template(*REPAIR_TEMPLATE)
        static = {"json_schema": _json(json_schema) if json_schema is not None else ""}
        return tmpl.render_last({**static, "error": error})
