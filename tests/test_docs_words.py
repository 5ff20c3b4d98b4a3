"""User docs speak about the code, not about its development log.

README.md, every page under docs/ and the docstrings of the envpool package (its modules and its
public classes, functions and methods, read with ``ast``) must not hold:

* tracker numbers (``issue 12``): a reader has no tracker to look them up in; a third-party
  project's issue is a link (``https://github.com/<owner>/<repo>/issues/950``);
* work-session talk: ``session``, ``helper build(s)``, ``tried and dropped``, ``the issue that
  set this work``;
* ``../shared/`` paths: scripts beside a developer's checkout, not in the repository.

Why the code is as it is, with the measurements behind it, goes in docs/design-notes.md, which
is checked too.
"""

from __future__ import annotations

import ast
import pathlib
import re
from collections.abc import Iterator

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

BAD_WORDS: dict[str, re.Pattern[str]] = {
    "tracker number": re.compile(r"\bissue #?\d+", re.IGNORECASE),
    "session": re.compile(r"\bsessions?\b", re.IGNORECASE),
    "helper build": re.compile(r"\bhelper builds?\b", re.IGNORECASE),
    "tried and dropped": re.compile(r"\btried and dropped\b", re.IGNORECASE),
    "the issue that set this work": re.compile(r"\bthe issue that set this work\b",
                                               re.IGNORECASE),
    "../shared/ path": re.compile(r"\.\./shared/"),
}


def bad_words(text: str, where: str, first_line: int = 1) -> list[str]:
    """``where:line: [kind] line text`` for every line of ``text`` that holds a bad word."""
    found = []
    for number, line in enumerate(text.splitlines(), start=first_line):
        for kind, pattern in BAD_WORDS.items():
            if pattern.search(line):
                found.append(f"{where}:{number}: [{kind}] {line.strip()}")
    return found


def _doc_files() -> list[pathlib.Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def docstrings(source: str) -> Iterator[tuple[int, str]]:
    """(first line, text) of the module's docstring and of every public class, function and
    method's (a name without a leading underscore, inside public classes only)."""
    tree = ast.parse(source)

    def first_line(node: ast.AST) -> int:
        body = getattr(node, "body", [])
        return body[0].lineno if body else 1  # the docstring is the body's first statement

    def walk(node: ast.AST) -> Iterator[tuple[int, str]]:
        text = ast.get_docstring(node, clean=False)
        if text is not None:
            yield first_line(node), text
        for child in getattr(node, "body", []):
            if (isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                    and not child.name.startswith("_")):
                yield from walk(child)

    yield from walk(tree)


def _package_files() -> list[pathlib.Path]:
    return sorted(p for p in (ROOT / "envpool").rglob("*.py") if "__pycache__" not in p.parts)


def test_the_checked_files_are_found() -> None:
    docs = {str(p.relative_to(ROOT)) for p in _doc_files()}
    assert {"README.md", "docs/api.md", "docs/benchmarks.md", "docs/design-notes.md",
            "docs/integrations/sb3.md"} <= docs
    assert ROOT / "envpool" / "__init__.py" in _package_files()


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_development_log_words_in_the_docs(path: pathlib.Path) -> None:
    found = bad_words(path.read_text(), str(path.relative_to(ROOT)))
    assert not found, "development-log words in user docs:\n" + "\n".join(found)


def test_no_development_log_words_in_the_package_docstrings() -> None:
    found = []
    for path in _package_files():
        where = str(path.relative_to(ROOT))
        for line, text in docstrings(path.read_text()):
            found += bad_words(text, where, line)
    assert not found, "development-log words in docstrings:\n" + "\n".join(found)


def test_the_checker_on_examples() -> None:
    for bad in ("as issue 12 asked", "see Issue #30", "(issue 950)", "in the last session",
                "Sessions 9 and 10", "while four helper builds ran", "Tried and dropped: PGO",
                "from the issue that set this work", "run ../shared/peer/run.sh"):
        assert bad_words(bad, "x.md"), bad
    for good in ("a change of possession", "https://github.com/Farama-Foundation/Gymnasium/"
                 "issues/950", "issues are welcome", "the shared memory", "shared/peer",
                 "tried and reverted"):
        assert not bad_words(good, "x.md"), good
    assert bad_words("one\ntwo\nissue 3 here\n", "x.md", first_line=10) == [
        "x.md:12: [tracker number] issue 3 here"]


def test_docstrings_found_by_ast() -> None:
    source = '''"""Module: issue 1."""
def public():
    """Public: issue 2."""
def _private():
    """Private: issue 3."""
class Public:
    """Class: issue 4."""
    def method(self):
        """Method: issue 5."""
    def _hidden(self):
        """Hidden: issue 6."""
'''
    texts = [text for _, text in docstrings(source)]
    assert texts == ["Module: issue 1.", "Public: issue 2.", "Class: issue 4.",
                     "Method: issue 5."]
    lines = [line for line, _ in docstrings(source)]
    assert lines == [1, 3, 7, 9]
