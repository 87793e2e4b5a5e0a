"""Generators that WRITE checked-in lowering text.  Run
``python -m lowerings._gen`` to rewrite, ``python -m lowerings._gen --check``
to fail when a generated file is stale (CI does)."""
