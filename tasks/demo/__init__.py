"""A toy task (``demo/arith``) that exercises the whole path offline in seconds: a model of a small family."""

from harness.api import TaskFamily
from tasks.demo.arith import ArithTask

FAMILY = TaskFamily.of(("demo/arith", ArithTask))
