"""Who a filer's chief executive or chief financial officer is: the officers who certify its
report.

Rule 13a-14(a) (Section 302 of the Sarbanes-Oxley Act) has the principal executive officer and
the principal financial officer of a 10-K or a 10-Q each certify it, in exhibits 31.1 and 31.2
that open with the officer's name ("I, James Quincey, Chairman of the Board of Directors and
Chief Executive Officer of The Coca-Cola Company, certify that:", Coca-Cola's 2019 10-K) and
close with the signature over the title ("/S/ REED HASTINGS / Reed Hastings / Co-Chief Executive
Officer", Netflix's 2020 10-K). Biographies and the signature page name many officers; the
certifications name exactly the two offices the questions ask of, so "Who is X's CEO?" is read
there: each certifying officer whose title names the office asked, with that title, quoted. A
filing whose exhibits are not in the document read, or whose certifications name no such title,
gets nothing here. Hand-written: the certification's wording is fixed by the rule, and no
library reads it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rag_assets.core.generation.direct_rows import DirectAnswer
from rag_assets.core.generation.evidence import EvidenceUnit, printed_unit
from rag_assets.core.question.question import Question

OFFICES = {
    "chief executive officer": re.compile(r"\bchief\s+executive\s+officer\b|\bprincipal\s+"
                                          r"executive\s+officer\b", re.IGNORECASE),
    "chief financial officer": re.compile(r"\bchief\s+financial\s+officer\b|\bprincipal\s+"
                                          r"financial\s+officer\b", re.IGNORECASE),
}
ASKED = {
    "chief executive officer": re.compile(r"\b(?:ceos?|chief\s+executive(?:\s+officers?)?|"
                                          r"co-ceos?)\b", re.IGNORECASE),
    "chief financial officer": re.compile(r"\b(?:cfos?|chief\s+financial(?:\s+officers?)?)\b",
                                          re.IGNORECASE),
}
# "I, Reed Hastings, certify that:", "I, James Quincey, Chairman ... of The Coca-Cola Company,
# certify that:"
CERTIFY_RE = re.compile(r"\bI,\s+(?P<name>[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){1,4}),\s+"
                        r"(?P<title>[^:]{0,200}?,\s+)?certify\s+that\b")
SIGNED_RE = re.compile(r"/s/", re.IGNORECASE)
TITLE_LINES = 4  # lines after a signature that may print the title


def _office_asked(question: Question) -> str | None:
    asked = [office for office, pattern in ASKED.items() if pattern.search(question.text)]
    return asked[0] if len(asked) == 1 and question.phrased("who_or_named") else None


def _title_signed(text: str, after: int) -> tuple[str, str] | None:
    """The title printed under the certification's signature, and the lines quoted for it."""
    signed = SIGNED_RE.search(text, after)
    if signed is None:
        return None
    lines = [" ".join(line.split()) for line in text[signed.start():].splitlines()]
    lines = [line for line in lines if line][:TITLE_LINES]
    title = next((line for line in lines[1:] if any(p.search(line) for p in OFFICES.values())),
                 None)
    return (title, "\n".join(lines[:lines.index(title) + 1])) if title else None


def _office_title(title: str, office: str) -> str:
    """The title up to the office it names: "... and Chief Executive Officer of The Coca-Cola
    Company" without the company."""
    last = list(OFFICES[office].finditer(title))[-1]
    return title[:last.end()]


def certifying_officer(question: Question, document: str, year: int,
                       pages: Sequence[tuple[int, str]]) -> DirectAnswer | None:
    """The officers who certify the report in the office the question asks of, each with the
    title the certification prints; None for another question or when none is found."""
    office = _office_asked(question)
    if office is None:
        return None
    named: dict[str, tuple[str, list[EvidenceUnit]]] = {}
    for page, text in pages:
        for found in CERTIFY_RE.finditer(text):
            name = " ".join(found["name"].split())
            units = [printed_unit(document, year, page, " ".join(found.group(0).split()))]
            title = " ".join((found["title"] or "").split()).rstrip(", ")
            if not OFFICES[office].search(title):
                signed = _title_signed(text, found.end())
                if signed is None or not OFFICES[office].search(signed[0]):
                    continue
                # the name and the title on one line: "Jeffrey L. Harmening Chief Executive
                # Officer" (General Mills)
                title = re.sub(rf"^{re.escape(name)}\s+", "", signed[0], flags=re.IGNORECASE)
                units.append(printed_unit(document, year, page, signed[1]))
            named.setdefault(name, (_office_title(title, office), units))
    if not named:
        return None
    said = " and ".join(f"{name} ({title})" for name, (title, _) in named.items())
    units = [u for _, us in named.values() for u in us]
    return DirectAnswer(kind="list", text=f"{said}, certifying the report as its {office} "
                        f"(Rule 13a-14(a)).", units=units, supports=units[0].text)
