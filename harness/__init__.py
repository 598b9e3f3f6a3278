"""frontier-evals harness core: types, registry, adapters, methods, runner, cache, store, stats, CLI."""

__version__ = "0.1.0"
