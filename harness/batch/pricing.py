"""Cost of a batched answer: litellm's batch prices where its price map has them, else half the list price."""

from __future__ import annotations

from dataclasses import dataclass

from harness.types import Usage

DOCUMENTED_DISCOUNT = 0.5
"""OpenAI's and Anthropic's batch APIs are documented at 50 % of the list price."""


@dataclass(frozen=True)
class BatchPricing:
    """Per-token USD prices of a batched request, and where they come from (``note``, said once per run)."""

    input_per_token: float
    output_per_token: float
    note: str

    def cost(self, usage: Usage) -> float | None:
        """USD for ``usage`` (output tokens include reasoning tokens, as the providers bill them); None when
        the usage is unknown (its reported counts were not believed)."""
        if usage.unknown:
            return None
        return usage.input_tokens * self.input_per_token + usage.output_tokens * self.output_per_token


def batch_pricing(model: str) -> BatchPricing | None:
    """The batch prices of litellm ``model`` (``provider/name``); None when litellm knows no price for it."""
    from harness.adapters.litellm_adapter import import_litellm

    costs = import_litellm().model_cost
    entry = costs.get(model) or costs.get(model.split("/", 1)[-1])
    if not isinstance(entry, dict):
        return None
    batch_in, batch_out = entry.get("input_cost_per_token_batches"), entry.get("output_cost_per_token_batches")
    if isinstance(batch_in, (int, float)) and isinstance(batch_out, (int, float)):
        return BatchPricing(float(batch_in), float(batch_out), f"{model}: litellm's batch prices")
    list_in, list_out = entry.get("input_cost_per_token"), entry.get("output_cost_per_token")
    if isinstance(list_in, (int, float)) and isinstance(list_out, (int, float)):
        share = DOCUMENTED_DISCOUNT
        return BatchPricing(
            float(list_in) * share,
            float(list_out) * share,
            f"{model}: {share:.0%} of litellm's list price (the providers' documented batch discount; "
            "litellm's map has no batch price for it)",
        )
    return None
