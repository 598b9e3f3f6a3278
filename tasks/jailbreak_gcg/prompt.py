"""The token layout GCG optimises: ``before · suffix · after · target``, tokenised piece by piece.

The user's message is the behaviour's request, one space, then the suffix, as the ``jailbreak``
family sends it (:meth:`tasks.jailbreak.attacks.Attack.applied_to`). With a chat template the
message is rendered with a placeholder where the suffix goes, and the rendered text is split
there (as nanoGCG does); a plain prompt is the message itself. BOS appears once: the template's
own is kept unless the tokenizer adds one itself. The target string gets a leading space, so that
it is tokenised as the continuation of a reply.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from harness.api import ConfigError

if TYPE_CHECKING:
    import torch

Template = Literal["auto", "chat", "plain"]
PLACEHOLDER = "\x00GCG-SUFFIX\x00"


@dataclass(frozen=True)
class PromptIds:
    """Token ids (1-D) around the suffix and of the target; ``before`` starts with BOS when the model uses one."""

    before: torch.Tensor
    after: torch.Tensor
    target: torch.Tensor


def resolve_template(tokenizer: Any, template: Template) -> Literal["chat", "plain"]:
    """The layout ``template`` means for this tokenizer: ``auto`` is ``chat`` when it has a chat template."""
    has_chat = bool(getattr(tokenizer, "chat_template", None))
    if template == "chat" and not has_chat:
        raise ConfigError("--template chat: this tokenizer has no chat template")
    return "chat" if has_chat and template != "plain" else "plain"


def _split_text(tokenizer: Any, request: str, template: Template) -> tuple[str, str, bool]:
    """The prompt text before and after the suffix, and whether the tokenizer should add BOS itself."""
    message = f"{request} {PLACEHOLDER}"
    if resolve_template(tokenizer, template) == "plain":
        before, after = message.split(PLACEHOLDER)
        return before, after, True
    rendered = tokenizer.apply_chat_template(
        [{"role": "user", "content": message}], tokenize=False, add_generation_prompt=True
    )
    if not isinstance(rendered, str) or rendered.count(PLACEHOLDER) != 1:
        raise ConfigError("the chat template does not render the user's message once and verbatim")
    before, after = rendered.split(PLACEHOLDER)
    bos = getattr(tokenizer, "bos_token", None)
    if bos and before.startswith(bos) and _adds_bos(tokenizer):
        return before[len(bos) :], after, True
    return before, after, False


def _adds_bos(tokenizer: Any) -> bool:
    """Whether encoding with special tokens puts the BOS token first (then the template's own is dropped)."""
    bos = getattr(tokenizer, "bos_token_id", None)
    return bos is not None and tokenizer("a", add_special_tokens=True)["input_ids"][:1] == [bos]


def prompt_ids(tokenizer: Any, request: str, target: str, template: Template = "auto") -> PromptIds:
    """The ids of the pieces of one behaviour's prompt; ConfigError when the target is empty."""
    import torch

    if not target.strip():
        raise ConfigError("a behaviour has an empty target string")
    before, after, add_bos = _split_text(tokenizer, request, template)

    def ids(text: str, special: bool) -> torch.Tensor:
        encoded = tokenizer(text, add_special_tokens=special)["input_ids"]
        return torch.tensor(encoded, dtype=torch.long)

    laid = PromptIds(before=ids(before, add_bos), after=ids(after, False), target=ids(" " + target.strip(), False))
    if laid.before.numel() == 0:
        raise ConfigError("a behaviour's prompt has no token before the suffix")
    return laid
