"""The systemd units of deploy/systemd (issue 39): `systemd-analyze verify` finds nothing
to say of them (unknown keys, a command that is not there, a bad line), each starts the
command docs/operations.md documents, and each stops the way its process stops cleanly
(SIGTERM, within a time above its own graceful limit). The units name /srv/muscore; here
they are pointed at this checkout, whose .venv holds the commands."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from muscore.leagues import pacing
from tests.multiserver.servers import ROOT

UNITS = ROOT / "deploy" / "systemd"
ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"


def unit(name: str) -> dict[str, str]:
    """A unit's keys (a continued line joined), the last one of each name."""
    text = re.sub(r"\\\n\s*", "", (UNITS / name).read_text())
    keys = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            keys[key.strip()] = value.strip()
    return keys


def test_systemd_analyze_verifies_every_unit(tmp_path: Path) -> None:
    if not Path(ANALYZE).exists():
        pytest.fail("systemd-analyze is missing: ./scripts/test installs Debian's systemd "
                    "(apt-get install systemd)")
    names = []
    for path in sorted(UNITS.iterdir()):
        text = path.read_text().replace("/srv/muscore", str(ROOT))
        target = tmp_path / path.name.replace("@.", "@1.")  # a template: one instance
        target.write_text(text)
        names.append(str(target))
    assert len(names) == 4
    result = subprocess.run([ANALYZE, "verify", "--man=no", *names], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0 and not result.stdout.strip() and not result.stderr.strip(), (
        result.stdout + result.stderr)


def test_each_unit_runs_the_documented_command_and_stops_cleanly() -> None:
    operations = (ROOT / "docs" / "operations.md").read_text()
    web, stream, worker = (unit(n) for n in (
        "muscore-web.service", "muscore-stream.service", "muscore-worker@.service"))
    assert web["ExecStart"].startswith(
        "/srv/muscore/.venv/bin/gunicorn -c python:muscore.gunicorn_conf muscore.wsgi")
    assert "muscore.asgi:application" in stream["ExecStart"]
    assert "--timeout-graceful-shutdown 5" in stream["ExecStart"]
    assert worker["ExecStart"].endswith("manage.py rating_worker --worker-id %H-%i")
    for keys in (web, stream, worker):
        assert keys["KillSignal"] == "SIGTERM"
        assert keys["EnvironmentFile"] == "/etc/muscore/muscore.env"
        assert keys["User"] == "muscore" and keys["WorkingDirectory"] == "/srv/muscore"
        assert keys["PartOf"] == "muscore.target"
    # Above each one's own graceful limit: gunicorn's 30 s, uvicorn's 5 s, a worker's task.
    assert int(web["TimeoutStopSec"]) > 30 and int(stream["TimeoutStopSec"]) > 5
    assert int(worker["TimeoutStopSec"]) >= 30
    assert web["Type"] == "notify"  # gunicorn says when it is ready
    # The worker may lower its niceness to the lock's (systemd's "-N": RLIMIT_NICE 20+N),
    # and so far only: its transactions on SQLite run there (muscore.leagues.pacing).
    assert worker["LimitNICE"] == str(pacing.LOCK_NICE) == "-10"
    assert "LimitNICE" not in web and "LimitNICE" not in stream
    assert "deploy/systemd/" in operations
    for name in ("muscore-web.service", "muscore-stream.service", "muscore-worker@.service",
                 "muscore.target"):
        assert f"`{name}`" in operations, name
