"""The league's pure computations stay in muscore.leagues.compute (issue 17), and the
championship's in muscore.championships.compute (issue 36), where import-linter's
contracts (compute-pure, championships-compute-pure: no Django, no app; ./scripts/test
runs lint-imports) cover every module of the package: a module moved out of it would
leave them."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules(package: str) -> set[str]:
    return {p.stem for p in (ROOT / "muscore" / package / "compute").glob("*.py")}


def test_each_package_holds_its_pure_computations() -> None:
    assert {"standings", "fixtures", "ratings", "ceros", "handstats", "document", "errors",
            "cli"} <= modules("leagues")
    assert {"quotas", "draw"} <= modules("championships")
    contracts = (ROOT / ".importlinter").read_text()
    for package in ("muscore.leagues.compute", "muscore.championships.compute"):
        assert f"source_modules =\n    {package}\n" in contracts, package
