"""The footnote a statement row points to, put beside the figure read from that row.

A statement's row may carry a marker that sends the reader to a note printed under the table
(Corning's 2015 income statement: "Dividends declared per common share (1) $0.36 $0.52", and
under it "(1) The first quarter 2015 dividend was declared on December 3, 2014"): the figure
means what the note says, and a trend read from the row without it misleads (the dividend per
share did not fall; one declaration moved to the year before). The row's marker is its label's
last token, a number or a letter in parentheses or a superscript; the note is the line of the
same page that opens with that marker, read to the end of its first sentence. Hand-written:
the footnote index of ingest (``core/footnotes``) links markers in prose to their notes, and a
statement's row label is no prose sentence; this reads the one line the row points to. Plain
Python.
"""

from __future__ import annotations

import re

from rag_assets.core.text.sentences import split_sentences

# a row label's footnote marker: "(1)", "(a)", a superscript or an asterisk at its end
MARKER_RE = re.compile(r"\s*(?:\(\s*(?P<n>\d{1,2}|[a-z])\s*\)|(?P<sup>[¹²³⁴⁵⁶⁷⁸⁹*†‡]))\s*$")
MAX_NOTE_CHARS = 300


# the marker printed between a row's label and its figures: "... per common share (1) $ 0.36"
QUOTED_MARKER_RE = re.compile(r"^\s*(?:\(\s*(?P<n>\d{1,2}|[a-z])\s*\)|(?P<sup>[¹²³⁴⁵⁶⁷⁸⁹*†‡]))"
                              r"\s+(?=\$|\(?-?\d)")


def row_marker(label: str, quote: str = "") -> tuple[str, str] | None:
    """(the label without its marker, the marker) when the label ends with one, or the row as
    printed (``quote``) prints one between the label and its figures."""
    said = " ".join(label.split())
    found = MARKER_RE.search(said)
    if found is not None and found.start() > 0:
        return said[:found.start()].rstrip(), found["n"] or found["sup"]
    printed = " ".join(quote.split())
    if said and printed.lower().startswith(said.lower()):
        after = QUOTED_MARKER_RE.match(printed[len(said):])
        if after is not None:
            return said, after["n"] or after["sup"]
    return None


def row_footnote(label: str, page_text: str, quote: str = "") -> tuple[str, str, str] | None:
    """(the label without its marker, the marker, the note's first sentence as the page
    prints it) for a row whose label (or printed row, ``quote``) carries a marker the page
    opens a line with; else None."""
    marked = row_marker(label, quote)
    if marked is None:
        return None
    bare, marker = marked
    escaped = re.escape(marker)
    # a marker printed in parentheses opens its note the same way: "(1) Includes ...", never
    # a note's own heading "1. Summary of Significant Accounting Policies" (Corning's 2022 10-K,
    # whose supplemental table's "Interest (1)" is printed under that heading)
    form = (rf"\(\s*{escaped}\s*\)" if re.search(rf"\(\s*{escaped}\s*\)", f"{label} {quote}")
            else rf"(?:\({escaped}\)|{escaped}[.)]?)")
    opening = re.compile(rf"^[ \t\xa0]*{form}[ \t\xa0]+(?P<note>\S.*)$", re.MULTILINE)
    for line in opening.finditer(page_text):
        note = " ".join(line["note"].split())
        if bare.lower() in note.lower()[:len(bare) + 5]:
            continue  # the row itself, not its note
        sentences = split_sentences(note)
        if sentences:
            return bare, marker, sentences[0][:MAX_NOTE_CHARS]
    return None
