"""Evaluation: golden questions, how retrieval is judged against them, and the reports.

``questions`` (the golden question model and its JSONL files), ``financebench`` (FinanceBench as
golden questions), ``metrics`` (MRR, nDCG, recall over covered items), ``runs`` (question × chunk
kind × setting × strategy, judged and summarized) and ``reports`` (metric tables, charts). Reads
every stage before it.
"""
