"""The version of this module: vitrine's own (the npm package's `version`, and pyproject.toml's),
which the notebook client sends in its User-Agent (`vitrine-python/0.1.0`) so what it publishes
says which client made it. A test keeps the three in step."""

__version__ = "0.1.0"
