"""Joining a Ray cluster for one run: the connection, its environment and the workers' import path."""

from __future__ import annotations

import logging
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def ray_environment(values: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``values`` inside the block, restored after; Ray re-reads its auth settings at both ends.

    Ray caches ``RAY_AUTH_MODE``/``RAY_AUTH_TOKEN`` when it is imported, so setting them later
    needs the reload; call this only while this process is not connected to a cluster.
    """
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    _reload_ray_auth()
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        _reload_ray_auth()


def _reload_ray_auth() -> None:
    import ray._raylet as raylet

    config = getattr(raylet, "Config", None)
    loader = getattr(raylet, "AuthenticationTokenLoader", None)
    if config is not None:
        config.initialize("")
    if loader is not None:
        loader.instance().reset_cache()


@contextmanager
def ray_session(address: str | None, **init_options: Any) -> Iterator[None]:
    """Connected to the Ray cluster at ``address`` (``auto``, ``host:port``, ``ray://...``) inside the block.

    Without an address a private local Ray is started, with token authentication and a
    fresh token (nothing written to ``~/.ray``) unless ``RAY_AUTH_MODE`` says otherwise.
    Disconnects (and stops that local Ray) at the end; a connection this process already
    had is used as it is and left open.
    """
    import ray

    if ray.is_initialized():
        yield
        return
    env = {"RAY_USAGE_STATS_ENABLED": os.environ.get("RAY_USAGE_STATS_ENABLED", "0")}
    if not address and "RAY_AUTH_MODE" not in os.environ:
        env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32))
    options: dict[str, Any] = {
        "logging_level": logging.WARNING,
        "runtime_env": {"env_vars": {"PYTHONPATH": worker_pythonpath()}},
        **init_options,
    }
    with ray_environment(env):
        if address:
            ray.init(address=address, **options)
        else:
            ray.init(include_dashboard=False, **options)
        try:
            yield
        finally:
            ray.shutdown()


def worker_pythonpath() -> str:
    """``PYTHONPATH`` for workers: where this process imports ``harness`` from, then the inherited value.

    Workers on this machine then run exactly the driver's code (a checkout included); on
    other nodes a path that does not exist there is skipped and their install is used.
    """
    import harness

    root = str(Path(harness.__file__).resolve().parents[1])
    return os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
