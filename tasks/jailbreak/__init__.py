"""Jailbreak robustness: AdvBench, HarmBench, JailbreakBench, StrongREJECT and over-refusal, under supplied attacks."""

from harness.api import TaskFamily
from tasks.jailbreak.task import AdvBenchTask, HarmBenchTask, JBBTask, OverRefusalTask, StrongRejectTask

FAMILY = TaskFamily.of(
    ("jailbreak/advbench", AdvBenchTask),
    ("jailbreak/harmbench", HarmBenchTask),
    ("jailbreak/jbb", JBBTask),
    ("jailbreak/strongreject", StrongRejectTask),
    ("jailbreak/over-refusal", OverRefusalTask),
)
