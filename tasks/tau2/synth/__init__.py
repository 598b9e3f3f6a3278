"""Synthesis of tool-use environments and tasks from a declarative domain spec."""
