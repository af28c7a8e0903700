"""`manage.py COMMAND --help` explains every option of every command (issue 31): a test
walks each command's parser, Django's, the libraries' and muscore's (build_large_* too)."""

from __future__ import annotations

import argparse

import pytest
from django.core.management import get_commands, load_command_class

COMMANDS = sorted(get_commands().items())


def muscore_commands() -> list[str]:
    return [name for name, app in COMMANDS if app.startswith("muscore.")]


def test_muscore_has_its_commands() -> None:
    assert {"rating_worker", "build_large_club", "build_large_championship", "backup",
            "restore"} <= set(muscore_commands())


@pytest.mark.parametrize(("name", "app"), COMMANDS, ids=[name for name, _app in COMMANDS])
def test_every_option_has_its_help(name: str, app: str) -> None:
    command = load_command_class(app, name)
    parser = command.create_parser("manage.py", name)
    missing = [
        "/".join(action.option_strings) or action.dest
        for action in parser._actions
        if not isinstance(action, argparse._HelpAction)
        # Django's own positional arguments (check's app labels...) are its business.
        and (action.option_strings or app.startswith("muscore."))
        and (action.help is None or not str(action.help).strip())
        and action.help != argparse.SUPPRESS
    ]
    assert not missing, f"manage.py {name}: no --help text for {', '.join(missing)}"
    if app.startswith("muscore."):
        assert str(command.help).strip(), f"manage.py {name} says nothing of what it does"
