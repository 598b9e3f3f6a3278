"""Demo tasks that exercise the whole path before the benchmark families land."""

from harness.task import TaskFamily
from tasks.demo.arith import ArithTask

FAMILY = TaskFamily.of(("demo/arith", ArithTask))
