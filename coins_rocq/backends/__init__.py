"""Prover backends: the persistent ``coqtop`` pool and the one-file-per-check ``coqc`` reference."""

from coins_rocq.backends.base import ALLOWED_AXIOMS, JobResult, Limits, ObligationResult, SpecJob
from coins_rocq.backends.coqc import CoqcBackend
from coins_rocq.backends.coqtop import CoqtopPool

__all__ = ["ALLOWED_AXIOMS", "CoqcBackend", "CoqtopPool", "JobResult", "Limits", "ObligationResult", "SpecJob"]
