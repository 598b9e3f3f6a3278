"""Inference-time methods: adapters that wrap adapters (budgets, best-of-N, self-consistency, CLEAR, REAR, PRM).

Each method is built as ``Method(inner_adapter, **params)`` from ``--method name:k=v,...``;
every call it makes goes through the inner adapter, so the runner logs and costs it.
"""
