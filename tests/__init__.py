"""The test suite as one package, so that each test module is imported once, as ``tests.x``.

Without this file pytest named a module by its folder (``multiserver.conftest``) while the
tests that share its helpers imported it as ``tests.multiserver.conftest``: two copies of
one module, with two of each class and of each module-level value."""
