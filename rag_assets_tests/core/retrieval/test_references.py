"""References and citation scores: every written form of a reference gets one key on both sides,
positions are real, ordinary prose yields nothing, and the scores follow the documented formula."""

from __future__ import annotations

import math

import pytest

from rag_assets.core.retrieval.references import (
    blend_scores,
    citation_scores,
    find_references,
    normalize_reference,
)

GDPR_6 = (
    "Processing shall be lawful only if and to the extent that at least one of the following "
    "applies: the data subject has given consent as referred to in point (a) of Article 6(1)."
)


@pytest.mark.parametrize(
    ("key", "forms"),
    [
        ("article 6(1)", ["Art. 6(1)", "Article 6(1)", "article 6 paragraph 1", "Article 6 (1)",
                          "ARTICLE 6(1)", "paragraph 1 of Article 6", "Art. 6.1"]),
        ("article 9(2)(a)", ["Art. 9(2)(a)", "Article 9(2)(a)", "point (a) of Article 9(2)",
                             "Article 9 paragraph 2 point (a)",
                             "point (a) of paragraph 2 of Article 9"]),
        ("section 4", ["§ 4", "§4", "Section 4", "Sec. 4", "section 4."]),
        ("note 12", ["Note 12", "note 12"]),
        ("note 1m", ["Note 1M"]),
        ("recital 47", ["Recital 47", "recital (47)"]),
        ("item 7a", ["Item 7A", "item 7a"]),
        ("item 1a", ["Item 1A"]),
        ("footnote [3]", ["[3]"]),
        ("footnote [12]", ["[12]"]),
        ("chapter 3", ["Chapter III", "Chapter 3"]),
        ("rule 10b-5", ["Rule 10b-5"]),
    ],
)
def test_every_written_form_normalizes_to_one_key(key: str, forms: list[str]) -> None:
    assert {f: normalize_reference(f) for f in forms} == dict.fromkeys(forms, key)


@pytest.mark.parametrize(
    "raw",
    ["the article says", "section of the report", "a note on", "Chapter", "chapter I wrote",
     "[2018]", "[1234]", "[a]", "(1)", "Article", "Items", "Articles 15 to 22", ""],
)
def test_non_references_and_multiple_references_normalize_to_none(raw: str) -> None:
    assert normalize_reference(raw) is None


def test_ranges_and_lists_expand_with_the_span_of_the_whole_phrase() -> None:
    text = "Rights under Articles 15 to 22 apply."
    refs = find_references(text)
    assert [r.key for r in refs] == [f"article {n}" for n in range(15, 23)]
    assert {(r.start, r.end, r.raw) for r in refs} == {(13, 30, "Articles 15 to 22")}
    assert text[13:30] == "Articles 15 to 22"

    def keys(t: str) -> list[str]:
        return [r.key for r in find_references(t)]

    assert keys("Articles 13 and 14") == ["article 13", "article 14"]
    assert keys("Articles 13, 14 and 15") == ["article 13", "article 14", "article 15"]
    assert keys("Notes 4 and 5") == ["note 4", "note 5"]
    assert keys("§§ 4-6") == ["section 4", "section 5", "section 6"]
    assert keys("Items 7 and 7A") == ["item 7", "item 7a"]
    assert keys("Articles 6(1) and 9(2)") == ["article 6(1)", "article 9(2)"]
    # a singular keyword does not start a list: "15(d)" alone is no reference
    assert keys("Section 13 or 15(d) of the Exchange Act") == ["section 13"]


def test_positions_are_real_and_in_order() -> None:
    text = ("Revenue[3] rose, see Note 1M and Item 7A; under Art. 9(2)(a) and recital (47), "
            "§4 applies [12].")
    refs = find_references(text)
    assert [(r.key, r.raw) for r in refs] == [
        ("footnote [3]", "[3]"),
        ("note 1m", "Note 1M"),
        ("item 7a", "Item 7A"),
        ("article 9(2)(a)", "Art. 9(2)(a)"),
        ("recital 47", "recital (47)"),
        ("section 4", "§4"),
        ("footnote [12]", "[12]"),
    ]
    assert all(text[r.start:r.end] == r.raw for r in refs)
    assert [r.start for r in refs] == sorted(r.start for r in refs)
    assert {r.kind for r in refs} == {"footnote", "note", "item", "article", "recital", "section"}


def test_no_false_positives_in_ordinary_prose() -> None:
    prose = (
        "The article says that a section of the report contains a note on revenue. Chapter "
        "summaries follow. In 2018 [2018] revenue rose (1) and costs fell [a] by [1234] units. "
        "Items were sold, notes were issued, and the rules apply to each item in this chapter. "
        "See the articles of association (a) and (ii) for details."
    )
    assert find_references(prose) == []


