"""A question read once: its years, quarters, filing kinds, metrics, intent and the documents
it names (:mod:`question`), from the one finance vocabulary (:mod:`vocabulary`), the intent
lexicon (:mod:`intents`), the instructions it carries (:mod:`instructions`) and the indexed
documents' profiles (:mod:`companies`)."""
