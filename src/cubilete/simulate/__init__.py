"""Simulation: many games over a process pool, and the compiled batches of table-driven bots."""
