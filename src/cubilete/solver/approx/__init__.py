"""Approximate futures: a one-turn search, a quick estimate, a many-column sheet by its columns."""
