"""Dataset loaders: MultiTQ, TimelineCronQ-R and TimeQuestions records → ``Question`` + ``Gold``.

Every record is split here, once: the id and the question text go into a
:class:`~tkgqa_ray.records.Question` (all a method may see); everything else (answers, types,
levels, events, any unknown field) goes into :class:`~tkgqa_ray.records.Gold`, which stays with
the scorer. Ids are always strings (MultiTQ uses ints, TimeQuestions ints, TimelineCronQ-R
strings), so every join downstream is on one type.

Roots are laid out like the public releases:

- MultiTQ: ``ROOT/kg/full.txt[.gz]`` and ``ROOT/questions/{train,dev,test}.json``.
- TimelineCronQ-R: ``ROOT/kg/*.txt[.gz]`` (5-column interval facts) and
  ``ROOT/questions/{split}.json`` (or ``ROOT/{split}.json``, or one file of records carrying a
  ``split`` field).
- TimeQuestions: ``ROOT/{split}.json`` (or ``ROOT/questions/{split}.json``); no TKG ships with it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tkgqa_ray.records import Gold, Question

SPLITS = ("train", "dev", "test")


class DatasetError(ValueError):
    """A dataset root, split file or record is missing or malformed (message names the path)."""


@dataclass(frozen=True)
class Dataset:
    name: str
    kg_path: Path | None  # None when the dataset ships no TKG (TimeQuestions)
    questions: list[Question]
    golds: dict[str, Gold]

    def __len__(self) -> int:
        return len(self.questions)


# --------------------------------------------------------------------------- record parsers


def _need(rec: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in rec:
        raise DatasetError(f"{where}: record has no {key!r} field (keys: {sorted(rec)})")
    return rec[key]


def _str_list(value: Any, where: str, key: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, (list, tuple)):
        raise DatasetError(f"{where}: {key!r} must be a list of strings, got {type(value).__name__}")
    return tuple(str(v) for v in value)


def _opt_str(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value) if value else None
    return str(value)


MULTITQ_GOLD = ("answers", "answer_type", "qtype", "qlabel", "time_level", "question_level", "events")


def parse_multitq(rec: Mapping[str, Any], where: str) -> tuple[Question, Gold]:
    """MultiTQ record (also what our generator writes): quid, question, answers, answer_type,
    time_level, qtype, qlabel [, question_level, events, and generator extras]."""
    quid = str(_need(rec, "quid", where))
    text = str(_need(rec, "question", where))
    answers = _str_list(_need(rec, "answers", where), where, "answers")
    extra = {k: v for k, v in rec.items() if k not in ("quid", "question", *MULTITQ_GOLD)}
    gold = Gold(
        quid=quid,
        answers=answers,
        answer_type=_opt_str(rec.get("answer_type")),
        qtype=_opt_str(rec.get("qtype")),
        qlabel=_opt_str(rec.get("qlabel")),
        time_level=_opt_str(rec.get("time_level")),
        question_level=_opt_str(rec.get("question_level")),
        events=_str_list(rec.get("events") or (), where, "events"),
        extra=extra,
    )
    return Question(quid, text), gold


TCQR_GOLD = ("answer", "events", "question_level", "answer_type", "qtype")


def parse_timelinecronq(rec: Mapping[str, Any], where: str) -> tuple[Question, Gold]:
    """TimelineCronQ-R record: id, question, answer[], events["s|r|o|start|end"],
    question_level, question_type, answer_type, temporal_relation, split, qtype."""
    quid = str(_need(rec, "id", where))
    text = str(_need(rec, "question", where))
    answers = _str_list(_need(rec, "answer", where), where, "answer")
    extra = {k: v for k, v in rec.items() if k not in ("id", "question", *TCQR_GOLD)}
    gold = Gold(
        quid=quid,
        answers=answers,
        answer_type=_opt_str(rec.get("answer_type")),
        qtype=_opt_str(rec.get("qtype") or rec.get("question_type")),
        question_level=_opt_str(rec.get("question_level")),
        events=_str_list(rec.get("events") or (), where, "events"),
        extra=extra,
    )
    return Question(quid, text), gold


def _tq_answer(ans: Any, where: str) -> str:
    """A TimeQuestions answer dict → display string: the entity label, or the value with a
    Wikidata timestamp cut to its date (``1971-01-01T00:00:00Z`` → ``1971-01-01``)."""
    if not isinstance(ans, Mapping):
        return str(ans)
    label = ans.get("WikidataLabel")
    if label:
        return str(label)
    arg = ans.get("AnswerArgument")
    if arg is None:
        raise DatasetError(f"{where}: answer has neither WikidataLabel nor AnswerArgument: {ans}")
    arg = str(arg)
    if "T00:00:00" in arg:
        arg = arg.split("T", 1)[0].lstrip("+")
    return arg


def parse_timequestions(rec: Mapping[str, Any], where: str) -> tuple[Question, Gold]:
    """TimeQuestions record: Id, Question, Temporal signal[], Temporal question type[],
    Answer[{AnswerType, WikidataQid, WikidataLabel | AnswerArgument}]."""
    quid = str(_need(rec, "Id", where))
    text = str(_need(rec, "Question", where))
    raw = _need(rec, "Answer", where)
    if not isinstance(raw, list):
        raise DatasetError(f"{where}: 'Answer' must be a list, got {type(raw).__name__}")
    answers = tuple(_tq_answer(a, where) for a in raw)
    kinds = {str(a.get("AnswerType", "")).lower() for a in raw if isinstance(a, Mapping)}
    answer_type = "time" if kinds == {"value"} else ("entity" if kinds == {"entity"} else None)
    extra = {k: v for k, v in rec.items() if k not in ("Id", "Question", "Answer")}
    extra["answer_qids"] = [a.get("WikidataQid") for a in raw if isinstance(a, Mapping)]
    gold = Gold(
        quid=quid,
        answers=answers,
        answer_type=answer_type,
        qtype=_opt_str(rec.get("Temporal question type")),
        extra=extra,
    )
    return Question(quid, text), gold


Parser = Callable[[Mapping[str, Any], str], tuple[Question, Gold]]


# --------------------------------------------------------------------------- files


def read_records(path: Path) -> list[dict[str, Any]]:
    """A JSON list of records, a ``{"questions": [...]}``/``{"data": [...]}`` wrapper, or JSON
    lines. Errors name the file (and line for JSON lines)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatasetError(f"question file not found: {path}") from None
    stripped = text.lstrip()
    if not stripped:
        raise DatasetError(f"{path}: empty question file")
    if stripped[0] in "[{":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            if stripped[0] == "{":
                return _read_jsonl(path, text)
            raise DatasetError(f"{path}:{e.lineno}: invalid JSON: {e.msg}") from None
        if isinstance(data, dict):
            for key in ("questions", "data", "records"):
                if isinstance(data.get(key), list):
                    data = data[key]
                    break
            else:
                data = [data]
        if not isinstance(data, list):
            raise DatasetError(f"{path}: expected a JSON list of question records")
        return data
    raise DatasetError(f"{path}: expected a JSON list of question records")


