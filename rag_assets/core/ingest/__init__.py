"""Ingest: a report file in, ``Page`` records out, and what the pages say about the document.

The page models (``pages``), the layout facts every loader reads (``layout``), the PDF engine
(``pdf``) and the loader per file kind (``documents``); the report tree and change detection
(``catalog``); what each 10-K page is (``statements``) and whose statements it prints
(``entities``: an investee's are not the registrant's); the document's profile from its cover
(``routing``: aliases and years, which retrieval routes by) and the facts a chunk header carries
(``context``). ``routing`` sits here, not under retrieval, because its profiles are read from the
document at ingest and ``context`` builds the chunk header from them; retrieval only applies them.
"""
