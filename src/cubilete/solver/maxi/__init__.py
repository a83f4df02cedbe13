"""Maxi Yatzy's big tables: the layered solver and the capped saved-throws solve, and their advice."""
