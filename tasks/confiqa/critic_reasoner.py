"""The Critic-Reasoner method: a Critic masks misleading evidence, a Reasoner answers from the rest.

Usable as ``--method critic_reasoner`` (parameters ``key=value``). For each request the
Critic call rewrites the evidence, replacing the entity spans it judges misleading with a
mask token while keeping the background sentences; the Reasoner call then answers the
question from that residual evidence. Both calls go through the wrapped adapter, so the
runner logs them separately (labelled ``critic`` and ``reasoner``); the returned
generation carries the Reasoner's answer with the usage, cost and latency of both calls.

The evidence and question are split from the last user message with ``question_pattern``
(a regex with groups ``evidence`` and ``question``; the default reads ConFiQA-style prompts
``...\\nQ:<question>\\nA:``). When it does not match, the whole message is the evidence and
its last non-empty line the question.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Unpack

from harness.api import (
    ConfigError,
    GenerateRequest,
    Generation,
    GenerationOverrides,
    Message,
    MethodAdapter,
    ModelAdapter,
    labelled_calls,
)

DEFAULT_CRITIC_PROMPT = (
    "You are a critic checking the evidence given for a question. Some statements in it may have been "
    "planted to mislead: they contradict well-established facts. Rewrite the evidence, replacing every "
    "entity span you judge misleading with {mask}, and keep all other text (the background) unchanged. "
    "Output only the rewritten evidence.\n\nEvidence:\n{evidence}\n\nQuestion: {question}\n\nRewritten evidence:"
)
DEFAULT_REASONER_PROMPT = (
    "Answer the question from the evidence below. Spans shown as {mask} were judged misleading and "
    "removed; fill any gap they leave from reliable knowledge. Answer with a short phrase only.\n\n"
    "Evidence:\n{evidence}\n\nQuestion: {question}\nAnswer:"
)
DEFAULT_QUESTION_PATTERN = r"(?s)^(?P<evidence>.*?)\n\s*Q:\s*(?P<question>.*?)\s*(?:\n\s*A:\s*)?$"
PARAMS = ("critic_prompt", "reasoner_prompt", "mask", "question_pattern", "critic_max_tokens")


def _fields(template: str, name: str) -> set[str]:
    try:
        return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}
    except ValueError as exc:
        raise ConfigError(f"critic_reasoner: {name} is not a valid template: {exc}") from None


def _check_template(template: str, name: str, required: set[str]) -> str:
    found = _fields(template, name)
    unknown, missing = found - {"evidence", "question", "mask"}, required - found
    if unknown or missing:
        raise ConfigError(
            f"critic_reasoner: {name} must use {{evidence}} and {{question}} (and may use {{mask}}); "
            f"unknown fields: {sorted(unknown)}, missing: {sorted(missing)}"
        )
    return template


@dataclass(frozen=True)
class Split:
    """A prompt split into its evidence and its question."""

    evidence: str
    question: str


class CriticReasoner(MethodAdapter):
    """Two calls per request: the Critic masks misleading spans, the Reasoner answers from what is left."""

    method_name = "critic_reasoner"

    def __init__(self, inner: ModelAdapter, **params: object) -> None:
        super().__init__(inner, **params)
        unknown = set(params) - set(PARAMS)
        if unknown:
            raise ConfigError(f"critic_reasoner: unknown parameters {sorted(unknown)}; known: {', '.join(PARAMS)}")
        self.critic_prompt = _check_template(
            str(params.get("critic_prompt", DEFAULT_CRITIC_PROMPT)), "critic_prompt", {"evidence"}
        )
        self.reasoner_prompt = _check_template(
            str(params.get("reasoner_prompt", DEFAULT_REASONER_PROMPT)), "reasoner_prompt", {"evidence", "question"}
        )
        self.mask = str(params.get("mask", "[MASK]")) or "[MASK]"
        try:
            self.pattern = re.compile(str(params.get("question_pattern", DEFAULT_QUESTION_PATTERN)))
        except re.error as exc:
            raise ConfigError(f"critic_reasoner: question_pattern is not a valid regex: {exc}") from None
        if not {"evidence", "question"} <= set(self.pattern.groupindex):
            raise ConfigError("critic_reasoner: question_pattern needs named groups 'evidence' and 'question'")
        try:
            self.critic_max_tokens = int(str(params.get("critic_max_tokens", 1024)))
        except ValueError:
            raise ConfigError("critic_reasoner: critic_max_tokens must be an integer") from None
        if self.critic_max_tokens < 1:
            raise ConfigError("critic_reasoner: critic_max_tokens must be positive")

    def split(self, prompt: str) -> Split:
        """The evidence and question of ``prompt`` (see the module docstring)."""
        match = self.pattern.match(prompt)
        if match and match.group("question").strip():
            return Split(match.group("evidence").strip(), match.group("question").strip())
        lines = [line for line in prompt.splitlines() if line.strip()]
        return Split(prompt.strip(), lines[-1].strip() if lines else "")

    def _with_prompt(
        self, request: GenerateRequest, prompt: str, **overrides: Unpack[GenerationOverrides]
    ) -> GenerateRequest:
        system = tuple(m for m in request.messages if m.role == "system")
        return request.model_copy(
            update={"messages": (*system, Message(role="user", content=prompt)), "n": 1, **overrides}
        )

    async def generate(self, request: GenerateRequest) -> Generation:
        """Critic call, then Reasoner call; the result sums both calls' usage, cost and latency."""
        last_user = next((m.content or "" for m in reversed(request.messages) if m.role == "user"), "")
        parts = self.split(last_user)
        critic_request = self._with_prompt(
            request,
            self.critic_prompt.format(evidence=parts.evidence, question=parts.question, mask=self.mask),
            max_tokens=max(self.critic_max_tokens, request.max_tokens or 0),
            tools=(),
            tool_choice=None,
            logprobs=False,
            top_logprobs=None,
        )
        with labelled_calls("critic"):
            critic = await self.inner.generate(critic_request)
        residual = critic.text.strip() or parts.evidence
        reasoner_request = self._with_prompt(
            request, self.reasoner_prompt.format(evidence=residual, question=parts.question, mask=self.mask)
        )
        with labelled_calls("reasoner"):
            reasoner = await self.inner.generate(reasoner_request)
        cost = None if critic.cost_usd is None or reasoner.cost_usd is None else critic.cost_usd + reasoner.cost_usd
        return reasoner.model_copy(
            update={
                "usage": critic.usage + reasoner.usage,
                "cost_usd": cost,
                "latency_s": critic.latency_s + reasoner.latency_s,
            }
        )
