"""Coins: Rocq specification generation for HumanEval, judged by the ``coins_rocq`` checker."""

from harness.api import TaskFamily
from tasks.coins.task import SpecGenTask

FAMILY = TaskFamily.of(("coins/spec-gen", SpecGenTask))
