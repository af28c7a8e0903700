# Shared by scripts/run, scripts/test and scripts/lock (sourced, not run): a virtual
# environment inside the checkout, installed from the lock file (uv.lock) only when
# pyproject.toml or uv.lock changed, so the second run of either command starts in a
# second or two.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
UV_VERSION=0.13.9
# uv itself lives beside the environment, not in it: `uv sync` makes the environment
# exactly what the lock says, and would take uv out of it.
UV_HOME="$VENV/uv-$UV_VERSION"

find_python() {
    # Any Python 3.11+ on PATH will do; PYTHON wins when set.
    local candidate
    for candidate in ${PYTHON:-} python3 python3.13 python3.12 python3.11 python; do
        if command -v "$candidate" >/dev/null 2>&1 &&
            "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
    echo "muscore needs Python 3.11 or newer on PATH (or PYTHON=/path/to/python3.11)." >&2
    return 1
}

ensure_uv() {
    # Installs the pinned uv (once) and prints its path; fails when uv cannot be had
    # (no wheel for this platform, no registry).
    if [ ! -x "$UV_HOME/bin/uv" ]; then
        local python
        python="$(find_python)" || return 1
        mkdir -p "$VENV"
        rm -rf "$UV_HOME"
        "$python" -m venv "$UV_HOME" >/dev/null 2>&1 &&
            "$UV_HOME/bin/python" -m pip install --quiet --disable-pip-version-check \
                "uv==$UV_VERSION" >/dev/null 2>&1 || { rm -rf "$UV_HOME"; return 1; }
    fi
    echo "$UV_HOME/bin/uv"
}

ensure_venv() {
    # $1: "" for the app alone, "test" for the app and what the tests need.
    # The environment is the lock's (uv.lock): `uv sync --locked` refuses to install when
    # the lock no longer matches pyproject.toml (run ./scripts/lock, docs/operations.md).
    local extras="$1" stamp have want uv python
    stamp="$VENV/.muscore-installed"
    if [ -x "$VENV/bin/python" ]; then
        want="$(cd "$ROOT" && cat pyproject.toml uv.lock | "$VENV/bin/python" -c \
            'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
        have="$(cat "$stamp" 2>/dev/null || true)"
        # The test environment holds the app's too: scripts/run after scripts/test keeps it.
        if [ "$have" = "$want test" ] || [ "$have" = "$want ${extras:-app}" ]; then
            return 0
        fi
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        python="$(find_python)" || return 1
        echo "Creating $VENV with $python"
        "$python" -m venv "$VENV"
    fi
    echo "Installing muscore (${extras:-app}) from uv.lock into $VENV"
    if uv="$(ensure_uv)"; then
        # uv installs in seconds where pip takes a minute (10 s against 65 s from a fresh
        # clone). A lock that disagrees with pyproject.toml fails here, never falls back.
        (cd "$ROOT" && UV_PROJECT_ENVIRONMENT="$VENV" "$uv" sync --locked --quiet \
            --python "$VENV/bin/python" --no-python-downloads ${extras:+--extra "$extras"}) || {
            echo "uv sync --locked failed: if it says uv.lock needs to be updated, pyproject.toml" \
                "changed without ./scripts/lock (docs/operations.md, \"Dependencies\")." >&2
            return 1
        }
    else
        # Where uv cannot run (no wheel for this platform), pip installs the same versions
        # with the same hashes, exported from uv.lock (requirements/*.txt; tests/test_project.py
        # checks they match the lock). pip cannot check the lock against pyproject.toml:
        # the tests do, on a machine that has uv.
        echo "(uv could not be installed; pip installs requirements/${extras:-app}.txt)"
        "$VENV/bin/python" -m ensurepip --upgrade >/dev/null 2>&1 || true
        (cd "$ROOT" && "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
            --require-hashes --no-deps -r "requirements/${extras:-app}.txt" &&
            "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
                -e .) || return 1
    fi
    want="$(cd "$ROOT" && cat pyproject.toml uv.lock | "$VENV/bin/python" -c \
        'import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())')"
    echo "$want ${extras:-app}" >"$stamp"
}
