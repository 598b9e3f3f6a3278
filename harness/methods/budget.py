"""``budget:tokens=N``: a per-sample token budget, passed to the model's reasoning controls and enforced.

The budget covers every call of the sample. Each call gets ``max_tokens`` = what is left,
with the provider's native reasoning control when the model has one (see ``controls``).
When a call is cut off by the limit, the budget is forced: the reasoning is ended and the
model is asked for its final answer within the tokens reserved for it (``answer_tokens``).
Requested and used tokens are recorded in the sample's notes.
"""

from __future__ import annotations

from typing import Any

from harness.adapters.base import MethodAdapter, ModelAdapter
from harness.context import active_sample, labelled_calls
from harness.errors import ConfigError
from harness.methods.controls import reasoning_control
from harness.methods.logged import logged
from harness.methods.notes import method_data, note
from harness.methods.params import MethodParams
from harness.types import GenerateRequest, Generation, Message, Usage

FORCE_PROMPT = (
    "Your token budget is used up. Stop reasoning now and give your final answer, "
    "in exactly the format the task asked for."
)


def _charged(generation: Generation, asked: int) -> int:
    """The output tokens a call costs the budget: as reported, or all it was allowed (``asked``) when its
    reported usage was not believed (:class:`~harness.types.Usage` ``unknown``)."""
    return asked if generation.usage.unknown else generation.usage.output_tokens


class BudgetEnforcer:
    """Spends at most ``tokens`` output tokens per sample on ``inner``, forcing an answer when cut off."""

    def __init__(self, inner: ModelAdapter, answer_tokens: int, method: str) -> None:
        self.inner = inner
        self.answer_tokens = answer_tokens
        self.method = method

    def _state(self) -> dict[str, Any]:
        context = active_sample()
        return {} if context is None else dict(method_data(context).get(self.method, {}))

    def _spent(self) -> int:
        return int(self._state().get("used", 0))

    async def generate(self, request: GenerateRequest, tokens: int) -> Generation:
        """One call of the sample within what is left of ``tokens``."""
        left = tokens - self._spent()
        if left <= 0:
            note(self.method, requested=tokens, exhausted=True)
            return Generation(text="", finish_reason="budget_exhausted", usage=Usage(), cost_usd=0.0)
        reserve = min(self.answer_tokens, left // 2)
        control = reasoning_control(self.inner.name, self.inner.capabilities, left, reserve)
        first = request.model_copy(
            update={"max_tokens": left - reserve, **control.updates, "extra": {**request.extra, **control.extra}}
        )
        generation = await self.inner.generate(first)
        used = _charged(generation, left - reserve)
        forced = False
        if generation.finish_reason == "length" and reserve > 0 and not generation.tool_calls:
            forced = True
            follow_up = request.model_copy(
                update={
                    "messages": (
                        *request.messages,
                        Message(role="assistant", content=generation.text),
                        Message(role="user", content=FORCE_PROMPT),
                    ),
                    "max_tokens": reserve,
                    "tools": (),
                    "tool_choice": None,
                    "reasoning_budget": None,
                }
            )
            with labelled_calls("budget_force"):
                answer = await self.inner.generate(follow_up)
            used += _charged(answer, reserve)
            generation = generation.model_copy(
                update={
                    "text": f"{generation.text}\n{answer.text}".strip(),
                    "finish_reason": answer.finish_reason,
                    "usage": generation.usage + answer.usage,
                }
            )
        note(
            self.method,
            requested=tokens,
            used=self._spent() + used,
            control=control.name,
            forced=forced or bool(self._state().get("forced")),
        )
        return generation


class TokenBudget(MethodAdapter):
    """A per-sample token budget (``budget:tokens=N[,answer_tokens=64]``)."""

    method_name = "budget"

    def __init__(self, inner: ModelAdapter, **params: Any) -> None:
        inner = logged(inner)
        super().__init__(inner, **params)
        reader = MethodParams(self.method_name, params)
        self.tokens = reader.integer("tokens", None, minimum=1)
        if self.tokens is None:
            reader.finish()
            raise ConfigError("method budget: parameter 'tokens' is required (budget:tokens=N)")
        answer_tokens = reader.integer("answer_tokens", 64, minimum=0) or 0
        reader.finish()
        self.enforcer = BudgetEnforcer(inner, answer_tokens, self.method_name)

    async def generate(self, request: GenerateRequest) -> Generation:
        """Generate within what is left of the sample's budget."""
        return await self.enforcer.generate(request, self.tokens or 0)
