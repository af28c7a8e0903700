# Shared by scripts/run and scripts/test (sourced, not run): a virtual
# environment inside the checkout, installed only when pyproject.toml changed,
# so the second run of either command starts in a second or two.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
UV_VERSION=0.13.9

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

ensure_venv() {
    # $1: "" for the app alone, "test" for the app and what the tests need.
    local extras="$1" spec="." stamp want python
    [ -n "$extras" ] && spec=".[$extras]"
    if [ ! -x "$VENV/bin/python" ]; then
        python="$(find_python)"
        echo "Creating $VENV with $python"
        "$python" -m venv "$VENV"
    fi
    stamp="$VENV/.muscore-installed-${extras:-app}"
    want="$(cd "$ROOT" && "$VENV/bin/python" -c 'import hashlib,sys; print(hashlib.sha256(open("pyproject.toml","rb").read()).hexdigest())')"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    echo "Installing muscore ($spec) into $VENV"
    # uv installs the same pinned packages as pip in a few seconds where pip takes a
    # minute (measured on a fresh clone: 10 s against 65 s); it is itself pinned, and
    # pip does the install whenever uv cannot (no registry, an unknown platform...).
    if ! (cd "$ROOT" && "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
            "uv==$UV_VERSION" 2>/dev/null && "$VENV/bin/uv" pip install --quiet \
            --python "$VENV/bin/python" -e "$spec"); then
        echo "(uv could not install; pip does)"
        (cd "$ROOT" && "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec")
    fi
    echo "$want" >"$stamp"
}
