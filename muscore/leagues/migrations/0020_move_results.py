"""Every stored result moves into its row (0019): each match's, each pair's claim's, and
the before and after of each audit's entry; within a match, the same result is one row
(its claim confirmed, the audit's after and the match's own share it). Backwards, the
columns are written again from the rows."""

from collections.abc import Iterator
from typing import Any

from django.db import migrations

BATCH = 1000
COLUMNS = ("source", "first_juegos", "second_juegos", "first_tantos", "second_tantos",
           "first_absent", "second_absent")


def _chunks(rows: list[Any]) -> Iterator[list[Any]]:
    for start in range(0, len(rows), BATCH):
        yield rows[start:start + BATCH]


def _figures(figures: Any) -> tuple[Any, ...] | None:
    """A result as the audit's JSON kept it (Match.figures()), as a row's columns."""
    if not isinstance(figures, dict) or not figures.get("source"):
        return None
    juegos = figures.get("juegos") or [None, None]
    tantos = figures.get("tantos") or [None, None]
    absent = figures.get("no_show") or [False, False]
    return (figures["source"], juegos[0] or 0, juegos[1] or 0, tantos[0], tantos[1],
            bool(absent[0]), bool(absent[1]))


class Rows:
    """The rows made, one per distinct result of each match."""

    def __init__(self, apps: Any) -> None:
        self.model = apps.get_model("leagues", "ResultRow")
        self.known: dict[tuple[Any, ...], Any] = {}
        self.waiting: list[tuple[tuple[Any, ...], Any]] = []

    def want(self, competition_id: int, match_id: int, columns: tuple[Any, ...]) -> None:
        key = (match_id, *columns)
        if key not in self.known:
            self.known[key] = None
            row = self.model(competition_id=competition_id, **dict(zip(COLUMNS, columns,
                                                                       strict=True)))
            self.waiting.append((key, row))

    def make(self) -> None:
        for chunk in _chunks(self.waiting):
            made = self.model.objects.bulk_create([row for _key, row in chunk])
            for (key, _row), row in zip(chunk, made, strict=True):
                self.known[key] = row.pk
        self.waiting = []

    def of(self, match_id: int, columns: tuple[Any, ...] | None) -> Any:
        return None if columns is None else self.known[(match_id, *columns)]


def forward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("leagues", "Match")
    ResultClaim = apps.get_model("leagues", "ResultClaim")
    Correction = apps.get_model("leagues", "Correction")
    rows = Rows(apps)
    matches = [(pk, competition_id, (source, jf or 0, js or 0, tf, ts, nf, ns))
               for pk, competition_id, source, jf, js, tf, ts, nf, ns in
               Match.objects.exclude(source="").order_by("pk").values_list(
                   "pk", "competition_id", "source", "juegos_first", "juegos_second",
                   "tantos_first", "tantos_second", "no_show_first", "no_show_second")]
    claims = [(pk, competition_id, match_id, ("manual", jf, js, tf, ts, False, False))
              for pk, competition_id, match_id, jf, js, tf, ts in
              ResultClaim.objects.order_by("pk").values_list(
                  "pk", "competition_id", "match_id", "juegos_first", "juegos_second",
                  "tantos_first", "tantos_second")]
    corrections = [(pk, competition_id, match_id, _figures(before), _figures(after),
                    before, after)
                   for pk, competition_id, match_id, before, after in
                   Correction.objects.order_by("pk").values_list(
                       "pk", "competition_id", "match_id", "before", "after")]
    for pk, competition_id, current in matches:
        rows.want(competition_id, pk, current)
    for _pk, competition_id, match_id, claimed in claims:
        rows.want(competition_id, match_id, claimed)
    for _pk, competition_id, match_id, before, after, _b, _a in corrections:
        for kept in (before, after):
            if kept is not None:
                rows.want(competition_id, match_id, kept)
    rows.make()
    for chunk in _chunks(matches):
        Match.objects.bulk_update(
            [Match(pk=pk, result_id=rows.of(pk, columns)) for pk, _c, columns in chunk],
            ["result"])
    for chunk in _chunks(claims):
        ResultClaim.objects.bulk_update(
            [ResultClaim(pk=pk, result_id=rows.of(match_id, columns))
             for pk, _c, match_id, columns in chunk], ["result"])
    for chunk in _chunks(corrections):
        Correction.objects.bulk_update(
            [Correction(pk=pk, before_result_id=rows.of(match_id, before),
                        after_result_id=rows.of(match_id, after),
                        players_before=_players(old_before),
                        players_after=_players(old_after))
             for pk, _c, match_id, before, after, old_before, old_after in chunk],
            ["before_result", "after_result", "players_before", "players_after"])


def _players(figures: Any) -> list[Any]:
    players = figures.get("players") if isinstance(figures, dict) else None
    return list(players) if players else [None, None]


def _columns(row: Any) -> dict[str, Any]:
    return {"source": row.source, "juegos": [row.first_juegos, row.second_juegos],
            "tantos": [row.first_tantos, row.second_tantos],
            "no_show": [row.first_absent, row.second_absent]}


NO_RESULT = {"source": "", "juegos": [None, None], "tantos": [None, None],
             "no_show": [False, False]}


def backward(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("leagues", "Match")
    ResultClaim = apps.get_model("leagues", "ResultClaim")
    Correction = apps.get_model("leagues", "Correction")
    ResultRow = apps.get_model("leagues", "ResultRow")
    row_of = {row.pk: row for row in ResultRow.objects.all()}
    changed = []
    for match in Match.objects.exclude(result=None):
        row = row_of[match.result_id]
        match.source = row.source
        match.juegos_first, match.juegos_second = row.first_juegos, row.second_juegos
        match.tantos_first, match.tantos_second = row.first_tantos, row.second_tantos
        match.no_show_first, match.no_show_second = row.first_absent, row.second_absent
        if row.first_absent and row.second_absent:
            match.winner = None
        elif row.first_absent or row.second_absent:
            match.winner = 1 if row.first_absent else 0
        else:
            match.winner = 0 if row.first_juegos > row.second_juegos else 1
        changed.append(match)
    Match.objects.bulk_update(changed, [
        "source", "juegos_first", "juegos_second", "tantos_first", "tantos_second",
        "no_show_first", "no_show_second", "winner"], batch_size=BATCH)
    claims = []
    for claim in ResultClaim.objects.exclude(result=None):
        row = row_of[claim.result_id]
        claim.juegos_first, claim.juegos_second = row.first_juegos, row.second_juegos
        claim.tantos_first, claim.tantos_second = row.first_tantos, row.second_tantos
        claims.append(claim)
    ResultClaim.objects.bulk_update(claims, ["juegos_first", "juegos_second", "tantos_first",
                                             "tantos_second"], batch_size=BATCH)
    corrections = []
    for correction in Correction.objects.all():
        before = row_of.get(correction.before_result_id)
        after = row_of.get(correction.after_result_id)
        correction.before = {**(_columns(before) if before else NO_RESULT),
                             "players": correction.players_before}
        correction.after = {**(_columns(after) if after else NO_RESULT),
                            "players": correction.players_after}
        corrections.append(correction)
    Correction.objects.bulk_update(corrections, ["before", "after"], batch_size=BATCH)


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0019_result_rows"),
    ]

    operations = [migrations.RunPython(forward, backward)]
