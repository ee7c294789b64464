"""Tournaments: formats, entries, rounds, standings and ratings (see issue: Tournaments)."""
