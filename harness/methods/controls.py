"""Provider reasoning controls for a token budget, expressed as request fields litellm understands.

Anthropic and Gemini take a thinking budget (``thinking.budget_tokens``, which the litellm
adapter sends from ``reasoning_budget``); OpenAI reasoning models take ``reasoning_effort``;
Qwen3 served by vLLM takes ``chat_template_kwargs.enable_thinking``. Models without a native
control are budget-forced by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ANTHROPIC_MIN_THINKING = 1024
QWEN3_MIN_THINKING = 256
EFFORT_THRESHOLDS = ((2048, "low"), (8192, "medium"))


@dataclass(frozen=True)
class Control:
    """How a budget is passed: the control's name and the request fields to set."""

    name: str
    updates: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


def _effort(tokens: int) -> str:
    for limit, effort in EFFORT_THRESHOLDS:
        if tokens <= limit:
            return effort
    return "high"


def reasoning_control(adapter_name: str, capabilities: frozenset[str], tokens: int, answer_tokens: int) -> Control:
    """The native control for ``tokens`` on the named model, or ``budget_forcing`` when it has none."""
    model = adapter_name.lower()
    thinking = tokens - answer_tokens
    native = "reasoning_budget" in capabilities
    if native and ("anthropic/" in model or "claude" in model) and thinking >= ANTHROPIC_MIN_THINKING:
        return Control("anthropic_thinking", {"reasoning_budget": thinking})
    if native and "gemini" in model and thinking > 0:
        return Control("gemini_thinking_budget", {"reasoning_budget": thinking})
    if native and ("openai/o" in model or "openai/gpt-5" in model):
        return Control("openai_reasoning_effort", extra={"reasoning_effort": _effort(tokens)})
    if "qwen3" in model:
        enable = thinking >= QWEN3_MIN_THINKING
        kwargs = {"chat_template_kwargs": {"enable_thinking": enable}}
        extra = kwargs if model.startswith("openai-compatible/") else {"extra_body": kwargs}
        return Control("qwen3_enable_thinking" if enable else "qwen3_thinking_off", extra=extra)
    return Control("budget_forcing")
