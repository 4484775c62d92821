"""Units fitted into the model's window beside the header they would open a chunk with.

A unit that fits is kept whole. A long sentence is cut at white space, each piece with the
definitions it cites where they fit (a claim keeps its footnote); a long table is cut by rows,
its title and header rows (and the caption its rows sit under) repeated in every part. A
definition is never dropped: one no piece has room for follows as a unit of its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace

from rag_assets.core.chunks.tokens import (
    TokenBudget,
    count_tokens,
    special_tokens,
    token_spans,
    word_start,
)
from rag_assets.core.chunks.units import StitchedTable, Unit
from rag_assets.core.footnotes.stitching import CITATION_RE, FOOTNOTE_BLOCK_RE, marker_of
from rag_assets.core.ingest.pages import markdown_cells
from rag_assets.core.ingest.statement_tables import (
    caption_label,
    captions_in_force,
)
from rag_assets.core.text.periods import YEAR_OR_DATE_CELL_RE


def fitted_units(
    items: Iterable[Unit | StitchedTable], header_of: Callable[[Unit], str], budget: TokenBudget
) -> Iterator[Unit]:
    """Units with their token counts, each within the body budget beside the header it would
    open a chunk with: a long sentence is cut at white space (outside its footnote blocks where
    it can be), a long table by rows with its title and header rows in every part."""
    items = list(items)
    # one batch for every sentence and every table's lead
    texts = [i.text if isinstance(i, Unit) else (i.lead.text if i.lead else "") for i in items]
    tokens = count_tokens(texts)
    special = budget.special
    for item, n in zip(items, tokens, strict=True):
        if isinstance(item, StitchedTable):
            if item.lead is not None:
                item.lead.tokens = n - special
            yield from _table_units(item, header_of, budget)
            continue
        item.tokens = n - special
        yield from _fitted(item, header_of, budget)


def _fitted(unit: Unit, header_of: Callable[[Unit], str], budget: TokenBudget) -> Iterable[Unit]:
    """A sized sentence unit within the body budget beside the header it would open a chunk
    with: whole, or cut (:func:`split_cited`)."""
    limit = budget.body(header_of(unit))
    if unit.tokens <= limit:
        yield unit
    else:
        yield from split_cited(unit, limit)


def split_cited(unit: Unit, limit: int) -> Iterable[Unit]:
    """A sentence with stitched definitions over ``limit`` tokens: its text cut into pieces, each
    as long as it can be while it and the definitions of the markers it cites fit the window
    together (a claim keeps its footnote). A definition no piece has room for, or no piece
    cites, follows as a unit of its own (cut too if it alone is longer than the window)."""
    found = list(FOOTNOTE_BLOCK_RE.finditer(unit.text))
    body = " ".join(FOOTNOTE_BLOCK_RE.sub(" ", unit.text).split())
    if not found or not body:
        yield from _split_long(unit, limit)
        return
    blocks = {m.group("marker"): m.group(0) for m in found}  # stitched order, each marker once
    special = special_tokens()
    sizes = dict(zip(blocks, (n - special for n in count_tokens(list(blocks.values()))),
                     strict=True))
    spans = token_spans(body)

    def needs(first: int, end: int) -> list[str]:
        cited = _cited_markers(body[spans[first][0]:spans[end - 1][1]])
        return [m for m in blocks if m in cited]

    def cost(first: int, end: int) -> int:
        return end - first + sum(sizes[m] for m in needs(first, end))

    placed: set[str] = set()
    first = 0
    while first < len(spans):
        if cost(first, first + 1) > limit:  # its definitions alone fill the window
            end = min(len(spans), first + limit)
            notes: list[str] = []
        else:
            lo, hi = first + 1, min(len(spans), first + limit)
            while lo < hi:  # the longest piece that fits with its definitions
                mid = (lo + hi + 1) // 2
                lo, hi = (mid, hi) if cost(first, mid) <= limit else (lo, mid - 1)
            end = word_start(spans, lo, first) if lo < len(spans) else lo
            notes = needs(first, end)
        text = " ".join([body[spans[first][0]:spans[end - 1][1]],
                         *(blocks[m] for m in notes)])
        placed.update(notes)
        yield replace(unit, text=text, tokens=count_tokens([text])[0] - special)
        first = end
    for marker, block in blocks.items():  # never dropped: on its own after the sentence
        if marker not in placed:
            note = replace(unit, text=block, tokens=sizes[marker])
            yield from (_split_long(note, limit) if sizes[marker] > limit else [note])


def _split_long(unit: Unit, limit: int) -> Iterable[Unit]:
    """A unit over ``limit`` tokens cut into pieces of at most ``limit`` tokens at white space,
    preferably outside its footnote blocks (a block longer than a window is cut too: the window
    is the hard limit)."""
    text = unit.text
    spans = token_spans(text)
    blocks = [(m.start(), m.end()) for m in FOOTNOTE_BLOCK_RE.finditer(text)]
    first = 0
    while first < len(spans):
        end = min(len(spans), first + limit)
        if end < len(spans):
            cut = word_start(spans, end, first)
            # step back to the start of a block the cut falls in, when that leaves something
            for lo, hi in blocks:
                if spans[first][0] < lo < spans[cut][0] < hi:
                    inside = next((i for i in range(first + 1, cut) if spans[i][0] >= lo), None)
                    if inside is not None:
                        cut = inside
            end = cut
        piece = text[spans[first][0]:spans[end - 1][1]].strip()
        yield replace(unit, text=piece, tokens=end - first)
        first = end


def _table_units(
    table: StitchedTable, header_of: Callable[[Unit], str], budget: TokenBudget
) -> Iterable[Unit]:
    """A table whole with its notes; a long one by rows, its title and header rows repeated in
    every part, each part with the notes its rows (or header) cite. Notes that do not fit beside
    the rows follow as units of their own. A part that starts under a caption row ("Operating
    profit:" over the segments' rows again) repeats that caption first, so its rows keep what
    they measure; a caption is never left as a part's last row."""
    head_count = 2 + _header_rows(table.lines[2:])  # markdown header, separator, header rows
    head = [*([table.title] if table.title else []), *table.lines[:head_count]]
    rows = table.lines[head_count:]
    probe = Unit("", table.page, table.section, table=True, title=table.title)
    limit = budget.body(header_of(probe))
    special = budget.special
    row_tokens = [n - special for n in count_tokens(rows)] if rows else []
    head_tokens = count_tokens(["\n".join(head)])[0] - special
    note_tokens = [n - special for n in count_tokens(table.notes)] if table.notes else []

    def unit(lines: list[str], tokens: int) -> Unit:
        return replace(probe, text="\n".join(lines), tokens=tokens)

    lead = table.lead  # sized by fitted_units
    if lead is not None and lead.tokens + head_tokens + (row_tokens[0] if rows else 0) > limit:
        # no room beside the head and a first row: the lead goes before it, as printed
        yield from _fitted(replace(lead), header_of, budget)
        lead = None
    lead_tokens = lead.tokens if lead is not None else 0
    lead_lines = [lead.text] if lead is not None else []
    if lead_tokens + head_tokens + sum(row_tokens) + sum(note_tokens) <= limit:
        yield unit([*lead_lines, *head, *rows, *table.notes],
                   lead_tokens + head_tokens + sum(row_tokens) + sum(note_tokens))
        return
    markers = [FOOTNOTE_BLOCK_RE.fullmatch(note) for note in table.notes]
    head_cites = _cited_markers("\n".join(head))
    row_cites = [_cited_markers(row) for row in rows]

    note_cites = {m.group("marker"): _cited_markers(m.group("text")) for m in markers if m}

    def notes_for(cites: set[str]) -> int:
        """Tokens of the notes ``cites`` needs, and of the notes those notes cite."""
        needed, todo = set(), list(cites)
        while todo:
            marker = todo.pop()
            if marker in note_cites and marker not in needed:
                needed.add(marker)
                todo += note_cites[marker]
        return sum(n for m, n in zip(markers, note_tokens, strict=True)
                   if m and m.group("marker") in needed)

    cells = [markdown_cells(row) for row in rows]
    in_force = captions_in_force(cells)
    caption_rows = [i for i, c in enumerate(cells) if caption_label(c) is not None]
    reserve = max((row_tokens[i] for i in caption_rows), default=0)  # room for a carried one
    parts: list[list[int]] = [[]]
    used, cites = lead_tokens + head_tokens, set(head_cites)
    for i, n in enumerate(row_tokens):  # a part's rows and the notes they cite fit together
        grown = cites | row_cites[i]
        if parts[-1] and used + n + notes_for(grown) > limit:
            parts.append([])
            used, grown = head_tokens + reserve, head_cites | row_cites[i]
        parts[-1].append(i)
        used, cites = used + n, grown
    for p in range(len(parts) - 1):  # a caption ending a part goes with the rows it heads
        while len(parts[p]) > 1 and parts[p][-1] in caption_rows:
            parts[p + 1].insert(0, parts[p].pop())

    def carried(part: list[int]) -> list[int]:
        """The caption row the part's first row is printed under, when the part lacks it."""
        if not part or not in_force[part[0]]:
            return []
        return [max(c for c in caption_rows if c < part[0])]

    placed: set[int] = set()
    for number, part in enumerate(parts):
        part = [*carried(part), *part] if number else part
        opening = lead_lines if number == 0 else []  # the lead opens the first part only
        lines = [*opening, *head, *(rows[i] for i in part)]
        used = (lead_tokens if number == 0 else 0) + head_tokens + sum(row_tokens[i] for i in part)
        cited = _cited_markers("\n".join(lines))
        chosen: list[str] = []
        for i, note in enumerate(table.notes):  # notes in citation order; a note may cite one
            match = FOOTNOTE_BLOCK_RE.fullmatch(note)
            last = number == len(parts) - 1 and i not in placed
            wanted = (match and match.group("marker") in cited) or last
            if wanted and i not in placed and used + note_tokens[i] <= limit:
                chosen.append(note)
                placed.add(i)
                used += note_tokens[i]
                cited |= _cited_markers(match.group("text")) if match else set()
        if not part and not chosen:
            continue
        piece = unit([*lines, *chosen], used)
        if used > limit:  # one row longer than the window: cut it as text
            yield from _split_long(replace(piece, table=False), limit)
        else:
            yield piece
    for i, note in enumerate(table.notes):  # notes no part had room for: never dropped
        if i not in placed:
            note_unit = replace(probe, text=note, tokens=note_tokens[i], table=False)
            yield from (_split_long(note_unit, limit) if note_tokens[i] > limit
                        else [note_unit])


def _header_rows(rows: Sequence[str]) -> int:
    """Rows under the markdown header that are header rows too: years and dates, or words
    without figures over them ("| | 2022 | 2021 |" under "| $ in millions | Fiscal Years Ended
    |"); a row with any other figure, or a label alone, is a body row."""
    count = 0
    for row in rows[:2]:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        filled = [c for c in cells if c]
        years = [c for c in filled if YEAR_OR_DATE_CELL_RE.match(c)]
        others = [c for c in filled if not YEAR_OR_DATE_CELL_RE.match(c)]
        if not years or any(re.search(r"\d", c) for c in others):
            break
        count += 1
    return count


def _cited_markers(text: str) -> set[str]:
    return {found[0] for m in CITATION_RE.finditer(text) if (found := marker_of(m))}
