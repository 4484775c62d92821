"""Language models: the OpenAI-compatible client with its settings, and the prompts by name.

The base of the stages that may use a model (the model stitcher in ``footnotes``, answers and
summaries in ``generation``); it imports nothing else of the project.
"""
