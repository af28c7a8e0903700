"""A stream server (uvicorn, muscore.asgi) on a SQLite file of its own, as one box without
Redis runs it: the fixtures of tests/tables/test_live_servers.py (a migrated file copied
for each test)."""

from tests.tables.test_live_servers import migrated_sqlite, sqlite_env

__all__ = ["migrated_sqlite", "sqlite_env"]
