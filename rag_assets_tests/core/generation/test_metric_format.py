"""How a computed answer writes a dollar amount's move."""

from __future__ import annotations

from rag_assets.core.generation.metric_format import dollars_moved


def test_a_dollar_move_is_said_as_md_and_a_says_it() -> None:
    """Costco's SG&A, Q3 fiscal 2023 release (p.3: 4,450 to 4,794 million: up $344 million,
    7.7%); General Mills' fiscal 2015 restructuring costs ($3.6 million to $543.9 million): a
    move larger than what it moved from has no percentage when asked so; a statement in
    thousands (Netflix's 2015 marketing, 607,186 to 824,092) said in millions to one decimal;
    nothing from a credit, or for no move."""
    assert dollars_moved(4450e6, 4794e6, "millions") == "rose $344 million (7.7%)"
    assert dollars_moved(543.9e6, 3.6e6, "millions") == "fell $540.3 million (99.3%)"
    assert dollars_moved(3.6e6, 543.9e6, "millions", whole_share_only=True) == \
        "rose $540.3 million"
    assert dollars_moved(607_186e3, 824_092e3, None, 1) == "rose $216.9 million (35.7%)"
    # Netflix's long-term debt, 2014 to 2015 ($885.8 to $2,371.4 million): more than doubled,
    # said as a multiple too; a move short of doubling is not
    assert dollars_moved(885.849e6, 2371.362e6, "millions", 3) == \
        "rose $1,485.513 million (167.7%; 2.7x)"
    assert dollars_moved(100e6, 199e6, "millions") == "rose $99 million (99.0%)"
    assert dollars_moved(-194.1e6, 53.5e6, "millions") == ""
    assert dollars_moved(10e6, 10e6, "millions") == ""
