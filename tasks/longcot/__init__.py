"""LongCoT: long-horizon chain-of-thought questions in five domains, verified per template,
plus the project's own seeded generators (``longcot-gen/<domain>``).

Sub-packages: ``data`` (questions from files or the hub), ``verify`` (the strict verifier), ``official``
(upstream's rules, the default score), ``oracle`` (reference answers for ``builtin/oracle``), ``gen`` (the
generators); ``catalog`` names the domains, splits and templates they share.

Names: ``longcot/mini`` (easy split), ``longcot/full`` (medium + hard),
``longcot/<domain>-<split>`` and ``longcot-gen/<domain>``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from harness.api import AnyTask, TaskEntry, TaskFamily
from tasks.longcot.catalog import DOMAINS, SPLITS

if TYPE_CHECKING:
    from tasks.longcot.gen.task import GenArgs
    from tasks.longcot.task import LongCotArgs


def _mini(name: str, **args: object) -> AnyTask:
    from tasks.longcot.task import MiniTask

    return MiniTask(name, **args)


def _full(name: str, **args: object) -> AnyTask:
    from tasks.longcot.task import FullTask

    return FullTask(name, **args)


def _split(domain: str, split: str) -> Callable[..., AnyTask]:
    def create(name: str, **args: object) -> AnyTask:
        from tasks.longcot.task import split_task

        return split_task(domain, split)(name, **args)

    return create


def _generated(domain: str) -> Callable[..., AnyTask]:
    def create(name: str, **args: object) -> AnyTask:
        from tasks.longcot.gen.task import generator_task

        return generator_task(domain)(name, **args)

    return create


def _data_args() -> type[LongCotArgs]:
    from tasks.longcot.task import LongCotArgs

    return LongCotArgs


def _generator_args() -> type[GenArgs]:
    from tasks.longcot.gen.task import GenArgs

    return GenArgs


def _entries() -> dict[str, TaskEntry]:
    entries = {
        "longcot/mini": TaskEntry(
            "longcot/mini", "LongCoT-Mini: the easy split, verified per template", _mini, _data_args
        ),
        "longcot/full": TaskEntry(
            "longcot/full", "LongCoT: medium + hard splits, verified per template", _full, _data_args
        ),
    }
    for domain in DOMAINS:
        for split in SPLITS:
            name = f"longcot/{domain}-{split}"
            entries[name] = TaskEntry(name, f"LongCoT {domain}, {split} split", _split(domain, split), _data_args)
        name = f"longcot-gen/{domain}"
        entries[name] = TaskEntry(
            name,
            f"seeded long-horizon {domain} problems; difficulty scales the steps",
            _generated(domain),
            _generator_args,
        )
    return entries


FAMILY = TaskFamily(_entries())
