"""User errors: one class per kind of mistake, one exit code per class, one line on stderr.

A user error is something the person running ``tkgqa-ray`` can fix (a bad config value, a
malformed KG line, a run dir another run holds); the CLI prints ``tkgqa-ray: <message>`` and
exits with the class's code instead of a traceback. Anything else is a bug and keeps its
traceback (exit 1).

| exit | class | examples |
| --- | --- | --- |
| 2 | config error (:class:`~tkgqa_ray.pipeline.validate.ConfigError`) | ``run.batch_size=0``, unknown method, resume with another ``backbone.name`` |
| 3 | :class:`InputError` | KG file ``file:line`` malformed, question file not JSON, duplicate quid, dataset root without its split file |
| 4 | :class:`RunDirError` | run dir locked by another run, resume refused because the questions / KG / prompts changed, ``report``/``diff`` on an unfinished or missing run |
| 5 | :class:`NotComparableError` | ``diff`` of two runs whose shared questions have different texts or gold, or no question in common |
"""

from __future__ import annotations

import sys
from typing import Callable


class UserError(Exception):
    """Base of the errors a user can fix; ``exit_code`` is what the CLI exits with."""

    exit_code = 1


class InputError(UserError):
    """A KG or question file is missing, unreadable or malformed (message names file[:line])."""

    exit_code = 3


class RunDirError(UserError):
    """The run dir cannot be used as asked: held by another run, holds another run's data,
    is unfinished (``report``/``diff``), or is not a run dir at all."""

    exit_code = 4


class ResumeRefused(RunDirError):
    """The run dir's rows were computed from other questions, another KG or other prompts."""


class NotComparableError(UserError):
    """Two runs cannot be compared question by question (different texts/gold for one quid)."""

    exit_code = 5


CONFIG_EXIT = 2


def user_error_exit(exc: BaseException) -> int | None:
    """The exit code for ``exc`` when it is a user error, else ``None`` (a bug: traceback)."""
    from tkgqa_ray.pipeline.validate import ConfigError

    if isinstance(exc, ConfigError):
        return CONFIG_EXIT
    if isinstance(exc, UserError):
        return exc.exit_code
    from tkgqa_ray.data.loaders import DatasetError
    from tkgqa_ray.kg.table import KGFormatError

    if isinstance(exc, (DatasetError, KGFormatError)):  # e.g. from `tkgqa-ray generate`
        return InputError.exit_code
    return None


def run_cli(fn: Callable[[], int | None]) -> int:
    """Call a CLI body; a user error becomes one line on stderr and its exit code."""
    try:
        return fn() or 0
    except Exception as exc:  # noqa: BLE001 - re-raised unless it is a user error
        code = user_error_exit(exc)
        if code is None:
            raise
        print(f"tkgqa-ray: {exc}", file=sys.stderr)
        return code
