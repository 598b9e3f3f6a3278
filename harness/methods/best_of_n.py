"""``best_of_n``, ``self_consistency``, ``rear`` and ``prm``: draw N candidates, return the one a selector picks.

``--method best_of_n:n=8,selector=majority`` (or ``verifier``, an explicitly labelled
upper bound that reads the reference answer; ``rear``; ``prm``). ``self_consistency:n=8``
is majority vote over normalised answers with ties broken by the seed; ``rear:...`` and
``prm:...`` are best-of-N with that selector and its parameters at the top level. The
selectors live in their own modules (``selectors``, ``rear``, ``prm``) and import no method.
Every candidate and every reward-model call is a separate logged call of the inner adapter.
"""

from __future__ import annotations

from typing import Any

from harness.adapters.base import MethodAdapter, ModelAdapter, close_adapter
from harness.methods.logged import logged
from harness.methods.notes import note, note_selected, sample_seed
from harness.methods.params import MethodParams
from harness.methods.prm import PrmSelector
from harness.methods.rear import RearSelector
from harness.methods.sampling import sample_candidates
from harness.methods.selectors import MajoritySelector, Selector, VerifierSelector
from harness.types import GenerateRequest, Generation

SELECTORS = ("majority", "verifier", "rear", "prm")
MAX_N = 256


def build_selector(name: str, inner: ModelAdapter, params: MethodParams) -> Selector:
    """The selector called ``name``, reading its own parameters from ``params``."""
    if name == "majority":
        return MajoritySelector()
    if name == "verifier":
        return VerifierSelector()
    if name == "rear":
        return RearSelector.from_params(inner, params)
    return PrmSelector.from_params(inner, params)


class BestOfN(MethodAdapter):
    """Best-of-N: N seeded samples of the request, one returned by the selector."""

    method_name = "best_of_n"

    def __init__(self, inner: ModelAdapter, **params: Any) -> None:
        inner = logged(inner)
        super().__init__(inner, **params)
        reader = MethodParams(self.method_name, params)
        self.n = reader.integer("n", 8, minimum=1, maximum=MAX_N) or 1
        self.temperature = reader.number("temperature", None, minimum=0.0)
        self.selector = self._selector(inner, reader)
        reader.finish()
        suffix = f"[{self.selector.label}]" if self.method_name == "best_of_n" else ""
        self.name = f"{inner.name}+{self.method_name}{suffix}"

    def _selector(self, inner: ModelAdapter, reader: MethodParams) -> Selector:
        return build_selector(reader.choice("selector", "majority", SELECTORS), inner, reader)

    async def generate(self, request: GenerateRequest) -> Generation:
        """Draw N candidates and return the selected one (the others as ``alternatives``)."""
        seed = sample_seed(self.method_name)
        candidates = await sample_candidates(self.inner, request, self.n, seed, self.temperature)
        selection = await self.selector.select(request, candidates, seed)
        chosen = candidates[selection.index]
        note(
            self.method_name,
            n=self.n,
            selector=self.selector.label,
            selected=selection.index,
            upper_bound=self.selector.upper_bound,
            **selection.details,
        )
        note_selected(self.method_name, chosen)
        label = f"{chosen.model or self.inner.name} via {self.method_name}[{self.selector.label}]"
        if self.selector.upper_bound:
            label += " (UPPER BOUND: selected with the reference answer)"
        others = tuple(c.text for i, c in enumerate(candidates) if i != selection.index)
        return chosen.model_copy(update={"alternatives": others, "model": label})

    async def aclose(self) -> None:
        """Close the selector's own resources (a separate judge), then the wrapped adapter."""
        await close_adapter(self.selector)
        await super().aclose()


class SelfConsistency(BestOfN):
    """Self-consistency: majority vote over the task's normalised answers of N samples, ties by seed."""

    method_name = "self_consistency"

    def _selector(self, inner: ModelAdapter, reader: MethodParams) -> Selector:
        return MajoritySelector()


class Rear(BestOfN):
    """REAR: best-of-N with the realignment reward as the selector (``rear:n=8,lam=20``)."""

    method_name = "rear"

    def _selector(self, inner: ModelAdapter, reader: MethodParams) -> Selector:
        return RearSelector.from_params(inner, reader)


class PrmRerank(BestOfN):
    """PRM reranking: best-of-N by aggregated process rewards (``prm:n=8,aggregate=min,weighted=true``)."""

    method_name = "prm"

    def _selector(self, inner: ModelAdapter, reader: MethodParams) -> Selector:
        return PrmSelector.from_params(inner, reader)
