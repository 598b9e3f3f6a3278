"""The ConFiQA authors' prompt and the variants of the context-faithful prompting study (Zhou et al., 2023).

``official``: the Context-DPO evaluation's ``{context}\\nQ: {question}\\nA: `` (the default);
``base``: ``{context}\\nQ:{question}\\nA:``; ``attr``: attributed to the given text;
``instr``: with an instruction; ``opin``: the context as Bob's opinion; ``instr+opin``:
both. The attributed variant reads "based on the given text" (upstream's code has the
typo "tex").
"""

from __future__ import annotations

from typing import Literal

PromptVariant = Literal["official", "base", "attr", "instr", "opin", "instr+opin"]
PROMPT_VARIANTS: tuple[PromptVariant, ...] = ("official", "base", "attr", "instr", "opin", "instr+opin")
INSTRUCTION = "Instruction: read the given information and answer the corresponding question.\n\n"


def _stem(question: str) -> str:
    stripped = question.rstrip()
    return stripped[:-1] if stripped.endswith("?") else stripped


def build_prompt(variant: PromptVariant, context: str, question: str) -> str:
    """The prompt for ``question`` over ``context`` in the given variant."""
    if variant == "official":
        return f"{context}\nQ: {question}\nA: "
    if variant == "base":
        return f"{context}\nQ:{question}\nA:"
    if variant == "attr":
        return f"{context}\nQ:{_stem(question)} based on the given text?\nA:"
    if variant == "instr":
        return f"{INSTRUCTION}{context}\nQ:{question}\nA:"
    if variant in ("opin", "instr+opin"):
        quoted = context.replace('"', "")
        body = f'Bob said "{quoted}"\nQ: {_stem(question)} in Bob\'s opinion?\nA:'
        return f"{INSTRUCTION}{body}" if variant == "instr+opin" else body
    raise ValueError(f"unknown prompt variant {variant!r}; known: {', '.join(PROMPT_VARIANTS)}")
