"""The one grammar of a report's text: sentences, note markers, figures and superscripts,
years, periods and filing kinds.

Stitching, chunking, evidence, the statement reader and the PDF reader read text with these
rules, so that they agree on what a sentence, a marker or a figure is."""
