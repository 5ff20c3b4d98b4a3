"""Every table of measured numbers in README.md and docs/ names the results file it came from.

Detection rule (kept simple on purpose):

* A table is a run of lines starting with ``|`` whose second line is a separator row
  (``|---|---:|``); tables inside fenced code blocks are ignored.
* It is a *measurement table* when a header cell names a measured quantity (``steps/s``,
  ``return``, ``score``, ``mean``, ``speed``, ``time``, ``seconds``, ``min``, ``eval``, as
  whole words) or a body cell holds a number with a thousands separator (``2,460``).
  Numbers inside inline code (```4```) do not count. Keyword, id, migration and layout
  tables (``keyword | default | meaning``) have neither, so they are not checked.
* A measurement table must name a results file in its section: the lines from the nearest
  heading above it down to the table. A results file is a path ``benchmarks/results/...``,
  ``docs/curves/...`` or ``docs/matrix/...`` ending in .json, .csv, .md or .txt; every such
  path named there (a curve's PNG too) must exist in the repository.
* When the section names Markdown results files (the benchmark scripts' saved output), every
  thousands-separated number of the table must appear verbatim in one of them.

Figures in prose are checked too, paragraph by paragraph (a run of non-blank lines outside
fenced code, headings and tables; a list without blank lines is one paragraph):

* every ``benchmarks/results/...``, ``docs/curves/...`` or ``docs/matrix/...`` path a paragraph
  names must exist (a file, or a folder);
* in a paragraph that names results files (.json, .csv, .md, .txt, .log), every
  thousands-separated number outside inline code (``6,957 steps/s
  (benchmarks/results/bench_2cores.md)``) must appear in one of them: verbatim, or as a plain
  number that rounds to it (raw logs and JSON write ``6957`` or ``6956.8``). A figure that comes
  from no saved file does not belong in a paragraph that names one.
"""

from __future__ import annotations

import pathlib
import re
from dataclasses import dataclass

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULT_SUFFIXES = (".json", ".csv", ".md", ".txt")

_SEPARATOR = re.compile(r"^\|\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_MEASURED_HEADER = re.compile(
    r"steps/s|\b(returns?|scores?|mean|speed|time|seconds|min|eval)\b", re.IGNORECASE)
_THOUSANDS = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d{3})+(?![\d,])")
_RESULTS_PATH = re.compile(r"(?:benchmarks/results|docs/curves|docs/matrix)/[\w.\-/]*\w")
_CODE_SPAN = re.compile(r"`[^`]*`")


@dataclass
class Table:
    path: str           # relative to the repository root
    line: int           # 1-based line of the header row
    header: list[str]
    rows: list[list[str]]
    section: list[str]  # the lines from the nearest heading above down to the header row


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def find_tables(text: str, path: str = "<string>") -> list[Table]:
    """Every markdown table of ``text`` outside fenced code, with its section."""
    lines = text.splitlines()
    tables: list[Table] = []
    in_fence = False
    heading = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        elif not in_fence and line.startswith("#"):
            heading = i
        elif (not in_fence and line.startswith("|") and i + 1 < len(lines)
              and _SEPARATOR.match(lines[i + 1].strip())):
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            tables.append(Table(path, i + 1, _cells(line), [_cells(r) for r in lines[i + 2:j]],
                                lines[heading:i]))
            i = j
            continue
        i += 1
    return tables


def is_measurement(table: Table) -> bool:
    """The rule of the module docstring: a measured-quantity header or a 1,000-style number."""
    if any(_MEASURED_HEADER.search(_CODE_SPAN.sub("", h)) for h in table.header):
        return True
    return any(_THOUSANDS.search(_CODE_SPAN.sub("", c)) for row in table.rows for c in row)


def named_results(table: Table) -> list[str]:
    """Results-file paths named in the table's section, in order, without repeats."""
    found: list[str] = []
    for line in table.section:
        for m in _RESULTS_PATH.findall(line):
            if m not in found:
                found.append(m)
    return found


