"""Lighthouse 12 on the pages of the screenshot tour (issue 19): a measurement, not a test.

    benchmarks/lighthouse.sh [--langs es,en,eu] [--pages home,board,...] [--out FILE]

(the shell script installs Lighthouse from the npm registry into a temporary directory,
never into the checkout, and runs this with LIGHTHOUSE set to its binary).

Sets up a throwaway SQLite database with the tour's table (tests/browser/test_screenshots.py:
a vaca won 2-0, then a hand and a tap in the next), starts gunicorn (DEBUG off, whitenoise
serving the static files, as in production) on a free loopback port, and runs Lighthouse
on every page of the tour in Spanish and on a few in English and Basque (the language by
Accept-Language), headless Chromium (CHROME_PATH, default /usr/bin/chromium), Lighthouse's
default mobile emulation and simulated throttling. Prints a Markdown table of the four
category scores (performance, accessibility, best practices, SEO) with the date, the
load average before and after, and the failing audits of any page below 100 in the last
three. Performance is simulated from timings taken on this machine, so a loaded machine
lowers it: read it with the load average beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
#: The pages also measured in English and Basque (every page is measured in Spanish).
FEW = ("home", "board", "hand-entry", "calculator", "rules")
ATTEMPTS = 3
CHROME_FLAGS = " ".join((
    "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def tour(env: dict[str, str]) -> dict[str, str]:
    """The tour's pages by name, its table made through the services (the tests' tour)."""
    script = (
        "import django, json; django.setup()\n"
        "from tests.browser.test_screenshots import tour\n"
        "print(json.dumps(tour()))\n"
    )
    done = subprocess.run([PYTHON, "-c", script], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=True)
    pages: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return pages


def wait_for(port: int) -> None:
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("gunicorn never answered")


def lighthouse(binary: str, url: str, lang: str, out: Path) -> dict[str, object]:
    """One Lighthouse run: each category's score (0-100) and the failing audits' ids."""
    command = [binary, url, "--quiet", "--output=json", f"--output-path={out}",
               "--only-categories=" + ",".join(CATEGORIES), f"--chrome-flags={CHROME_FLAGS}",
               "--extra-headers", json.dumps({"Accept-Language": lang})]
    for attempt in range(1, ATTEMPTS + 1):
        # On a loaded machine Lighthouse sometimes loses the page's trace (NO_NAVSTART,
        # NO_FCP): such a run measured nothing, so it is run again.
        if subprocess.run(command, timeout=300).returncode == 0:
            break
        if attempt == ATTEMPTS:
            raise SystemExit(f"Lighthouse failed {ATTEMPTS} times on {url} ({lang})")
    report = json.loads(out.read_text(encoding="utf-8"))
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    failing = sorted(
        audit_id
        for category in CATEGORIES[1:]
        for ref in report["categories"][category]["auditRefs"]
        if ref.get("weight")
        and (audit_id := ref["id"]) in report["audits"]
        and report["audits"][audit_id]["score"] is not None
        and report["audits"][audit_id]["score"] < 1
    )
    return {"scores": scores, "failing": failing}


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", default="es,en,eu")
    parser.add_argument("--pages", default="", help="names of the tour (default: all)")
    parser.add_argument("--out", default="", help="also write the Markdown table here")
    args = parser.parse_args()
    binary = os.environ.get("LIGHTHOUSE", "lighthouse")
    os.environ.setdefault("CHROME_PATH", "/usr/bin/chromium")
    tmp = Path(tempfile.mkdtemp(prefix="muscore-lighthouse-"))
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="muscore.settings",
               SQLITE_FILE=str(tmp / "lighthouse.sqlite3"), DEBUG="false",
               ALLOWED_HOSTS="127.0.0.1", STATIC_MANIFEST="false", PYTHONPATH=str(ROOT))
    env.pop("DATABASE_URL", None)
    subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], env=env, cwd=ROOT, check=True)
    pages = tour(env)
    wanted = [p for p in args.pages.split(",") if p] or list(pages)
    langs = [lang for lang in args.langs.split(",") if lang]
    port = free_port()
    server = subprocess.Popen(
        [str(Path(PYTHON).with_name("gunicorn")), "muscore.wsgi", "-w", "2",
         "-b", f"127.0.0.1:{port}", "--log-level", "warning"],
        env=env, cwd=ROOT,
    )
    rows = []
    before = load()
    try:
        wait_for(port)
        for lang in langs:
            for name in wanted:
                if lang != "es" and name not in FEW and not args.pages:
                    continue
                got = lighthouse(binary, f"http://127.0.0.1:{port}{pages[name]}", lang,
                                 tmp / f"{name}-{lang}.json")
                rows.append((name, lang, got))
                print(name, lang, got["scores"], " ".join(got["failing"]), flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)
    after = load()
    lines = [
        f"Lighthouse 12 ({datetime.now(UTC):%Y-%m-%d %H:%M} UTC), mobile emulation, "
        f"simulated throttling, gunicorn -w 2 with DEBUG off on loopback; load average "
        f"{before} before, {after} after.",
        "",
        "| page | lang | performance | accessibility | best practices | SEO |",
        "|---|---|---|---|---|---|",
    ]
    for name, lang, got in rows:
        s = got["scores"]
        assert isinstance(s, dict)
        lines.append(f"| {name} | {lang} | {s['performance']} | {s['accessibility']} | "
                     f"{s['best-practices']} | {s['seo']} |")
    below = [(n, lang, g["failing"]) for n, lang, g in rows if g["failing"]]
    if below:
        lines += ["", "Below 100 (accessibility, best practices, SEO):"]
        lines += [f"- {n} ({lang}): {', '.join(f)}" for n, lang, f in below]  # type: ignore[arg-type]
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
