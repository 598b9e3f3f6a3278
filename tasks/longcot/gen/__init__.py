"""Seeded generators of long-horizon LongCoT-style problems; answers are computed by the generator
and checked by the same verifiers as the real data."""