def test_gdpr_point_of_article_is_one_child_reference() -> None:
    (ref,) = find_references(GDPR_6)
    assert (ref.key, ref.raw) == ("article 6(1)(a)", "point (a) of Article 6(1)")
    assert GDPR_6[ref.start:ref.end] == ref.raw


def test_hand_computed_citation_score() -> None:
    # question content words: processing, lawful ("is", "under" are stop words)
    # text content words: covers, consent, processing ("and" is a stop word)
    # exact = 1; context = cos({processing, lawful}, {covers, consent, processing}) = 1/sqrt(6)
    # proximity: "Article 6(1)" ends at 12, "processing" starts at 32: 1 - 20/100 = 0.8
    text = "Article 6(1) covers consent and processing."
    (score,) = citation_scores("Is processing lawful under Article 6(1)?", [text], window=100)
    per_reference = 0.4 * 1.0 + 0.3 / math.sqrt(6) + 0.3 * 0.8
    assert score.exact == 1.0
    assert score.context == pytest.approx(1 / math.sqrt(6))
    assert score.proximity == pytest.approx(0.8)
    assert score.score == pytest.approx(per_reference)  # one reference: 0.7 s + 0.3 s
    assert score.score == pytest.approx(0.7624745, abs=1e-6)


def test_aggregate_is_07_mean_plus_03_max_over_question_references() -> None:
    text = "Article 6(1) covers consent and processing."
    question = "Is processing lawful under Article 6(1) or Article 7?"
    (score,) = citation_scores(question, [text], window=100)
    s = 0.4 + 0.3 / math.sqrt(6) + 0.3 * 0.8  # Article 6(1), as above; Article 7 scores 0
    assert score.score == pytest.approx(0.7 * (s + 0.0) / 2 + 0.3 * s)
    assert score.exact == pytest.approx(0.5)  # mean of 1 and 0
    assert score.proximity == pytest.approx(0.4)


def test_text_citing_the_asked_article_outranks_a_neighbouring_article() -> None:
    question = "What does Article 6(1) require for lawful processing?"
    texts = [
        "Article 7 sets the conditions for consent to processing being lawful.",
        "Under Article 6(1), processing is lawful only if one of the conditions applies.",
    ]
    wrong, right = citation_scores(question, texts)
    assert right.score > wrong.score
    assert (wrong.exact, wrong.context, wrong.proximity, wrong.score) == (0.0, 0.0, 0.0, 0.0)
    assert right.exact == 1.0


def test_parent_and_child_references_score_half_exact() -> None:
    (parent,) = citation_scores("Is consent under Article 6(1) enough?", ["Article 6 governs."])
    (child,) = citation_scores("What does Article 9(2) allow?", ["Article 9(2)(a) allows it."])
    (gdpr,) = citation_scores("When is processing lawful under Article 6(1)?", [GDPR_6])
    (sibling,) = citation_scores("What does Article 6(1) say?", ["Article 6(4) and Article 60."])
    assert (parent.exact, child.exact, gdpr.exact, sibling.exact) == (0.5, 0.5, 0.5, 0.0)
    assert gdpr.context > 0 and gdpr.proximity > 0


def test_question_without_references_scores_all_zeros() -> None:
    texts = ["Article 6(1) covers consent.", "Processing is lawful.", ""]
    scores = citation_scores("When is processing lawful?", texts)
    assert len(scores) == 3
    assert all((s.exact, s.context, s.proximity, s.score) == (0, 0, 0, 0) for s in scores)


def test_footnote_markers_match_between_question_and_text() -> None:
    texts = ["Adjusted EBITDA[3] excludes restructuring.", "Adjusted EBITDA[4] is shown."]
    with_marker, other = citation_scores("What does footnote [3] exclude from EBITDA?", texts)
    assert with_marker.exact == 1.0 and with_marker.score > 0.4
    assert other.score == 0.0


def test_blend_scores_min_max_scales_first_stage_then_weights() -> None:
    assert blend_scores([2.0, 4.0, 6.0], [1.0, 0.0, 0.0], weight=0.5) == pytest.approx(
        [0.5, 0.25, 0.5])
    assert blend_scores([-3.0, 7.0], [0.2, 0.4]) == pytest.approx([0.06, 0.82])
    assert blend_scores([0.7, 0.7], [0.0, 1.0], weight=0.3) == pytest.approx([0.7, 1.0])
    assert blend_scores([1.0, 3.0], [1.0, 0.0], weight=0.0) == pytest.approx([0.0, 1.0])
    assert blend_scores([], []) == []


@pytest.mark.parametrize(("first", "cited", "weight"), [([1.0], [], 0.3), ([1.0], [1.0], 1.5)])
def test_blend_scores_rejects_bad_input(first: list[float], cited: list[float],
                                        weight: float) -> None:
    with pytest.raises(ValueError):
        blend_scores(first, cited, weight)
