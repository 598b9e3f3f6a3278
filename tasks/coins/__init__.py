"""Coins: Rocq specification generation for HumanEval, judged by the ``coins_rocq`` checker."""

from harness.task import TaskFamily
from tasks.coins.task import SpecGenTask

FAMILY = TaskFamily.of(("coins/spec-gen", SpecGenTask))
