"""What an operator watches (muscore/watch.py, muscore/metrics.py, muscore/version.py):
/healthz's 200 and 503, /metrics in Prometheus' format, the version in the API and the admin."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from muscore import version
from muscore.clubs.models import Club
from muscore.leagues.models import Competition, DocumentBacklog
from muscore.leagues.workers import Heart, WorkerBeat

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def health(client: Client) -> tuple[int, dict]:  # type: ignore[type-arg]
    response = client.get("/healthz")
    return response.status_code, json.loads(response.content)


def beat(seconds_ago: float = 0) -> None:
    WorkerBeat.objects.create(worker_id="w1", host="h", pid=1, queues="all",
                              seen_at=timezone.now() - timedelta(seconds=seconds_ago))


def test_healthz_is_200_with_the_database_and_a_live_worker(client: Client) -> None:
    beat()
    status, body = health(client)
    assert status == 200, body
    assert body["status"] == "ok" and body["failing"] == []
    assert body["checks"]["database"]["ok"] and body["checks"]["cache"]["ok"]
    assert body["checks"]["workers"]["alive"] == 1
    assert body["version"] == version.current()


def test_healthz_is_503_without_a_worker_and_says_so(client: Client) -> None:
    status, body = health(client)
    assert status == 503
    assert body["failing"] == ["workers"]
    assert "no worker beat in the last 60 s" in body["checks"]["workers"]["error"]


def test_a_worker_silent_for_longer_than_its_limit_counts_as_stopped(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSCORE_WORKER_STALE_SECONDS", "10")
    # 5 s inside the limit: a first request that loads every view takes seconds on a busy
    # machine (9 s ago was past the limit by then at load 19).
    beat(seconds_ago=5)
    assert health(client)[0] == 200
    WorkerBeat.objects.update(seen_at=timezone.now() - timedelta(seconds=11))
    status, body = health(client)
    assert status == 503 and body["failing"] == ["workers"]


def test_healthz_is_503_when_the_backlog_is_older_than_its_limit(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    beat()
    club = Club.objects.create(name="Club de prueba", slug="prueba")
    competition = Competition.objects.create(club=club, name="Liga", rules={})
    DocumentBacklog.objects.create(competition=competition,
                                   queued_at=timezone.now() - timedelta(seconds=400))
    status, body = health(client)
    assert status == 503
    workers = body["checks"]["workers"]
    assert workers["backlog"]["documents"] == 1 and workers["oldest_seconds"] >= 400
    assert re.search(r"the oldest waiting work is 40\d s old \(limit 300 s\)", workers["error"])
    monkeypatch.setenv("MUSCORE_BACKLOG_MAX_SECONDS", "600")
    assert health(client)[0] == 200


def test_healthz_costs_a_few_queries(client: Client,
                                     django_assert_max_num_queries: object) -> None:
    beat()
    with django_assert_max_num_queries(6):  # type: ignore[operator]
        assert client.get("/healthz").status_code == 200


def test_the_heart_beats_and_is_gone_when_stopped() -> None:
    heart = Heart("test-worker", "ratings")
    heart.start()
    try:
        row = WorkerBeat.objects.get(worker_id="test-worker")
        assert row.queues == "ratings" and row.pid > 0
    finally:
        heart.stop()
    assert not WorkerBeat.objects.filter(worker_id="test-worker").exists()


def test_metrics_count_requests_by_view_and_status(client: Client) -> None:
    client.get("/healthz")
    client.get("/no-such-page-here")
    body = client.get("/metrics").content.decode()
    assert "# TYPE muscore_requests_total counter" in body
    assert 'muscore_requests_total{method="GET",status="503",view="healthz"}' in body
    assert 'status="404",view="<unmatched>"' in body
    assert 'muscore_request_duration_seconds_bucket{le="0.1",view="healthz"}' in body
    assert "muscore_workers_alive 0.0" in body
    assert 'muscore_backlog{kind="ratings"} 0.0' in body
    assert "muscore_backlog_oldest_seconds" in body
    assert f'muscore_version_info{{version="{version.current()}"}} 1.0' in body


def test_metrics_ask_for_the_token_when_one_is_set(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSCORE_METRICS_TOKEN", "s3cret")
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 404
    ok = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret")
    assert ok.status_code == 200 and b"muscore_requests_total" in ok.content


def test_the_api_says_which_release_answered(client: Client) -> None:
    response = client.get("/api/v1/tables/999999")
    assert response["X-Muscore-Version"] == version.current()
    assert "X-Muscore-Version" not in client.get("/")


def test_the_admin_footer_shows_the_release(client: Client) -> None:
    admin = get_user_model().objects.create_superuser("root", "", "a long enough pw 123")
    client.force_login(admin)
    page = client.get("/admin/").content.decode()
    assert f'<p class="muscore-version">muscore {version.current()}</p>' in page


def test_the_version_comes_from_the_environment_first(monkeypatch: pytest.MonkeyPatch) -> None:
    version.current.cache_clear()
    try:
        monkeypatch.setenv("MUSCORE_VERSION", "abc123def456")
        assert version.current() == "abc123def456"
        monkeypatch.delenv("MUSCORE_VERSION")
        version.current.cache_clear()
        found = version.current()
        # The checkout's commit (git), or the package's version when there is no git.
        assert found and found != "abc123def456"
    finally:
        version.current.cache_clear()


def test_healthz_names_a_redis_that_does_not_answer(client: Client) -> None:
    import socket

    from django.test import override_settings

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed once the block ends: nothing listens there
    beat()
    caches = {"default": {"BACKEND": "muscore.cache.ResilientRedisCache",
                          "LOCATION": f"redis://127.0.0.1:{port}/0",
                          "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}
    with override_settings(CACHES=caches, RATELIMIT_ENABLE=False):
        status, body = health(client)
    assert status == 503
    assert body["failing"] == ["cache"]
    assert body["checks"]["cache"]["backend"] == "ResilientRedisCache"
    assert "ConnectionError" in body["checks"]["cache"]["error"] or "Redis failed" in body[
        "checks"]["cache"]["error"]


def test_metrics_give_the_database_the_tasks_and_the_process(client: Client) -> None:
    from django_tasks_db.models import DBTaskResult

    from muscore.leagues import tasks

    club = Club.objects.create(name="Club de prueba", slug="prueba")
    competitions = [Competition.objects.create(club=club, name=f"L{n}", rules={})
                    for n in range(4)]
    now = timezone.now()
    for seconds, competition in zip((1, 2, 3, 40), competitions, strict=True):
        row = DBTaskResult.objects.get(pk=tasks.make_documents.enqueue(
            competition_id=competition.pk).id)
        row.claim("w1")
        DBTaskResult.objects.filter(pk=row.pk).update(
            status="SUCCESSFUL", started_at=now - timedelta(seconds=seconds), finished_at=now)
    tasks.make_documents.enqueue(competition_id=competitions[0].pk)  # one waiting
    client.get("/healthz")
    body = client.get("/metrics").content.decode()
    assert "muscore_database_up 1.0" in body and "muscore_database_ping_seconds" in body
    assert "muscore_cache_up 1.0" in body  # local memory: no ping, no Redis figures
    assert "muscore_db_query_duration_seconds_bucket" in body
    assert re.search(r"muscore_db_queries_per_request_count [1-9]", body)
    assert 'muscore_tasks_waiting{queue="documents",status="ready"} 1.0' in body
    assert 'muscore_tasks_finished{queue="documents",status="successful"} 4.0' in body
    assert 'muscore_task_duration_seconds{quantile="0.5",queue="documents"} 3.0' in body
    assert 'muscore_task_duration_seconds{quantile="1",queue="documents"} 40.0' in body
    assert re.search(r"process_resident_memory_bytes [1-9]", body)
