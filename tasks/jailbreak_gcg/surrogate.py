"""White-box surrogate models for GCG: a ``transformers`` causal LM, its tokenizer and its input embedding.

A spec is ``local/<name>`` (a model this suite packages, e.g. ``local/gemma-3-270m``, or
``local/<path.gguf>``), a path to a ``.gguf`` file (transformers dequantises it; needs ``gguf``
and ``accelerate``), or a folder in the Hugging Face layout (``config.json`` and weights).
Nothing is downloaded: the machine running an attack may be offline.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.api import ConfigError

if TYPE_CHECKING:
    import torch

INSTALL_HINT = "pip install 'frontier-evals[attack]'"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Surrogate:
    """A loaded model: its spec, the causal LM, the tokenizer, and how token ids become input embeddings.

    ``embed_scale`` is the factor the model's embedding layer applies after the lookup (Gemma
    multiplies by the square root of the hidden size); GCG's one-hot product must apply it too.
    """

    name: str
    model: Any
    tokenizer: Any
    embed_scale: float

    @property
    def device(self) -> torch.device:
        """Where the model's weights are."""
        return self.embedding_matrix.device

    @property
    def embedding_matrix(self) -> torch.Tensor:
        """The input embedding matrix, one row per token id."""
        weight: torch.Tensor = self.model.get_input_embeddings().weight
        return weight

    def embed(self, ids: torch.Tensor) -> torch.Tensor:
        """Input embeddings of token ids, exactly as the model's own lookup makes them."""
        embedded: torch.Tensor = self.model.get_input_embeddings()(ids)
        return embedded


def require_torch() -> None:
    """ConfigError naming the extra to install when torch or transformers is missing."""
    for module in ("torch", "transformers"):
        try:
            __import__(module)
        except ImportError:
            raise ConfigError(f"GCG needs {module}, which is not installed: {INSTALL_HINT}") from None


def _source(spec: str) -> tuple[Path, str | None]:
    """The folder to load from and the GGUF file name in it (None: a Hugging Face folder)."""
    if spec.startswith("local/"):
        from harness.api import resolve_model_path

        path = resolve_model_path(spec.removeprefix("local/"))
        return path.parent, path.name
    path = Path(spec).expanduser()
    if path.suffix == ".gguf":
        if not path.is_file():
            raise ConfigError(f"surrogate model file not found: {path}")
        return path.resolve().parent, path.name
    if not (path / "config.json").is_file():
        raise ConfigError(f"surrogate model {spec!r}: expected local/<name>, a .gguf file or a folder with config.json")
    return path.resolve(), None


def load_surrogate(spec: str, device: str = "cpu") -> Surrogate:
    """Load the model of ``spec`` in float32 on ``device``, frozen, in eval mode; ConfigError when it cannot be."""
    require_torch()
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    target = check_device(device)
    folder, gguf_file = _source(spec)
    extra = {"gguf_file": gguf_file} if gguf_file else {}
    try:
        tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True, **extra)
        model: Any = AutoModelForCausalLM.from_pretrained(folder, local_files_only=True, dtype=torch.float32, **extra)
    except (OSError, ValueError, ImportError, KeyError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigError(f"surrogate model {spec!r} could not be loaded: {first}") from None
    return from_model(spec, model.to(target), tokenizer)


def check_device(device: str) -> torch.device:
    """The torch device named ``device``; ConfigError when the name is wrong or that kind is not available here."""
    import torch

    try:
        target = torch.device(device)
    except RuntimeError:
        raise ConfigError(f"--device {device!r} is not a torch device (cpu, cuda, cuda:1, mps)") from None
    available = {"cpu": True, "cuda": torch.cuda.is_available(), "mps": torch.backends.mps.is_available()}
    if not available.get(target.type, False):
        raise ConfigError(f"--device {device!r}: no {target.type} device is available to torch here")
    return target


def from_model(name: str, model: Any, tokenizer: Any) -> Surrogate:
    """Wrap an already built causal LM and tokenizer (frozen, eval mode) as a surrogate."""
    model.eval()
    model.requires_grad_(False)
    scale = getattr(model.get_input_embeddings(), "embed_scale", 1.0)
    return Surrogate(name=name, model=model, tokenizer=tokenizer, embed_scale=float(scale))
