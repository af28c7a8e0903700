"""gunicorn's control socket (issue 28 point 8): off by muscore/gunicorn_conf.py, so no
site takes over another's in the account's home folder; in the site's own folder when
MUSCORE_CONTROL_SOCKET names one."""

from __future__ import annotations

from pathlib import Path

from tests.multiserver.servers import Server, base_env, running


def test_no_control_socket_in_the_home_folder_unless_the_site_names_its_own(
        tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = base_env(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", HOME=str(home))
    env.pop("XDG_RUNTIME_DIR", None)
    with running(Server(env, tmp_path / "plain", workers=1)):
        assert not (home / ".gunicorn").exists()
    site = tmp_path / "site" / "run"
    site.mkdir(parents=True)
    own = site / "gunicorn.ctl"
    with running(Server({**env, "MUSCORE_CONTROL_SOCKET": str(own)}, tmp_path / "own",
                        workers=1)):
        assert own.is_socket()
        assert not (home / ".gunicorn").exists()
