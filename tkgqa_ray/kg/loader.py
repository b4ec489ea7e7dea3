"""KG file loaders: MultiTQ 4-column point facts and 5-column interval facts.

Fast path: pyarrow's CSV reader (tab-delimited, RFC-4180 quoting with doubled quotes, CRLF)
parses the whole file in one call, names are dictionary-encoded by pyarrow compute and the
few thousand distinct time strings are parsed once each. Only when something is wrong does a
slow Python ``csv`` pass re-read the file to find the exact ``file:line`` and say what was
expected — errors are rare, so they may be slow; loads must not.
"""

from __future__ import annotations

import csv
import gzip
import io
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from .columns import RowError
from .table import FactTable, KGFormatError, parse_time_span

POINT_COLUMNS = ("subject", "relation", "object", "time")
INTERVAL_COLUMNS = ("subject", "relation", "object", "start", "end")
_EXPECT = {
    4: "4 tab-separated fields: subject, relation, object, YYYY-MM-DD",
    5: "5 tab-separated fields: subject, relation, object, start, end",
}


def read_kg_bytes(path: str | Path) -> bytes:
    """Raw bytes of a KG file; ``.gz`` is decompressed. A UTF-8 BOM is dropped."""
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"KG file not found: {p}")
    with open(p, "rb") as f:
        head = f.read(2)
    if p.suffix == ".gz" or head == b"\x1f\x8b":
        try:
            data = gzip.decompress(p.read_bytes())  # one C call per member, no chunk joins
        except (OSError, EOFError) as e:
            raise KGFormatError(f"{p}: not a readable gzip file ({e})") from None
    else:
        data = p.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data


def _csv_rows(text: str):
    """(line_number, fields) for every non-blank record, as Python's csv module reads them."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t", quotechar='"', doublequote=True, strict=True)
    line = 0
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise KGFormatError(f"{{file}}:{reader.line_num}: bad CSV quoting ({e})") from None
        first_line = line + 1
        line = reader.line_num
        if not row or (len(row) == 1 and row[0].strip() == ""):
            continue
        yield first_line, row


def _detect_columns(data: bytes, path: Path) -> int:
    text = data[:65536].decode("utf-8", errors="replace")
    # Cut at the last complete line so a truncated record does not look malformed.
    cut = text.rfind("\n")
    if cut >= 0 and len(data) > 65536:
        text = text[: cut + 1]
    try:
        for line_no, row in _csv_rows(text):
            if len(row) in (4, 5):
                return len(row)
            raise KGFormatError(
                f"{path}:{line_no}: expected 4 tab-separated fields (subject, relation, object, "
                f"YYYY-MM-DD) or 5 (… start, end), got {len(row)}: {row!r:.200}"
            )
    except KGFormatError as e:
        raise KGFormatError(str(e).replace("{file}", str(path))) from None
    raise KGFormatError(f"{path}: no facts (file is empty)")


def _check_row(row: list[str], ncols: int) -> str | None:
    """What is wrong with one parsed record (None if fine). Mirrors the fast path's checks."""
    if len(row) != ncols:
        return f"expected {_EXPECT[ncols]}; got {len(row)} fields: {row!r:.200}"
    for k, what in enumerate(("subject", "relation", "object")):
        if row[k] == "":
            return f"empty {what} name"
        if "\n" in row[k] or "\r" in row[k]:
            return f"{what} name contains a line break"
    try:
        lo, _ = parse_time_span(row[3])
        _, hi = parse_time_span(row[4] if ncols == 5 else row[3])
    except ValueError as e:
        return f"bad time: {e}"
    if hi < lo:
        return f"end {row[4]!r} is before start {row[3]!r}"
    return None


def _locate_error(data: bytes, path: Path, ncols: int, fallback: str) -> KGFormatError:
    """Slow exact pass: the first bad line as ``file:line: what was expected``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        return KGFormatError(f"{path}:{line}: not valid UTF-8 ({e.reason})")
    try:
        for line_no, row in _csv_rows(text):
            problem = _check_row(row, ncols)
            if problem:
                return KGFormatError(f"{path}:{line_no}: {problem}")
    except KGFormatError as e:
        return KGFormatError(str(e).replace("{file}", str(path)))
    return KGFormatError(f"{path}: {fallback}")


def load_kg(path: str | Path) -> FactTable:
    """Load a KG file (4 columns → point facts, 5 → intervals; plain or .gz; CRLF; CSV quoting).

    Names keep the KG form (underscores); ``FactTable.display`` gives the question form.
    Malformed input raises ``KGFormatError("<file>:<line>: <what was expected>")``.
    """
    p = Path(path)
    data = read_kg_bytes(p)
    ncols = _detect_columns(data, p)
    names = list(POINT_COLUMNS if ncols == 4 else INTERVAL_COLUMNS)
    try:
        tbl = pacsv.read_csv(
            pa.BufferReader(data),
            read_options=pacsv.ReadOptions(column_names=names, block_size=1 << 24),
            parse_options=pacsv.ParseOptions(
                delimiter="\t", quote_char='"', double_quote=True, escape_char=False,
                newlines_in_values=False, ignore_empty_lines=True,
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={c: pa.string() for c in names},
                strings_can_be_null=False, quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowException) as e:
        raise _locate_error(data, p, ncols, f"unreadable ({e})") from None
    cols = [tbl.column(c) for c in names]  # chunked is fine downstream; no string copies
    try:
        if ncols == 4:
            return FactTable.from_string_columns(cols[0], cols[1], cols[2], cols[3], cols[3], str(p))
        return FactTable.from_string_columns(cols[0], cols[1], cols[2], cols[3], cols[4], str(p))
    except RowError as e:
        raise _locate_error(data, p, ncols, f"data row {e.row + 1}: {e.message}") from None


def load_kgs(paths) -> FactTable:
    """Load and concatenate several KG files (same id space); fact ids follow file order."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if len(paths) == 1:
        return load_kg(paths[0])
    tables = [load_kg(p) for p in paths]
    s = pa.chunked_array([pa.array(np.asarray(t.entities, dtype=object)[t.s], pa.string()) for t in tables])
    r = pa.chunked_array([pa.array(np.asarray(t.relations, dtype=object)[t.r], pa.string()) for t in tables])
    o = pa.chunked_array([pa.array(np.asarray(t.entities, dtype=object)[t.o], pa.string()) for t in tables])
    st = np.concatenate([t.start for t in tables])
    en = np.concatenate([t.end for t in tables])
    src = ",".join(str(p) for p in paths)
    return FactTable.from_string_columns(s.combine_chunks(), r.combine_chunks(), o.combine_chunks(), st, en, src)
