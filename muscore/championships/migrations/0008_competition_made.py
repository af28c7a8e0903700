"""What the names of the competitions a phase made are made of (issue 27): each group's and
knockout game's ``Competition.made``, from its phase and place, so the pages name them in
the reader's language (muscore.leagues.names), and their stored names said again in the
site's language (a phase drawn from a French page stored "Phase de poules · Grupo 1")."""

from typing import Any

from django.db import migrations

from muscore.leagues.names import stored_name


def fill(apps: Any, schema_editor: Any) -> None:
    PhaseGroup = apps.get_model("championships", "PhaseGroup")
    Competition = apps.get_model("leagues", "Competition")
    changed = []
    for group in PhaseGroup.objects.select_related("phase", "competition").filter(
            competition__isnull=False).iterator():
        phase, competition = group.phase, group.competition
        if not phase.knockout:
            made: dict[str, Any] = {"of": phase.name, "group": group.order + 1}
        else:
            places = len((phase.draw or {}).get("bracket") or [None, None])
            total = max(places.bit_length() - 1, 1)
            made = {"of": phase.name, "round": group.round, "rounds": total,
                    "tie": group.order + 1, "third": group.order == 1 and group.round == total}
            if phase.best_of > 1:
                made["game"] = group.game
        competition.made = made
        competition.name = stored_name(made)[:200] or competition.name
        changed.append(competition)
    Competition.objects.bulk_update(changed, ["made", "name"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("championships", "0007_entry_confirmation"),
        ("leagues", "0017_competition_made"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
