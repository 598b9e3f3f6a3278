"""The optional model extractor of CTI-TAA: which threat actor a free-form answer attributes the incident to.

Its reading never changes the deterministic score; the task reports it apart. The call is
made through :func:`harness.calls.auxiliary_model`, so it is retried, costed and logged in the
sample's calls with role ``extractor``.
"""

from __future__ import annotations

from harness.api import GenerateRequest, Message, RetryPolicy

EXTRACTOR_ROLE = "extractor"
MAX_ANSWER_CHARS = 20_000
NO_ACTOR = "NONE"
EXTRACTOR_PROMPT = (
    "Below is an analyst's answer to the question of which threat actor is behind a cyber incident. Reply with "
    "the name of the single threat actor the answer attributes the incident to, exactly as the answer writes it, "
    f"and nothing else. If the answer names none (or only a redacted name such as [PLACEHOLDER]), reply {NO_ACTOR}."
    "\n\nAnswer:\n"
)


def parse_extraction(text: str) -> str | None:
    """The actor name of the extractor's reply (its first line, unquoted), or None for ``NONE`` or an empty reply."""
    line = next((part.strip() for part in (text or "").splitlines() if part.strip()), "")
    name = line.strip("\"'`*.").strip()
    if not name or name.upper() == NO_ACTOR or len(name) > 120:
        return None
    return name


async def ask_extractor(spec: str, answer: str, retry: RetryPolicy | None = None) -> dict[str, str | None]:
    """``{"actor": name or None, "error": message or None}`` from extractor ``spec`` (the run's retries by default)."""
    from harness.api import FrontierError, auxiliary_model

    try:
        adapter = auxiliary_model(spec, EXTRACTOR_ROLE, retry=retry)
    except (FrontierError, OSError, ValueError) as exc:
        return {"actor": None, "error": f"extractor unavailable: {exc}"}
    request = GenerateRequest(
        messages=(Message(role="user", content=EXTRACTOR_PROMPT + answer[-MAX_ANSWER_CHARS:]),),
        max_tokens=64,
        temperature=0.0,
    )
    try:
        generation = await adapter.generate(request)
    except (FrontierError, OSError, ValueError) as exc:
        return {"actor": None, "error": f"extractor call failed: {exc}"}
    finally:
        await adapter.aclose()
    return {"actor": parse_extraction(generation.text), "error": None}
