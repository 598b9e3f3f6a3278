"""Greedy Coordinate Gradient (Zou et al. 2023, llm-attacks) over one or several surrogate models.

One step, as in llm-attacks' ``gcg`` and nanoGCG:

1. the gradient of the target loss (cross-entropy of the target string after the prompt) with
   respect to the one-hot encoding of each suffix token, normalised per suffix position; with
   several behaviours the per-behaviour gradients are summed and normalised again, and with
   several surrogate models (``gcg-multi``) each model's normalised gradient is averaged;
2. for each position, the ``topk`` tokens with the most negative gradient (disallowed tokens,
   the special ones and, unless allowed, non-ASCII ones, are never proposed);
3. ``search_width`` candidates, each the current suffix with ``n_replace`` random positions set
   to a random one of their top-k tokens; candidates that do not survive decoding and
   re-encoding unchanged are dropped (the suffix is sent as text, so it must tokenise back);
4. every candidate's loss, the mean over models and behaviours, computed exactly; the lowest
   becomes the suffix.

Stability (``lookahead > 0`` with held-out surrogates): the ``lookahead`` candidates with the
lowest training loss are re-scored on the held-out models, and the one with the lowest held-out
loss is taken, so that the chosen step is one that also lowers a model the gradients never saw.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.api import ConfigError
from tasks.jailbreak_gcg.prompt import PromptIds
from tasks.jailbreak_gcg.surrogate import Surrogate

if TYPE_CHECKING:
    import torch

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GcgParams:
    """The search's settings; ``chunk`` bounds how many candidates share one forward pass (memory)."""

    steps: int = 250
    search_width: int = 512
    topk: int = 256
    n_replace: int = 1
    allow_non_ascii: bool = False
    lookahead: int = 0
    seed: int = 0
    chunk: int = 32

    def __post_init__(self) -> None:
        for name in ("steps", "search_width", "topk", "n_replace", "chunk"):
            if getattr(self, name) < 1:
                raise ConfigError(f"GCG {name} must be at least 1, got {getattr(self, name)}")
        if self.lookahead < 0:
            raise ConfigError(f"GCG lookahead must be 0 or more, got {self.lookahead}")


@dataclass
class GcgResult:
    """The best suffix found, its ids and loss; the loss after each step (index 0: before any) and its seconds."""

    suffix: str
    ids: list[int]
    loss: float
    curve: list[float] = field(default_factory=list)
    holdout_loss: float | None = None
    step_seconds: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Objective:
    """What a suffix is scored on: surrogates, each with the prompt ids of every behaviour."""

    surrogates: Sequence[Surrogate]
    prompts: Sequence[Sequence[PromptIds]]

    def __post_init__(self) -> None:
        if not self.surrogates or len(self.prompts) != len(self.surrogates) or not all(self.prompts):
            raise ConfigError("a GCG objective needs at least one model and one behaviour per model")


def vocabulary_size(surrogates: Sequence[Surrogate]) -> int:
    """The token ids every surrogate can embed (embedding matrices may be padded to different sizes)."""
    return min(int(s.embedding_matrix.shape[0]) for s in surrogates)


def disallowed_tokens(surrogate: Surrogate, vocab: int, allow_non_ascii: bool) -> torch.Tensor:
    """A boolean mask over the first ``vocab`` ids: special tokens, and non-printable-ASCII ones unless allowed."""
    import torch

    tokenizer = surrogate.tokenizer
    mask = torch.zeros(vocab, dtype=torch.bool)
    special = [i for i in tokenizer.all_special_ids if 0 <= i < vocab]
    mask[special] = True
    if not allow_non_ascii:
        texts = tokenizer.batch_decode([[i] for i in range(vocab)], clean_up_tokenization_spaces=False)
        for i, text in enumerate(texts):
            if not (text.isascii() and text.isprintable() and text.strip()):
                mask[i] = True
    if bool(mask.all()):
        raise ConfigError("no token is allowed in the suffix")
    return mask


