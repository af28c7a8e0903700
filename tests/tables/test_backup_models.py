"""Every model of every installed app is backed up or named as derived (issue 28 point 1).

A model added tomorrow, in any app, fails here until it is in the backup (it is, by
default: `backups.backed_up_models` takes every app) or in `backups.DERIVED` with why.
"""

from __future__ import annotations

from django.apps import apps

from muscore.tables import backups


def test_every_model_of_every_app_is_backed_up_or_named_as_derived() -> None:
    held = {model._meta.label_lower for model in backups.backed_up_models()}
    owners = {field.remote_field.through: owner._meta.label_lower
              for owner in apps.get_models() for field in owner._meta.local_many_to_many}
    missing = []
    for model in apps.get_models(include_auto_created=True):
        label = model._meta.label_lower
        if model._meta.auto_created:
            # An automatic many-to-many table is written with the model that declares it.
            label = owners[model]
        if label not in held and label not in backups.DERIVED:
            missing.append(model._meta.label_lower)
    assert not missing, f"neither backed up nor named in backups.DERIVED: {missing}"
    # The muscore apps are all there, and the derived list names only models that exist.
    assert {"championships.sede", "championships.enrolment", "championships.phasegroup",
            "leagues.match", "clubs.membership", "tables.hand", "auth.user"} <= held
    every = {model._meta.label_lower for model in apps.get_models()}
    assert set(backups.DERIVED) <= every
    assert not held & set(backups.DERIVED)


def test_every_app_of_the_project_is_in_the_backup() -> None:
    """Not a list kept by hand: each installed app of muscore has its models backed up."""
    held = {model._meta.app_label for model in backups.backed_up_models()}
    ours = {config.label for config in apps.get_app_configs()
            if config.name.startswith("muscore.") and list(config.get_models())}
    assert ours <= held, ours - held
