"""A statement row's label printed over two lines: the grammar that says its first line goes on.

One pattern for both table readers (the aligned tables of the PDF engine and the statement
table reader), so a label wrapped mid-phrase is joined the same way wherever it is read.
"""

from __future__ import annotations

import re

# a label line that stops mid-phrase: "... net of accumulated depreciation -", "... and",
# "Income before income taxes,"; the next line holds the rest of the label (and its figures)
LABEL_CARRIES_ON_RE = re.compile(
    r"(?:[,;\-–—]|\b(?:of|and|or|to|for|the|in|on|from|by|with|net|less))$", re.IGNORECASE
)