def _target_loss(surrogate: Surrogate, prompt: PromptIds, suffix_embeds: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of the target tokens per batch row, for a batch of suffix embeddings.

    The prompt before the suffix is the same in every row: it is run once, and its key/value
    cache repeated over the batch. Only the target's logits are computed.
    """
    import torch

    model, device, batch = surrogate.model, surrogate.device, suffix_embeds.shape[0]
    target = prompt.target.to(device)
    n = int(target.shape[0])
    tail = torch.cat([surrogate.embed(prompt.after.to(device)), surrogate.embed(target)]).unsqueeze(0)
    inputs = torch.cat([suffix_embeds, tail.expand(batch, -1, -1)], dim=1)
    with torch.no_grad():
        prefix = model(inputs_embeds=surrogate.embed(prompt.before.to(device)).unsqueeze(0), use_cache=True)
    cache = prefix.cache
    cache.batch_repeat_interleave(batch)
    logits = model(inputs_embeds=inputs, cache=cache, logits_to_keep=n + 1).logits[:, :-1, :].float()
    flat = torch.nn.functional.cross_entropy(
        logits.reshape(-1, logits.shape[-1]), target.repeat(logits.shape[0]), reduction="none"
    )
    return flat.view(logits.shape[0], n).mean(dim=1)


def token_gradient(surrogate: Surrogate, prompts: Sequence[PromptIds], ids: torch.Tensor, vocab: int) -> torch.Tensor:
    """Gradient (suffix length × vocab) of the target loss w.r.t. the one-hot suffix, normalised per position."""
    import torch

    weight = surrogate.embedding_matrix[:vocab]
    total = torch.zeros(ids.shape[0], vocab)
    for prompt in prompts:
        one_hot = torch.zeros(ids.shape[0], vocab, dtype=weight.dtype, device=weight.device)
        one_hot.scatter_(1, ids.to(weight.device).unsqueeze(1), 1.0)
        one_hot.requires_grad_(True)
        embeds = (one_hot @ weight) * surrogate.embed_scale
        loss = _target_loss(surrogate, prompt, embeds.unsqueeze(0)).sum()
        (grad,) = torch.autograd.grad(loss, one_hot)
        total += _normalised(grad.float().cpu())
    return _normalised(total)


def _normalised(grad: torch.Tensor) -> torch.Tensor:
    return grad / grad.norm(dim=-1, keepdim=True).clamp_min(1e-12)


def sample_candidates(
    ids: torch.Tensor,
    grad: torch.Tensor,
    params: GcgParams,
    disallowed: torch.Tensor,
    generator: torch.Generator,
) -> torch.Tensor:
    """``search_width`` copies of ``ids``, each with ``n_replace`` positions set to one of their top-k tokens."""
    import torch

    length = ids.shape[0]
    scores = grad.clone()
    scores[:, disallowed] = float("inf")
    topk = min(params.topk, int((~disallowed).sum()))
    top = (-scores).topk(topk, dim=1).indices
    n_replace = min(params.n_replace, length)
    positions = torch.rand(params.search_width, length, generator=generator).argsort(dim=1)[:, :n_replace]
    choice = torch.randint(0, topk, (params.search_width, n_replace, 1), generator=generator)
    values = top[positions].gather(2, choice).squeeze(2)
    return ids.unsqueeze(0).repeat(params.search_width, 1).scatter_(1, positions, values)


def retokenizable(tokenizer: Any, candidates: torch.Tensor) -> torch.Tensor:
    """The distinct candidates whose decoded text encodes back to the same ids."""
    import torch

    texts = tokenizer.batch_decode(candidates.tolist(), clean_up_tokenization_spaces=False)
    encoded = tokenizer(texts, add_special_tokens=False)["input_ids"]
    kept, seen = [], set()
    for row, back in zip(candidates.tolist(), encoded, strict=True):
        if row == back and tuple(row) not in seen:
            seen.add(tuple(row))
            kept.append(row)
    return torch.tensor(kept, dtype=torch.long).view(len(kept), candidates.shape[1])


def candidate_losses(objective: Objective, candidates: torch.Tensor, chunk: int) -> torch.Tensor:
    """Each candidate's target loss, averaged over the objective's models and behaviours."""
    import torch

    total = torch.zeros(candidates.shape[0])
    count = 0
    with torch.no_grad():
        for surrogate, prompts in zip(objective.surrogates, objective.prompts, strict=True):
            for prompt in prompts:
                for start in range(0, candidates.shape[0], chunk):
                    part = candidates[start : start + chunk].to(surrogate.device)
                    total[start : start + chunk] += _target_loss(surrogate, prompt, surrogate.embed(part)).cpu()
                count += 1
    return total / count


def encode_suffix(surrogate: Surrogate, text: str) -> torch.Tensor:
    """The ids of an initial suffix; ConfigError when it is empty or does not tokenise back to itself."""
    import torch

    ids = surrogate.tokenizer(text, add_special_tokens=False)["input_ids"]
    if not ids:
        raise ConfigError("the initial suffix is empty")
    tensor = torch.tensor(ids, dtype=torch.long)
    if retokenizable(surrogate.tokenizer, tensor.unsqueeze(0)).shape[0] != 1:
        raise ConfigError(f"the initial suffix {text!r} does not tokenise back to itself")
    return tensor


def run_gcg(
    objective: Objective,
    init: str,
    params: GcgParams,
    holdout: Objective | None = None,
    on_step: Callable[[int, float, str], None] | None = None,
    disallowed: torch.Tensor | None = None,
) -> GcgResult:
    """Optimise a suffix for ``objective`` for ``params.steps`` steps; the best suffix seen is returned.

    With ``holdout`` and ``params.lookahead`` > 0, each step's choice among the best
    ``lookahead`` candidates is made by the held-out loss (see the module's docstring).
    ``on_step(step, loss, suffix)`` is called after each step. ``disallowed`` is the
    :func:`disallowed_tokens` mask when the caller has it (it decodes the whole vocabulary).
    """
    import torch

    if params.lookahead and holdout is None:
        raise ConfigError("lookahead needs at least one held-out model")
    first = objective.surrogates[0]
    vocab = vocabulary_size([*objective.surrogates, *(holdout.surrogates if holdout else [])])
    if disallowed is None:
        disallowed = disallowed_tokens(first, vocab, params.allow_non_ascii)
    elif disallowed.shape != (vocab,):
        raise ConfigError(f"the token mask covers {disallowed.shape[0]} ids, the surrogates share {vocab}")
    generator = torch.Generator().manual_seed(params.seed)
    ids = encode_suffix(first, init)
    if int(ids.max()) >= vocab:
        raise ConfigError("the initial suffix uses a token outside the surrogates' shared vocabulary")
    loss = float(candidate_losses(objective, ids.unsqueeze(0), params.chunk)[0])
    best = GcgResult(suffix=first.tokenizer.decode(ids.tolist()), ids=ids.tolist(), loss=loss)
    curve, seconds = [loss], []
    for step in range(1, params.steps + 1):
        started = time.perf_counter()
        grads = [token_gradient(s, p, ids, vocab) for s, p in zip(objective.surrogates, objective.prompts, strict=True)]
        grad = torch.stack(grads).mean(dim=0)
        candidates = retokenizable(first.tokenizer, sample_candidates(ids, grad, params, disallowed, generator))
        if candidates.shape[0] == 0:
            log.warning("GCG step %d: no candidate survived re-tokenisation; the suffix is kept", step)
        else:
            losses = candidate_losses(objective, candidates, params.chunk)
            chosen, held = _choose(losses, candidates, params, holdout)
            ids, loss = candidates[chosen], float(losses[chosen])
            if loss < best.loss:
                best = GcgResult(first.tokenizer.decode(ids.tolist()), ids.tolist(), loss, holdout_loss=held)
        curve.append(loss)
        seconds.append(time.perf_counter() - started)
        log.info("GCG step %d/%d: loss %.4f", step, params.steps, loss)
        if on_step is not None:
            on_step(step, loss, first.tokenizer.decode(ids.tolist()))
    best.curve, best.step_seconds = curve, seconds
    return best


def _choose(
    losses: torch.Tensor, candidates: torch.Tensor, params: GcgParams, holdout: Objective | None
) -> tuple[int, float | None]:
    """The index of the candidate taken, and its held-out loss when the held-out models chose it."""
    if not params.lookahead or holdout is None:
        return int(losses.argmin()), None
    shortlist = losses.argsort()[: params.lookahead]
    held = candidate_losses(holdout, candidates[shortlist], params.chunk)
    pick = int(held.argmin())
    return int(shortlist[pick]), float(held[pick])
