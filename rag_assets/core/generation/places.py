"""Whether a label names a place: a country, a region, a US state or a word of a company's own
split of its operations by place (``places.json``, each list with its source).

Countries are ISO 3166-1's, as pytz carries them (``pytz.country_names``, a dependency of
pandas): a list kept up to date by others is better than one copied here.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytz

PLACES_FILE = Path(__file__).with_name("places.json")


@cache
def _place_re() -> re.Pattern[str]:
    data = json.loads(PLACES_FILE.read_text(encoding="utf-8"))
    names = {*pytz.country_names.values(), *data["regions"], *data["us_states"], *data["words"]}
    # "Korea, Republic of" is printed "Korea": the name before a comma or parenthesis
    names |= {re.split(r"[,(]", n)[0].strip() for n in names}
    alternatives = sorted((re.escape(n) for n in names if n), key=len, reverse=True)
    return re.compile(rf"(?<![\w.])(?:{'|'.join(alternatives)})(?![\w-])", re.IGNORECASE)


def names_a_place(label: str) -> bool:
    """``label`` names a place as a whole word ("Asia Pacific", "Non-U.S. operations", "MGM
    China", "Total New Jersey"); "Adhesives and Tapes" names none."""
    return _place_re().search(" ".join(label.split())) is not None


@cache
def _aliases() -> dict[str, str]:
    """Each short form of a place (``places.json``'s ``aliases``) to the place's name."""
    data = json.loads(PLACES_FILE.read_text(encoding="utf-8"))["aliases"]
    return {form: name for name, forms in data.items() if not name.startswith("_")
            for form in [name, *forms]}


def place_name(name: str) -> str:
    """A place's name in lower case, its short forms as the name ("u.s." and "us" as "united
    states"); any other name as given, lower case."""
    lowered = " ".join(name.lower().split())
    return _aliases().get(lowered, lowered)


def place_forms(name: str) -> list[str]:
    """Every form a filer may print a place in, its name first ("united states", "u.s.",
    ...); a name with no short forms alone."""
    named = place_name(name)
    return [named, *(form for form, of in _aliases().items() if of == named and form != named)]


def places_printed(question: str, evidence: str) -> set[str]:
    """The words of each place the question names by a name with short forms ("the United
    States") that the evidence prints in any form ("U.S. operations"), lower case: an anchor
    the evidence prints as the filer abbreviates it is printed."""
    asked, printed = question.lower(), evidence.lower()
    found: set[str] = set()
    for name in set(_aliases().values()):
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", asked) and any(
                re.search(rf"(?<![\w.]){re.escape(form)}(?!\w)", printed)
                for form in place_forms(name)):
            found |= set(name.split())
    return found
