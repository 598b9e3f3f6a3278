"""Reusable scoring functions: answer extraction, normalisation, numeric and set matching."""
