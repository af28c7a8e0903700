"""muscore's build backend: setuptools', except that it builds no wheel.

The release is the checkout at a commit, installed editable from uv.lock
(docs/operations.md, "Releases"): muscore's templates, static files and translations live
beside the package (templates/, static/, locale/), not in it, so a wheel built from it
would install without them and fail its first page (TemplateDoesNotExist). Refused here,
saying why, rather than built broken. Editable installs (`uv sync`, `pip install -e .`),
the metadata and the sdist are setuptools' own.
"""

from __future__ import annotations

from typing import Any

REFUSAL = (
    "muscore is not released as a wheel: its templates, static files and translations live "
    "in the checkout beside the package, so a wheel would install without them. Install the "
    "checkout instead (./scripts/run, or uv sync --locked; docs/operations.md, \"Releases\").")


def build_wheel(wheel_directory: str, config_settings: Any = None,
                metadata_directory: Any = None) -> str:
    raise RuntimeError(REFUSAL)


def __getattr__(name: str) -> Any:
    # Every other hook (build_editable, build_sdist, prepare_metadata_*, get_requires_*).
    from setuptools import build_meta

    return getattr(build_meta, name)