def problems(table: Table, root: pathlib.Path = ROOT) -> list[str]:
    """Why the table is not traceable to a saved result (empty: it is)."""
    where = f"{table.path}:{table.line} (table | {' | '.join(table.header)} |)"
    names = named_results(table)
    if not names:
        return [f"{where}: no benchmarks/results/... or docs/curves/... file is named between "
                "the heading above the table and the table"]
    out = [f"{where}: names {name}, which does not exist"
           for name in names if not (root / name).is_file()]
    if not out and not any(n.endswith(RESULT_SUFFIXES) for n in names):
        out.append(f"{where}: names only {names}, none a results file {RESULT_SUFFIXES}")
    md = [root / n for n in names if n.endswith(".md") and (root / n).is_file()]
    if md and not out:
        saved = "\n".join(f.read_text() for f in md)
        for row in table.rows:
            for cell in row:
                for number in _THOUSANDS.findall(_CODE_SPAN.sub("", cell)):
                    if number not in saved:
                        out.append(f"{where}: {number} is in none of {[str(n) for n in names]}")
    return out


def _doc_files() -> list[pathlib.Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _measurement_tables() -> list[Table]:
    tables = []
    for f in _doc_files():
        tables += find_tables(f.read_text(), str(f.relative_to(ROOT)))
    return [t for t in tables if is_measurement(t)]


MEASURED = _measurement_tables()


@pytest.mark.parametrize("table", MEASURED, ids=[f"{t.path}:{t.line}" for t in MEASURED])
def test_measurement_table_names_its_results_file(table: Table) -> None:
    assert problems(table) == []


def test_the_known_measurement_tables_are_found() -> None:
    found = {t.path for t in MEASURED}
    assert {"docs/benchmarks.md", "docs/atari.md", "docs/mujoco.md",
            "docs/integrations/tianshou.md", "docs/integrations/cleanrl.md"} <= found
    assert "docs/api.md" not in found  # keyword, migration and autoreset tables


SYNTHETIC = """# Speed

Measured with `python benchmarks/bench_x.py` ({source}).

| num_envs | method | steps/s |
|---:|---|---:|
| 8 | envpool sync | {value} |

## Keywords

| keyword | default | meaning |
|---|---|---|
| `max_episode_steps` | 27000 | pool time limit |

```
| not | a table |
|---|---|
| 1,000 | 2,000 |
```
"""


def _write(root: pathlib.Path, name: str, text: str) -> None:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(text)


def test_checker_on_synthetic_markdown(tmp_path: pathlib.Path) -> None:
    _write(tmp_path, "benchmarks/results/x.md", "| 8 | envpool sync | 1,234 |\n")
    _write(tmp_path, "docs/curves/y.png", "")

    def check(source: str, value: str = "1,234") -> list[str]:
        tables = find_tables(SYNTHETIC.format(source=source, value=value), "doc.md")
        assert len(tables) == 2  # the fenced one is not a table
        assert [is_measurement(t) for t in tables] == [True, False]
        return problems(tables[0], tmp_path)

    assert check("output: benchmarks/results/x.md") == []
    missing = check("output: not saved")
    assert len(missing) == 1 and "no benchmarks/results" in missing[0]
    assert "does not exist" in check("benchmarks/results/gone.json")[0]
    assert "none a results file" in check("docs/curves/y.png")[0]
    assert check("docs/curves/y.png and benchmarks/results/x.md") == []
    assert "9,999 is in none of" in check("benchmarks/results/x.md", "9,999")[0]


def test_a_results_file_above_the_heading_does_not_count() -> None:
    text = ("See benchmarks/results/cartpole_v1_2cores.md.\n\n## Other\n\n"
            "| seed | return |\n|---|---|\n| 0 | 161.6 |\n")
    (table,) = find_tables(text)
    assert is_measurement(table) and named_results(table) == []
    assert problems(table)


# Figures in prose.

PROSE_SUFFIXES = RESULT_SUFFIXES + (".log",)


@dataclass
class Paragraph:
    path: str   # relative to the repository root
    line: int   # 1-based line of its first line
    text: str


def find_paragraphs(text: str, path: str = "<string>") -> list[Paragraph]:
    """Runs of non-blank lines outside fenced code that are neither headings nor table rows."""
    paragraphs: list[Paragraph] = []
    current: list[str] = []
    start = 0
    in_fence = False

    def flush() -> None:
        if current:
            paragraphs.append(Paragraph(path, start, "\n".join(current)))
            current.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            flush()
            in_fence = not in_fence
            continue
        if in_fence or not line.strip() or line.startswith(("#", "|")):
            flush()
            continue
        if not current:
            start = number
        current.append(line)
    flush()
    return paragraphs


def _named_paths(text: str) -> list[str]:
    found: list[str] = []
    for m in _RESULTS_PATH.findall(text):
        if m not in found:
            found.append(m)
    return found


_NUMBER = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d])")


