"""Shared fixtures: the reference data folder and the loopback OpenAI-compatible server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("FRONTIER_REFERENCE_DATA") or REPO_ROOT.parent / "shared" / "data")
"""The benchmarks' real samples and reference artifacts (README, "Tests and reference data")."""


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The reference data folder (``$FRONTIER_REFERENCE_DATA``, else ``../shared/data`` beside the
    repository); the test is skipped, saying why, when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(
            f"reference data not found at {SHARED_DATA}: this test checks against the benchmarks' "
            "published artifacts; set FRONTIER_REFERENCE_DATA (see the README's 'Tests and reference data')"
        )
    return SHARED_DATA


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:  # noqa: F821
    """A loopback OpenAI-compatible server that echoes the last user message."""
    from harness.testing.openai_server import OpenAIServer

    with OpenAIServer() as server:
        yield server
