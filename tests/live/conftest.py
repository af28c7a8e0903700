"""A stream server (uvicorn, muscore.asgi) on a SQLite file of its own, as one box without
Redis runs it: the fixture of tests/tables/test_live_servers.py (a copy, for each test, of
the file migrated once: tests/conftest.py's migrated_sqlite)."""

from tests.tables.test_live_servers import sqlite_env

__all__ = ["sqlite_env"]
