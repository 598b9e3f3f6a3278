"""Leaderboard: submissions from runs, validation, aggregation, Pareto frontiers, plots and a static site.

This package reads only the run format (``config.json``, ``samples.jsonl``, ``summary.json``)
and the submission format (``schema/submission-v1.json``); from the harness it imports
nothing but the record types in ``harness.types``.
"""
