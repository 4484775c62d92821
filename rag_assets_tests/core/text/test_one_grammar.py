"""Issue 37's acceptance as a test: no year, quarter, duration or filing-kind regular expression
is written outside ``core/text``: a rule written twice drifts apart unseen, while in one place the
rules that differ on purpose (a statement's column heading, a catalog's year directory, a page's
running head) say why side by side.

A regular expression is found as the project writes one: a raw string (``r"..."``, ``rf"..."``),
a string passed to a function of :mod:`re`, or a string of alternatives (``"a|b"``, a lookup
table's pattern). What it must not write: a year's digits (``(?:19|20)\\d\\d``, ``20[0-4]\\d``),
"FY" or "fiscal", a quarter (``Q[1-4]``, "quarter"), a duration ("three months", "13 weeks"), a
month's name, or a form ("10-K", ``10-[kq]``, ``FORM\\s+\\d``)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "rag_assets"
GRAMMAR_DIR = Path("core") / "text"
RE_FUNCTIONS = frozenset({"compile", "search", "match", "fullmatch", "findall", "finditer", "sub",
                          "subn", "split"})
MONTHS = "january|february|march|april|june|july|august|september|october|november|december"
ALTERNATIVES_RE = re.compile(r"\S\|\S")  # "a|b", not "a | b"
# what a pattern about periods or filing kinds writes, read in the pattern's own text
GRAMMAR_RE = re.compile(
    r"\((?:\?:)?19\|20\)"  # a year of this or the last century: (?:19|20)\d\d
    r"|\b(?:19|20)\[\d"  # a range of years: 19[89]\d, 20[0-4]\d
    r"|(?<![a-z])fy(?![a-z])|fiscal"  # FY2022, fiscal 2022
    r"|\bq(?:\[1-4\]|\\d)|quarter"  # Q[1-4], Q\d, "second quarter"
    r"|\b(?:months?|weeks?)\b"  # "three months", "13 weeks"
    rf"|\b(?:{MONTHS})\b"  # "December 31" (not "may": a verb as often)
    r"|\b(?:10|8|20)-\??\[?[kqf]"  # 10-K, 10-?q, 10-[kq], 8-K, 20-F
    r"|\bform\\s",  # FORM\s+10-K
    re.IGNORECASE,
)


def _is_re_call(node: ast.Call) -> bool:
    """A call of a function of :mod:`re` with a pattern: ``re.compile(...)``, ``re.sub(...)``."""
    return (isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
            and node.func.attr in RE_FUNCTIONS and bool(node.args))


def _strings(node: ast.AST) -> Iterator[tuple[int, str]]:
    """The string constants in an expression (the literal parts of an f-string among them), as
    (line, text)."""
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            yield child.lineno, child.value


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the module's, classes' and functions' docstrings: prose, never a pattern."""
    bodies = [n.body for n in ast.walk(tree) if isinstance(
        n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)]
    return {id(body[0].value) for body in bodies
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)}


def _writes_pattern(node: ast.Constant | ast.JoinedStr, lines: list[bytes]) -> bool:
    """A raw string (``r"..."``, ``rf"..."``: how the project writes its patterns), or a plain
    string of alternatives ("form 10-k summary|form 10k summary", a table's pattern; "Acme |
    Form 10-K", a title's parts set apart, is none)."""
    if re.match(rb"(?i)f?r", lines[node.lineno - 1][node.col_offset:]):  # offsets count bytes
        return True
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)
            and ALTERNATIVES_RE.search(node.value) is not None)


def regex_literals(source: str) -> set[tuple[int, str]]:
    """The regular expressions a module writes, as (line, text): a raw string, a string passed
    to :mod:`re`, or a plain string of alternatives."""
    tree = ast.parse(source)
    prose = _docstrings(tree)
    lines = source.encode().split(b"\n")
    found: set[tuple[int, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_re_call(node):
            found |= set(_strings(node.args[0]))
        elif isinstance(node, ast.Constant | ast.JoinedStr) and id(node) not in prose \
                and _writes_pattern(node, lines):
            found |= set(_strings(node))
    return found


def grammar_outside(package: Path) -> list[str]:
    """Each regular expression of ``package`` outside ``core/text`` that writes a year, a
    quarter, a duration, a month or a form, as "path:line: pattern"."""
    found = []
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        if relative.is_relative_to(GRAMMAR_DIR):
            continue
        for line, text in regex_literals(path.read_text(encoding="utf-8")):
            if GRAMMAR_RE.search(text):
                found.append(f"{relative}:{line}: {text!r}")
    return sorted(set(found))


def test_the_detector_reads_each_form() -> None:
    source = '''
import re
A = re.compile("(?:19|20)\\\\d\\\\d")
B = r"(?<!\\d)(?:19[89]\\d|20[0-4]\\d)"
C = rf"\\b{word}\\b|\\b(?:3|three) months\\b"
D = {"16": ("form 10-k summary|form 10k summary", "Form 10-K Summary")}
E = re.compile(r"\\b(?:page|form\\s+10-[kq])\\s*$")
F = "Form 10-K"  # a name, not a pattern
G = "Acme | Form 10-K | Fiscal 2024"  # a title
def f():
    """Reads "(?:19|20)" in a docstring: prose."""
'''
    found = {line for line, text in regex_literals(source) if GRAMMAR_RE.search(text)}
    assert found == {3, 4, 5, 6, 7}  # A to E; not a name, a title or a docstring


def test_no_period_or_form_pattern_outside_core_text() -> None:
    assert grammar_outside(PACKAGE) == []