def _read_jsonl(path: Path, text: str) -> list[dict[str, Any]]:
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise DatasetError(f"{path}:{i}: invalid JSON line: {e.msg}") from None
    return out


def parse_records(
    records: Iterable[Mapping[str, Any]], parser: Parser, source: str
) -> tuple[list[Question], dict[str, Gold]]:
    """Split records into visible questions and gold; duplicate ids are an error."""
    questions: list[Question] = []
    golds: dict[str, Gold] = {}
    for i, rec in enumerate(records):
        where = f"{source}[record {i}]"
        if not isinstance(rec, Mapping):
            raise DatasetError(f"{where}: expected a JSON object, got {type(rec).__name__}")
        q, g = parser(rec, where)
        if q.quid in golds:
            raise DatasetError(f"{where}: duplicate question id {q.quid!r}")
        questions.append(q)
        golds[q.quid] = g
    return questions, golds


def load_multitq_questions(path: Path) -> tuple[list[Question], dict[str, Gold]]:
    return parse_records(read_records(path), parse_multitq, str(path))


def load_timelinecronq_questions(
    path: Path, split: str | None = None
) -> tuple[list[Question], dict[str, Gold]]:
    recs = read_records(path)
    if split is not None and recs and all(isinstance(r, Mapping) and "split" in r for r in recs):
        recs = [r for r in recs if str(r["split"]) == split]
    return parse_records(recs, parse_timelinecronq, str(path))


def load_timequestions_questions(path: Path) -> tuple[list[Question], dict[str, Gold]]:
    return parse_records(read_records(path), parse_timequestions, str(path))


# --------------------------------------------------------------------------- dataset roots


def find_kg(root: Path) -> Path | None:
    """``ROOT/kg/full.txt.gz`` / ``full.txt``, else the single ``*.txt[.gz]``/``*.tsv[.gz]``
    under ``ROOT/kg``."""
    kg_dir = root / "kg"
    for name in ("full.txt.gz", "full.txt"):
        if (kg_dir / name).is_file():
            return kg_dir / name
    if kg_dir.is_dir():
        cands = sorted(
            p for p in kg_dir.iterdir() if p.is_file() and p.name.endswith((".txt", ".txt.gz", ".tsv", ".tsv.gz"))
        )
        if len(cands) == 1:
            return cands[0]
    return None


