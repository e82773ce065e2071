"""Python-side helpers (owner module _impact; see the package docstring)."""