def _in_file(number: str, saved: str) -> bool:
    """``number`` (``6,957``) verbatim in ``saved``, or a plain number there that rounds to it
    (``6957``, ``6956.8``: raw logs and JSON have no separators)."""
    if number in saved:
        return True
    value = int(number.replace(",", ""))
    return any(abs(float(m) - value) <= 0.5 for m in _NUMBER.findall(saved))


def prose_problems(paragraph: Paragraph, root: pathlib.Path = ROOT) -> list[str]:
    """Why the paragraph's figures are not traceable to the files it names (empty: they are)."""
    where = f"{paragraph.path}:{paragraph.line}"
    names = _named_paths(paragraph.text)
    out = [f"{where}: names {name}, which does not exist"
           for name in names if not (root / name).exists()]
    files = [root / n for n in names if n.endswith(PROSE_SUFFIXES) and (root / n).is_file()]
    if not files:
        return out
    saved = "\n".join(f.read_text(errors="replace") for f in files)
    named = [str(f.relative_to(root)) for f in files]
    for number in _THOUSANDS.findall(_CODE_SPAN.sub("", paragraph.text)):
        if not _in_file(number, saved):
            out.append(f"{where}: {number} is in none of {named}")
    return out


def _paragraphs() -> list[Paragraph]:
    found = []
    for f in _doc_files():
        found += find_paragraphs(f.read_text(), str(f.relative_to(ROOT)))
    return [p for p in found if _named_paths(p.text)]


NAMING = _paragraphs()


@pytest.mark.parametrize("paragraph", NAMING, ids=[f"{p.path}:{p.line}" for p in NAMING])
def test_prose_figures_are_in_the_results_file_they_name(paragraph: Paragraph) -> None:
    assert prose_problems(paragraph) == []


def test_the_known_prose_figures_are_found() -> None:
    paths = {p.path for p in NAMING}
    assert {"docs/benchmarks.md", "docs/design-notes.md", "docs/dm_control.md"} <= paths
    figures = " ".join(p.text for p in NAMING if p.path == "docs/dm_control.md")
    assert "148,810" in figures


PROSE = """# Speed

Pong at 8 envs: {value} steps/s
(benchmarks/results/{source}), against `9,999` in code, which is not checked.

| num_envs | steps/s |
|---:|---:|
| 8 | 5,555 |

```
2,222 steps/s (benchmarks/results/x.md)
```

A paragraph that names no results file: 3,333 steps/s.

Raw log: 6,957 steps/s and 12,345 (benchmarks/results/raw.log).
"""


def test_prose_checker_on_synthetic_markdown(tmp_path: pathlib.Path) -> None:
    _write(tmp_path, "benchmarks/results/x.md", "| 8 | envpool sync | 6,957 |\n")
    _write(tmp_path, "benchmarks/results/raw.log", "round 1: 6957.4 steps/s; 12345 steps\n")
    _write(tmp_path, "benchmarks/results/folder/a.txt", "")

    def check(source: str, value: str = "6,957") -> list[str]:
        paragraphs = find_paragraphs(PROSE.format(source=source, value=value), "doc.md")
        assert [p.line for p in paragraphs] == [3, 14, 16]  # not the table nor the fence
        assert "5,555" not in " ".join(p.text for p in paragraphs)
        return [x for p in paragraphs for x in prose_problems(p, tmp_path)]

    assert check("x.md") == []
    assert check("folder") == []  # a folder exists; it holds no figures to check
    assert "7,000 is in none of" in check("x.md", "7,000")[0]
    assert "does not exist" in check("gone.md")[0]
    assert _in_file("6,957", '{"rate": 6957.4, "n": 8}') and _in_file("1,048", "1047.72")
    assert not _in_file("6,957", "16957 0.6957 6958.1 69570")
