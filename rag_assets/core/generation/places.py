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
