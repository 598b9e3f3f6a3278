"""Making sure a method's inner calls are logged, however the method was built."""

from __future__ import annotations

from harness.adapters.base import MethodAdapter, ModelAdapter


def logged(inner: ModelAdapter) -> ModelAdapter:
    """``inner`` behind the calling layer (cache, retries, call log) unless it already is behind one.

    The runner builds methods over a CallingAdapter; a method built by hand over a bare
    adapter (a notebook, a test) gets one here, so its every inner call is still logged.
    """
    from harness.calls import CallingAdapter

    if isinstance(inner, (CallingAdapter, MethodAdapter)):
        return inner
    return CallingAdapter(inner)
