"""Generation: answers and summaries from retrieved evidence, their citations and the models."""
