"""Every cup's knockout match (`Match.slot`) becomes the one game of its tie (0024): the
tie at the slot's place in the bracket, with the match's pairs. Backwards, the slot is
written again from the tie's place."""

from typing import Any

from django.db import migrations

# Each slot's place in its cup's bracket (round, place): the quarterfinals in bracket order
# (qf1 and qf3 feed the first semifinal), the final's round's place 1 the third place.
PLACES = {
    2: {"sf1": (1, 0), "sf2": (1, 1), "final": (2, 0), "third": (2, 1)},
    4: {"qf1": (1, 0), "qf3": (1, 1), "qf2": (1, 2), "qf4": (1, 3), "sf1": (2, 0),
        "sf2": (2, 1), "final": (3, 0), "third": (3, 1)},
}


def forward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("leagues", "Match")
    Tie = apps.get_model("leagues", "Tie")
    games = list(Match.objects.exclude(slot="").select_related("competition")
                 .order_by("competition_id", "number"))
    ties = Tie.objects.bulk_create([
        Tie(competition_id=m.competition_id, first_id=m.first_id, second_id=m.second_id,
            round=PLACES[4 if m.competition.group_count == 4 else 2][m.slot][0],
            order=PLACES[4 if m.competition.group_count == 4 else 2][m.slot][1])
        for m in games], batch_size=1000)
    for m, tie in zip(games, ties, strict=True):
        m.tie_id, m.game = tie.pk, 1
    Match.objects.bulk_update(games, ["tie", "game"], batch_size=1000)


def backward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("leagues", "Match")
    games = list(Match.objects.exclude(tie=None).select_related("competition", "tie"))
    for m in games:
        places = PLACES[4 if m.competition.group_count == 4 else 2]
        m.slot = next(slot for slot, place in places.items()
                      if place == (m.tie.round, m.tie.order))
    Match.objects.bulk_update(games, ["slot"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0024_ties"),
    ]

    operations = [migrations.RunPython(forward, backward)]
