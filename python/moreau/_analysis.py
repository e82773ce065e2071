"""Python-side helpers (owner module _analysis; see the package docstring)."""
