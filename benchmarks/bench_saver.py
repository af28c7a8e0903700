"""The phone that saves against the phones that watch (issue 38.4), before and after, in
one run, on this machine, loopback only.

    .venv/bin/python benchmarks/bench_saver.py                 # 20 saves per checkout
    .venv/bin/python benchmarks/bench_saver.py --saves 5       # while developing

For each checkout (`--before`, a revision of this repository checked out in a temporary
git worktree, and this checkout, "after"): a fresh SQLite file and a throwaway Redis
(benchmarks/throwaway.py), one uvicorn serving the pages and the streams
(muscore.asgi, production settings), one table, and three phones in Chromium at 390x844:
the saver on the edit link, a second phone on the edit link and a third on the view link,
each holding its board's stream. `--saves` times the saver opens "Anotar mano", taps the
16 cards and saves. Measured:

1. save to board: from the tap on "Guardar" (Date.now() in the saver's page, kept in
   sessionStorage across a navigation) to the moment each phone's board shows the new
   revision (a MutationObserver in each page, the same clock): the saver's against the
   watchers'. Before, the save answered HX-Redirect and the saver loaded the whole board
   again; after, the save answers the board in place.
2. per phone per save, besides the push itself: the requests each phone made (the save
   and the hand page's own taps left out), the bytes of their bodies, and the pages the
   server drew whole for them (a board or a hand page: not a poll's fragment, not a
   static file).

Prints the figures side by side with the load average; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from playwright.sync_api import Page, Request, sync_playwright  # noqa: E402
from throwaway import redis  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS, PHONE  # noqa: E402
from tests.multiserver.servers import base_env, free_port  # noqa: E402

UVICORN = Path(sys.executable).parent / "uvicorn"
# The last main without issue 38.4 (its items 1-3 in, the saver still redirected).
BEFORE = "f02b030"
DEAL = {0: "R R 5 4", 1: "R C C 5", 2: "1 1 6 7", 3: "S S 7 7"}
# In every page: when its board first showed each revision, and the saver's tap on
# Guardar, both on this machine's clock, kept in sessionStorage across a navigation.
WATCH = """
(() => {
  const KEY = "bench:seen";
  const seen = JSON.parse(sessionStorage.getItem(KEY) || "{}");
  function look() {
    const live = document.getElementById("board-live");
    const rev = live && live.getAttribute("data-revision");
    if (rev && !(rev in seen)) {
      seen[rev] = Date.now();
      sessionStorage.setItem(KEY, JSON.stringify(seen));
    }
  }
  new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true,
                                               attributeFilter: ["data-revision"]});
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest('[data-action="save"]')) {
      sessionStorage.setItem("bench:saved", String(Date.now()));
    }
  }, true);
  window.benchSeen = () => JSON.parse(sessionStorage.getItem(KEY) || "{}");
})();
"""


@dataclass
class PhoneLog:
    """What one phone asked while a save went round."""

    requests: int = 0
    bytes: int = 0
    pages: int = 0
    seen_ms: list[float] = field(default_factory=list)


def kind(request: Request) -> str:
    """What the server drew: "page" (a board or a hand page whole), "fragment", "static",
    "stream", "save", "tap" (the hand page's own taps), "shown" (the saver's word that it
    shows its board, a request of no body counted with the others)."""
    path = request.url.split("://", 1)[1].split("/", 1)[1]
    path = "/" + path
    if path.startswith("/static/"):
        return "static"
    if path.startswith("/events/"):
        return "stream"
    if "/mostrado/" in path:
        return "shown"  # the saver's word that its board shows the save: counted
    if request.method == "POST":
        body = request.post_data or ""
        return "save" if "act=save" in body else "tap"
    if "live=1" in path:
        return "fragment"
    if request.headers.get("hx-request") == "true":
        return "fragment"
    return "page"


@contextmanager
def checkout(revision: str) -> Iterator[Path]:
    """`revision` of this repository in a temporary worktree (this checkout for "")."""
    if not revision:
        yield ROOT
        return
    folder = Path(tempfile.mkdtemp(prefix="muscore-bench-before-"))
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder),
                    revision], check=True, capture_output=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(folder)],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def server(root: Path, cache_url: str, prefix: str) -> Iterator[str]:
    """One uvicorn (pages and streams) on `root`'s code, a fresh SQLite file; its URL."""
    folder = Path(tempfile.mkdtemp(prefix="muscore-bench-saver-"))
    env = base_env(
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        CACHE_URL=cache_url,
        CACHE_KEY_PREFIX=prefix,
        MUSCORE_RATE_WRITE="10000/m",
        MUSCORE_RATE_CREATE="1000/h",
    )
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input"], cwd=root, env=env,
                   check=True, capture_output=True)
    port = free_port()
    log = (folder / "uvicorn.log").open("wb")
    process = subprocess.Popen(
        [str(UVICORN), "muscore.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--lifespan", "on", "--no-access-log"],
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/manifest.webmanifest", timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit(f"uvicorn did not start in {root}") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def new_table(url: str) -> tuple[str, str]:
    body = json.dumps({"players": ["Ana", "Bruno", "Carla", "Diego"]}).encode()
    request = urllib.request.Request(f"{url}/api/v1/tables", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        table = json.loads(response.read())
    return str(table["id"]), str(table["edit_key"])


def revision_of(page: Page) -> int:
    return int(page.locator("#board-live").get_attribute("data-revision") or 0)


def tap_deal(page: Page) -> None:
    seats = page.locator("[data-picker-seat]").evaluate_all(
        "rows => rows.map(r => r.getAttribute('data-picker-seat'))")
    for seat in seats:
        for card in DEAL[int(seat)].split():
            page.locator(f'[data-card="{card}"]').click()
    page.locator("body[data-busy]").wait_for(state="detached")


def run(url: str, saves: int) -> dict[str, PhoneLog]:
    table_id, key = new_table(url)
    edit, view = f"{url}/t/{table_id}/k/{key}/", f"{url}/t/{table_id}/"
    logs = {"saver": PhoneLog(), "edit phone": PhoneLog(), "view phone": PhoneLog()}
    counting = {"on": False}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        pages: dict[str, Page] = {}
        for name, address in (("saver", edit), ("edit phone", edit), ("view phone", view)):
            context = browser.new_context(**{**PHONE, "base_url": url})
            context.add_init_script(WATCH)
            page = context.new_page()
            page.set_default_timeout(20_000)

            def counted(request: Request, name: str = name) -> None:
                if not counting["on"] or kind(request) in ("save", "tap", "stream"):
                    return
                log = logs[name]
                log.requests += 1
                if kind(request) == "page":
                    log.pages += 1

            def sized(request: Request, name: str = name) -> None:
                if counting["on"] and kind(request) not in ("save", "tap", "stream"):
                    # A request the browser dropped has no sizes; one of no body
                    # (the saver's word, a 204) says -1.
                    with contextlib.suppress(Exception):
                        logs[name].bytes += max(0, int(request.sizes()["responseBodySize"]))

            page.on("request", counted)
            page.on("requestfinished", sized)
            page.goto(address)
            page.wait_for_selector("html[data-stream='open']", state="attached")
            pages[name] = page
        saver = pages["saver"]
        for _ in range(saves):
            # Past a vaca's end (every 10 saves of this deal) the board offers "Otra vaca".
            saver.goto(edit + "?otra-vaca=1")
            saver.wait_for_selector("html[data-stream='open']", state="attached")
            saver.locator('[data-action="enter-hand"]').click()
            saver.wait_for_load_state()
            tap_deal(saver)
            before = revision_of(pages["view phone"])
            counting["on"] = True
            saver.locator('[data-action="save"]').click()
            wanted = before + 1
            for page in pages.values():
                page.wait_for_selector(f"#board-live[data-revision='{wanted}']", state="attached")
            # What follows a change (the copies kept for offline use) has a second to come.
            saver.wait_for_timeout(1500)
            counting["on"] = False
            tapped = int(saver.evaluate("() => Number(sessionStorage.getItem('bench:saved'))"))
            for name, page in pages.items():
                seen = page.evaluate("() => window.benchSeen()")
                logs[name].seen_ms.append(float(seen[str(wanted)]) - tapped)
        browser.close()
    return logs


def quantiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return (f"median {statistics.median(ordered):5.0f} ms, p95 {p95:5.0f} ms, "
            f"max {ordered[-1]:5.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--before", default=BEFORE, help="the revision to compare with")
    parser.add_argument("--saves", type=int, default=20)
    args = parser.parse_args()
    results: dict[str, dict[str, PhoneLog]] = {}
    with ExitStack() as stack:
        cache_url = stack.enter_context(redis())
        for label, revision in (("before", args.before), ("after", "")):
            root = stack.enter_context(checkout(revision))
            with server(root, cache_url, f"bench-saver-{label}") as url:
                results[label] = run(url, args.saves)
    load = os.getloadavg()
    print(f"bench_saver: {args.saves} saves each, before = {args.before}, after = this "
          f"checkout; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("\nsave to board (from the tap on Guardar to the board showing it):")
    for name in ("saver", "edit phone", "view phone"):
        for label in ("before", "after"):
            print(f"  {name:10} {label:6} {quantiles(results[label][name].seen_ms)}")
    for label in ("before", "after"):
        lags = [s - min(e, v) for s, e, v in zip(results[label]["saver"].seen_ms,
                                                 results[label]["edit phone"].seen_ms,
                                                 results[label]["view phone"].seen_ms,
                                                 strict=True)]
        later = sum(1 for lag in lags if lag > 0)
        print(f"  saver later than the first watcher, {label:6}: {later} of {len(lags)} saves"
              f" (by {statistics.median(lags):+.0f} ms median)")
    print("\nper phone per save, besides the push (requests, bytes, pages drawn whole):")
    for name in ("saver", "edit phone", "view phone"):
        for label in ("before", "after"):
            log = results[label][name]
            n = args.saves
            print(f"  {name:10} {label:6} {log.requests / n:4.1f} requests, "
                  f"{log.bytes / n / 1024:6.1f} KiB, {log.pages / n:3.1f} pages")


if __name__ == "__main__":
    main()
