"""Shared pytest configuration: a reproducible Hypothesis profile for the property tests."""

from hypothesis import settings

# Derandomized and without the example database, so every run checks the same examples.
settings.register_profile("workbook", derandomize=True, max_examples=200, deadline=None, database=None)
settings.load_profile("workbook")
