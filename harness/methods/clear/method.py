"""``clear:budget=B``: CLEAR over a batch, each sample then run within its allocated tokens.

The runner (or the caller) first hands the whole batch to ``plan(samples)``; thresholds
τ̂ are predicted for every sample, the global budget B is allocated (CLEAR, or a baseline
for comparison), and each sample's generation is then held to its allocation by the same
enforcement as ``budget:tokens=N`` (native reasoning controls, else budget forcing).
Abandoned samples (zero tokens) make no call and return an empty answer.

Parameters: ``budget`` (total tokens, required), ``allocator`` (clear, uniform, proportional),
``family`` (surge: ``alpha``, ``beta``; exponential: ``ceiling``, ``rate``), ``tau`` (how τ̂ is
predicted: ``length`` = ``tau_scale`` × prompt words; ``metadata:KEY``; ``file:PATH``, a JSON
object from sample id to τ̂), ``window`` (allocate in arrival windows of this many samples,
λ carried over) and ``answer_tokens`` (reserved for a forced answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from harness.adapters.base import MethodAdapter, ModelAdapter
from harness.context import active_sample
from harness.errors import ConfigError
from harness.json_input import JsonInputError, read_json
from harness.methods.budget import BudgetEnforcer
from harness.methods.logged import logged
from harness.methods.notes import note
from harness.methods.params import MethodParams
from harness.types import GenerateRequest, Generation, Sample

DEFAULT_ALPHA, DEFAULT_BETA = 0.9 / 500**2, 1 / 500


MAX_TAU_FILE_BYTES = 256 * 1024 * 1024
"""The largest τ file read (a sample id and a number per entry: far beyond any real one)."""


class TauPredictor:
    """Predicts each sample's emergence threshold τ̂ (tokens) from the prompt, its metadata or a file."""

    def __init__(self, spec: str, scale: float) -> None:
        kind, _, argument = spec.partition(":")
        if kind not in ("length", "metadata", "file") or (kind != "length" and not argument):
            raise ConfigError(f"method clear: parameter 'tau' must be length, metadata:KEY or file:PATH, got {spec!r}")
        self.kind, self.argument, self.scale = kind, argument, scale
        self.table: dict[str, Any] = {}
        if kind == "file":
            try:
                self.table = read_json(Path(argument), MAX_TAU_FILE_BYTES)
            except JsonInputError as exc:
                raise ConfigError(f"method clear: parameter 'tau': {exc}") from None
            if not isinstance(self.table, dict):
                raise ConfigError(f"method clear: tau file {argument} must hold a JSON object of sample id -> tokens")

    def predict(self, sample: Sample) -> float:
        """τ̂ for ``sample``; ConfigError when the predictor has no value for it."""
        if self.kind == "length":
            return self.scale * sum(len((m.content or "").split()) for m in sample.messages())
        source = sample.metadata if self.kind == "metadata" else self.table
        where = f"metadata key {self.argument!r}" if self.kind == "metadata" else f"tau file {self.argument}"
        raw = source.get(self.argument if self.kind == "metadata" else sample.id)
        unusable = ConfigError(f"method clear: no usable τ for sample {sample.id!r} in {where} (got {raw!r})")
        if not isinstance(raw, (int, float, str)):
            raise unusable
        try:
            value = float(raw)
        except ValueError:
            raise unusable from None
        if not (value >= 0 and np.isfinite(value)):
            raise ConfigError(f"method clear: τ for sample {sample.id!r} in {where} must be >= 0, got {value}")
        return value


def _family(reader: MethodParams) -> Any:
    from harness.methods.clear.utility import SaturatingExponential, ShiftedSurge

    name = reader.choice("family", "surge", ("surge", "exponential"))
    if name == "surge":
        alpha = reader.number("alpha", DEFAULT_ALPHA, minimum=0.0, strict_minimum=True)
        beta = reader.number("beta", DEFAULT_BETA, minimum=0.0, strict_minimum=True)
        return ShiftedSurge(float(alpha or DEFAULT_ALPHA), float(beta or DEFAULT_BETA))
    ceiling = reader.number("ceiling", 0.9, minimum=0.0, maximum=1.0, strict_minimum=True)
    rate = reader.number("rate", 1 / 500, minimum=0.0, strict_minimum=True)
    return SaturatingExponential(float(ceiling or 0.9), float(rate or 1 / 500))


class Clear(MethodAdapter):
    """CLEAR's global token allocation over a planned batch, then per-sample budget enforcement."""

    method_name = "clear"

    def __init__(self, inner: ModelAdapter, **params: Any) -> None:
        inner = logged(inner)
        super().__init__(inner, **params)
        reader = MethodParams(self.method_name, params)
        budget = reader.integer("budget", None, minimum=0)
        if budget is None:
            raise ConfigError("method clear: parameter 'budget' (total tokens over the batch) is required")
        self.budget = budget
        self.allocator = reader.choice("allocator", "clear", ("clear", "uniform", "proportional"))
        self.family = _family(reader)
        self.tau = TauPredictor(
            reader.text("tau", "length") or "length", reader.number("tau_scale", 4.0, minimum=0.0) or 0.0
        )
        self.window = reader.integer("window", None, minimum=1)
        answer_tokens = reader.integer("answer_tokens", 64, minimum=0) or 0
        reader.finish()
        self.enforcer = BudgetEnforcer(inner, answer_tokens, self.method_name)
        self.allocation: dict[str, tuple[int, float]] = {}
        self.lam: float | None = None
        if self.allocator != "clear":
            self.name = f"{inner.name}+{self.method_name}[{self.allocator}]"

    def allocate(self, taus: np.ndarray) -> np.ndarray:
        """Whole-token budgets for predicted thresholds ``taus`` under the chosen allocator."""
        from harness.methods.clear.baselines import ALLOCATORS
        from harness.methods.clear.solver import Curves, allocate
        from harness.methods.clear.stream import allocate_stream

        curves = Curves.of(taus, self.family)
        if self.allocator != "clear":
            return ALLOCATORS[self.allocator](curves, self.budget)
        if self.window:
            windows = [Curves.of(taus[i : i + self.window], self.family) for i in range(0, len(taus), self.window)]
            streamed = allocate_stream(windows, self.budget)
            self.lam = streamed.prices[-1] if streamed.prices else None
            return streamed.budgets
        result = allocate(curves, self.budget)
        self.lam = result.lam
        return result.budgets

    async def plan(self, samples: Sequence[Sample], task: Any = None) -> None:
        """Predict τ̂ for the whole batch and allocate the global budget across it."""
        taus = np.array([self.tau.predict(s) for s in samples], dtype=float)
        budgets = self.allocate(taus) if len(samples) else np.zeros(0, dtype=np.int64)
        self.allocation = {s.id: (int(b), float(t)) for s, b, t in zip(samples, budgets, taus, strict=False)}

    async def generate(self, request: GenerateRequest) -> Generation:
        """Generate within the sample's allocation; an abandoned sample makes no call."""
        context = active_sample()
        if context is None or context.sample.id not in self.allocation:
            which = "outside a run" if context is None else f"for sample {context.sample.id!r}"
            raise ConfigError(
                f"clear: no allocation {which}; the batch must be planned first "
                "(the runner calls plan(samples) before generating)"
            )
        tokens, tau = self.allocation[context.sample.id]
        note(
            self.method_name,
            allocated=tokens,
            tau_hat=tau,
            allocator=self.allocator,
            price=self.lam,
            abandoned=tokens == 0,
        )
        if tokens == 0:
            return Generation(text="", finish_reason="abandoned", cost_usd=0.0)
        return await self.enforcer.generate(request, tokens)
