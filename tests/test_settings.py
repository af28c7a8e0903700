"""The production settings, checked the way an operator would: `manage.py check --deploy`."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from muscore.middleware import ContentSecurityPolicyMiddleware

ROOT = Path(__file__).resolve().parent.parent


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # A clean slate: nothing from the developer's shell or the test run leaks in.
    base = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "DATABASE_URL")}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**base, "DJANGO_SETTINGS_MODULE": "muscore.settings", **env},
        timeout=120,
    )


PRODUCTION = {
    "DEBUG": "false",
    "MUSCORE_HTTPS": "true",
    "ALLOWED_HOSTS": "mus.example.org",
    "STATIC_MANIFEST": "true",
}


def test_check_deploy_reports_nothing_in_the_documented_production_environment() -> None:
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING",
        SECRET_KEY=secrets.token_urlsafe(50), **PRODUCTION,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_flags_the_development_defaults() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="false")
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W009", "security.W016"):
        assert warning in result.stderr, warning


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = manage("check", **PRODUCTION)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_bad_boolean_in_the_environment_names_the_variable() -> None:
    result = manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be true or false, not 'maybe'" in result.stderr


def test_pages_carry_a_content_security_policy_with_no_outside_origin(client: Client) -> None:
    policy = client.get("/").headers["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    for sources in directives.values():
        assert "http" not in sources and "*" not in sources and "unsafe" not in sources


def test_a_view_that_sets_its_own_policy_keeps_it(rf: RequestFactory) -> None:
    def view(request: HttpRequest) -> HttpResponse:
        response = HttpResponse()
        response.headers["Content-Security-Policy"] = "default-src 'none'"
        return response

    response = ContentSecurityPolicyMiddleware(view)(rf.get("/"))
    assert response.headers["Content-Security-Policy"] == "default-src 'none'"


def test_production_serves_hashed_static_files_cached_for_a_year(tmp_path: Path) -> None:
    env = {
        **PRODUCTION,
        "ALLOWED_HOSTS": "testserver",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "STATIC_ROOT": str(tmp_path),
    }
    collected = manage("collectstatic", "--no-input", **env)
    assert collected.returncode == 0, collected.stderr
    # The home page through the whole middleware stack, as gunicorn would run it.
    probe = (
        "import re, django; django.setup()\n"
        "from django.test import Client\n"
        "client = Client()\n"
        "page = client.get('/', secure=True).content.decode()\n"
        "css = re.search(r'/static/css/[^\"]+', page).group(0)\n"
        "print(css)\n"
        "print(client.get(css, secure=True).headers['Cache-Control'])\n"
    )
    result = manage("shell", "--no-imports", "-c", probe, **env)
    assert result.returncode == 0, result.stderr
    css, cache_control = result.stdout.splitlines()[-2:]
    assert re.fullmatch(r"/static/css/muscore\.[0-9a-f]{12}\.css", css)
    assert "immutable" in cache_control
    max_age = re.search(r"max-age=(\d+)", cache_control)
    assert max_age and int(max_age.group(1)) >= 365 * 24 * 3600


CACHE_PROBE = (
    "from django.conf import settings; c = settings.CACHES['default']; "
    "print(c['BACKEND'], c.get('LOCATION'), c.get('OPTIONS', {}).get('MAX_ENTRIES'))"
)


def test_the_cache_is_bounded_local_memory_unless_cache_url_names_a_redis() -> None:
    local = manage("shell", "--no-imports", "-c", CACHE_PROBE)
    assert local.returncode == 0, local.stderr
    locmem = "django.core.cache.backends.locmem.LocMemCache"
    assert local.stdout.split() == [locmem, "muscore", "300"]
    redis = manage("shell", "--no-imports", "-c", CACHE_PROBE, CACHE_URL="redis://10.1.2.3:6380/2")
    assert redis.returncode == 0, redis.stderr
    assert redis.stdout.split() == [
        "muscore.cache.ResilientRedisCache", "redis://10.1.2.3:6380/2", "None"
    ]  # fmt: skip


def test_a_cache_url_muscore_cannot_use_is_refused_by_name() -> None:
    result = manage("check", CACHE_URL="memcached://127.0.0.1:11211")
    assert result.returncode != 0
    assert "CACHE_URL must be redis://" in result.stderr


def test_check_deploy_with_a_redis_cache_reports_nothing() -> None:
    # django-ratelimit knows only django-redis's backend; Django's own counts atomically too.
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", SECRET_KEY=secrets.token_urlsafe(50),
        CACHE_URL="redis://127.0.0.1:6379/0", **PRODUCTION,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_hashes_passwords_with_djangos_slow_default() -> None:
    # The suite hashes with MD5 for speed (tests/conftest.py); the app itself must not.
    result = manage(
        "shell", "--no-imports", "-c",
        "from django.conf import settings; print(settings.PASSWORD_HASHERS[0])",
        **PRODUCTION, SECRET_KEY=secrets.token_urlsafe(50),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.contrib.auth.hashers.PBKDF2PasswordHasher"
