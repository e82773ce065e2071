"""Python-side helpers (owner module _solve; see the package docstring)."""