def _split_file(root: Path, split: str, layouts: tuple[str, ...]) -> Path:
    tried = [root / lay.format(split=split) for lay in layouts]
    for p in tried:
        if p.is_file():
            return p
    raise DatasetError(
        f"split {split!r} not found under {root}: expected "
        + " or ".join(str(p) for p in tried)
    )


@dataclass(frozen=True)
class _Spec:
    parser_loader: Callable[..., tuple[list[Question], dict[str, Gold]]]
    layouts: tuple[str, ...]
    needs_kg: bool


_SPECS: dict[str, _Spec] = {
    "multitq": _Spec(load_multitq_questions, ("questions/{split}.json",), True),
    "timelinecronq_r": _Spec(
        load_timelinecronq_questions,
        ("questions/{split}.json", "{split}.json", "questions/questions.json", "questions.json"),
        True,
    ),
    "timequestions": _Spec(
        load_timequestions_questions, ("{split}.json", "questions/{split}.json"), False
    ),
}
_ALIASES = {
    "timelinecronqr": "timelinecronq_r",
    "timelinecronq-r": "timelinecronq_r",
    "timeline_cronq_r": "timelinecronq_r",
    "time_questions": "timequestions",
}
DATASET_NAMES = ("default", *_SPECS)


def dataset_key(name: str) -> str | None:
    """The registered dataset a name (any case, or an alias) refers to; None if unknown.
    The config validator asks this, so the names it accepts are exactly the ones loaded here."""
    key = _ALIASES.get(name.lower(), name.lower())
    return key if key in DATASET_NAMES else None


def dataset_names() -> tuple[str, ...]:
    """Every accepted spelling: the registered names, then the aliases."""
    return (*DATASET_NAMES, *_ALIASES)


def load_dataset(
    name: str,
    root: str | Path | None = None,
    split: str = "test",
    limit: int | None = None,
    seed: int | None = None,
    kg_path: str | Path | None = None,
) -> Dataset:
    """Load a dataset split. ``name="default"`` builds (once) and loads the embedded default.

    ``limit`` keeps ``limit`` questions: the first ones in file order, or, with ``seed``, a
    seeded random sample (still in file order). ``kg_path`` overrides the KG found under root.
    """
    key = dataset_key(name) or name.lower()
    if key == "default":
        from tkgqa_ray.data.default import ensure_default

        root = ensure_default(root)
        key = "multitq"
    if key not in _SPECS:
        raise DatasetError(f"unknown dataset {name!r} (known: {', '.join(DATASET_NAMES)})")
    if root is None:
        raise DatasetError(f"dataset {name!r} needs a root directory (dataset.root=...)")
    root = Path(root).expanduser()
    if not root.is_dir():
        raise DatasetError(f"dataset root {root} does not exist (dataset {name!r})")
    spec = _SPECS[key]
    path = _split_file(root, split, spec.layouts)
    if key == "timelinecronq_r":
        questions, golds = spec.parser_loader(path, split)
    else:
        questions, golds = spec.parser_loader(path)
    kg = Path(kg_path) if kg_path is not None else find_kg(root)
    if kg is None and spec.needs_kg:
        raise DatasetError(
            f"no KG under {root}: expected {root / 'kg' / 'full.txt.gz'} or {root / 'kg' / 'full.txt'}"
        )
    if limit is not None and limit < len(questions):
        if seed is None:
            questions = questions[:limit]
        else:
            keep = set(random.Random(seed).sample(range(len(questions)), limit))
            questions = [q for i, q in enumerate(questions) if i in keep]
        golds = {q.quid: golds[q.quid] for q in questions}
    return Dataset(name=name, kg_path=kg, questions=questions, golds=golds)


def load_questions(cfg: Any) -> tuple[list[Question], dict[str, Gold]]:
    """The architecture's entry point: ``cfg`` has ``name``, ``root``, ``split``, ``limit``,
    ``seed`` (a Hydra ``dataset`` node or a dict)."""
    get = cfg.get if hasattr(cfg, "get") else lambda k, d=None: getattr(cfg, k, d)
    ds = load_dataset(
        get("name", "default"),
        get("root", None),
        get("split", "test") or "test",
        get("limit", None),
        get("seed", None),
    )
    return ds.questions, ds.golds
