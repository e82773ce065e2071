"""Python-side helpers (owner module _simulate; see the package docstring)."""
