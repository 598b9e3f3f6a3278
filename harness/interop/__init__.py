"""Interop with inspect-ai and lm-evaluation-harness, both ways.

- ``inspect_tasks``: the ``inspect_ai`` entry-point module; registers every suite task as
  ``frontier/<task>`` so that ``inspect eval frontier/demo_arith`` runs it.
- ``inspect_bridge``: turns one of our tasks into an inspect ``Task`` (samples, solver, scorer, metrics).
- ``inspect_adapter``: the ``inspect/<provider>/<model>`` adapter, also the bridge our solvers use
  inside an inspect eval.
- ``lm_eval_export`` / ``lm_eval_runtime``: ``frontier export lm-eval DIR`` and the code its ``utils.py`` calls.
- ``lm_eval_adapter``: the ``lm-eval/<model type>?<model args>`` adapter.

inspect-ai and lm-eval are imported only inside these modules (extra ``interop``).
"""
