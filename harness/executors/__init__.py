"""Where a run's work executes beyond the in-process runner.

``scoring``: the one interface CPU-heavy scoring goes through (a thread by default, a
local process pool for ``frontier run``, Ray tasks under the Ray executor).
``ray_executor``: ``execute_on_ray``, the Ray counterpart of ``harness.runner.execute``.
Nothing here imports Ray until it is used.
"""
