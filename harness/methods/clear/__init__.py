"""CLEAR: Constrained Latent-utility Equilibrium Allocation for Reasoning.

A global token budget is split across a batch of queries by a shadow price λ that
equalises marginal utility across funded queries (``solver``), under a pluggable
per-query utility family (``utility``); ``baselines`` holds uniform, proportional and
oracle allocations, ``stream`` the window-by-window variant, ``calibrate`` the fit of
the shared parameters, and ``method`` the adapter that runs a batch under the plan.
"""
