"""gunicorn settings for production: `gunicorn -c python:muscore.gunicorn_conf muscore.wsgi`.

Command-line flags (--bind, --workers) still apply on top of these. The access log
goes to standard output and the error log to standard error; both mask edit keys
(muscore.logs.GunicornLogger), and each access line ends with the request's id, the
same id as on the app's own log lines for that request.
"""

import glob
import os
import tempfile
from typing import Any

accesslog = "-"
errorlog = "-"
logger_class = "muscore.logs.GunicornLogger"
# gunicorn's default (Apache's combined format), then the time taken and the request id
# that muscore.middleware.RequestIdMiddleware puts in the response.
access_log_format = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms rid=%({x-request-id}o)s'
)

# gunicorn 25+'s control socket (gunicornc: workers, reload, stop) defaults to one path per
# user ($XDG_RUNTIME_DIR/gunicorn.ctl or ~/.gunicorn/gunicorn.ctl): a second site run by the
# same account takes it over, and stopping either deletes the other's. Off, unless the site
# names a path of its own (MUSCORE_CONTROL_SOCKET=/srv/muscore/run/gunicorn.ctl).
control_socket = os.environ.get("MUSCORE_CONTROL_SOCKET", "").strip()
control_socket_disable = not control_socket

# A worker killed for taking too long (gunicorn's --timeout) says which request it was
# answering: gunicorn's own "WORKER TIMEOUT" line names only the process. The path is
# masked like every line (muscore.logs.GunicornLogger); the id is the request's.


def pre_request(worker: Any, req: Any) -> None:
    worker.muscore_request = f"{req.method} {req.path}"


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    worker.muscore_request = None


def worker_abort(worker: Any) -> None:
    from muscore import logs

    worker.log.error(
        "Worker (pid:%s) killed while answering %s [%s]",
        worker.pid,
        getattr(worker, "muscore_request", None) or "no request",
        logs.request_id.get(),
    )


# The abuse limits (muscore/ratelimits.py) count in the Django cache: with the default
# (each process's own memory) every worker counts alone, so a limit lets through up to
# workers times its rate. Said once at start, where the number of workers is known.
def when_ready(server: Any) -> None:
    workers = server.cfg.workers
    if workers > 1 and os.environ.get("CACHE_URL", "").strip() in ("", "locmem://"):
        server.log.warning(
            "the abuse limits count in each worker's own memory: %s workers each allow "
            "the whole rate; set CACHE_URL=redis://... for one count (docs/operations.md, "
            "Abuse limits)", workers)


# /metrics (muscore.watch) sums the figures of every worker: prometheus-client's multiprocess
# mode keeps them in files of PROMETHEUS_MULTIPROC_DIR, which must be set before any worker
# starts (it is inherited) and empty at start. Without one set, a new temporary folder.
_made_metrics_dir = ""
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _made_metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(
        prefix="muscore-metrics-")


def on_starting(server: Any) -> None:
    for stale in glob.glob(os.path.join(os.environ["PROMETHEUS_MULTIPROC_DIR"], "*.db")):
        os.remove(stale)


def post_worker_init(worker: Any) -> None:
    # Each worker's memory, CPU and open files, which the multiprocess mode leaves out.
    from muscore import metrics

    metrics.start_process_figures()


def child_exit(server: Any, worker: Any) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def on_exit(server: Any) -> None:
    if _made_metrics_dir:
        import shutil

        shutil.rmtree(_made_metrics_dir, ignore_errors=True)
