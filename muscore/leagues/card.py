"""A club's night for the group chat, and what the bar's screen shows of it.

Which competition is being played (`current_competition`), its current round
(`current_round`), its latest results; and the card of a round or a night: its
results, the top of the standings and the night's órdago, as text (`card_text`) and
as a PNG drawn here with Pillow (`render_png`; the fonts are DejaVu Sans, shipped in
static/fonts with their licence, since Pillow's bundled font has no accents).

Neither the text nor the image carries a private link: no table's edit or view key,
no pair's link; at most the competition's public page.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db.models import Max, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from PIL import Image, ImageDraw, ImageFont

from muscore.leagues import ceros_rounds, pages, part_of
from muscore.leagues.models import Competition, Entry, Match, PairHandStats, Round
from muscore.tables.models import Hand

# Changes every card's ETag when the drawing changes.
CARD_VERSION = "5"
LANCES = ("grande", "chica", "pares", "juego", "punto")


# --- what is being played -------------------------------------------------------------------------


def current_competition(club: Any, chosen: int | None = None) -> Competition | None:
    """The competition the screen shows (:func:`current_shown`), None when it shows a
    championship or nothing."""
    shown = current_shown(club, chosen)
    return shown if isinstance(shown, Competition) else None


def current_shown(club: Any, chosen: int | None = None) -> Competition | part_of.Whole | None:
    """The competition `chosen` (by id, None when it is not the club's), else the one the
    organiser put on the TV (the latest put there), else the club's competition being
    played (the latest), else its latest drawn one; an archived one only when chosen.
    A championship's heat, group or knockout is shown as itself only when chosen or put
    on the TV: else the club's own competition is, and without one the championship, once
    (its name and state: a :class:`part_of.Whole`), as the club page lists them."""
    competitions = _listed(club)
    if chosen is not None:
        return competitions.filter(pk=chosen).first()
    competitions = competitions.filter(archived=False)
    on_tv = competitions.filter(on_tv=True).order_by("-updated_at", "-id").first()
    if on_tv is not None:
        return on_tv
    latest = ("-created_at", "-id")
    for candidates in (competitions.filter(status=Competition.Status.PLAYING),
                       competitions.exclude(status=Competition.Status.DRAFT)):
        ids = list(candidates.order_by(*latest).values_list("pk", flat=True))
        if not ids:
            continue
        parts = part_of.parts(ids)
        own = next((pk for pk in ids if pk not in parts), None)
        if own is not None:
            return competitions.get(pk=own)
        return part_of.wholes([ids[0]]).get(ids[0])
    return None


def _listed(club: Any) -> QuerySet[Competition]:
    return Competition.objects.filter(club=club).exclude(
        status=Competition.Status.IMPORTING).select_related("club")


def current_round(competition: Competition) -> int | None:
    """The first round with a match left to play, else the latest round (None: no rounds)."""
    left = (
        Match.objects.filter(competition=competition).unplayed()
        .exclude(first=None)
        .order_by("number")
        .values_list("round__number", flat=True)
        .first()
    )
    if left is not None:
        return left
    latest: int | None = competition.rounds.aggregate(n=Max("number"))["n"]
    return latest


def latest_results(competition: Competition, count: int) -> list[Match]:
    """The competition's last `count` results, newest first: their ids first, sorted
    without the joins (a 200-pair league has 39,800 matches), then those few rows."""
    ids = list(
        Match.objects.filter(competition=competition).played()
        .order_by("-result_at", "-id").values_list("id", flat=True)[:count]
    )
    return list(pages.matches_of(competition).filter(id__in=ids).order_by("-result_at", "-id"))


def ceros_table(competition: Competition, upto: int | None = None) -> list[dict[str, Any]] | None:
    """A ceros tournament's table as the screen shows it (muscore.leagues.ceros_rounds:
    pairs still in first, by fewest ceros, then those out; after round `upto` when given);
    None for any other format."""
    if competition.format != Competition.Format.CEROS:
        return None
    state = ceros_rounds.table(competition, upto)
    winner = state.winner.pk if state.winner is not None else None
    return [
        {
            "position": row.position,
            "name": row.entry.pair.name,
            "marks": "●" * row.losses + "○" * row.ceros_left,
            "losses": row.losses,
            "left": row.ceros_left,
            "won": row.wins,
            "alive": row.alive,
            "out_in_round": row.out_in_round,
            "winner": row.entry.pk == winner,
        }
        for row in state.rows
    ]


def _points(n: int) -> str:
    return ngettext("%(n)s punto", "%(n)s puntos", n) % {"n": n}


def _standings_top(competition: Competition, upto: int | None = None) -> list[dict[str, Any]]:
    """The top 3 of each standings table after round `upto` when given, else today (of a
    ceros tournament: the pairs still in, by fewest ceros), each with its figure in words."""
    rows = ceros_table(competition, upto)
    if rows is not None:
        top = []
        for i, row in enumerate(rows[:3], 1):
            if row["winner"]:
                figure = _("ganadora")
            elif row["alive"]:
                figure = ngettext("%(n)s cero", "%(n)s ceros", row["losses"]) % {
                    "n": row["losses"]}
            else:
                figure = _("fuera en la ronda %(n)s") % {"n": row["out_in_round"]}
            top.append({"position": row["position"] or i, "name": row["name"],
                        "figure": figure})
        return [{"title": "", "rows": top}]
    return [
        {"title": table.title,
         "rows": [{"position": i, "name": r["row"].name,
                   "figure": _points(r["row"].points)}
                  for i, r in enumerate(table.rows[:3], 1)]}
        for table in pages.standings_tables(competition, upto)
    ]


# --- the night ------------------------------------------------------------------------------------


@dataclass
class Night:
    """A round or a night of a competition as the card tells it."""

    club: str
    competition: str
    title: str
    filename: str
    results: list[dict[str, str]] = field(default_factory=list)
    left: int = 0
    standings: list[dict[str, Any]] = field(default_factory=list)
    ordagos: list[str] = field(default_factory=list)
    #: A cup's winner once its final is played (groups + knockout), else "".
    champion: str = ""


def cup_champion(competition: Competition) -> str:
    """The winner of a groups + knockout competition's final, "" before it (one query)."""
    if competition.format != Competition.Format.GROUPS:
        return ""
    final = (competition.matches.filter(tie__round=3 if competition.group_count == 4 else 2,
                                        tie__order=0).decided().with_outcome()
             .select_related("first__pair", "second__pair").first())
    result = final.outcome if final is not None else None
    if final is None or result is None or result.winner is None:
        return ""
    return pages.pair_name((final.first, final.second)[result.winner])


def round_night(competition: Competition, number: int) -> Night | None:
    """Round `number` of a competition (every group's round of that number), or None."""
    views = pages.rounds_of(competition, number)
    if not views:
        return None
    title = pages.round_title(views[0].round) if len(views) == 1 else _(
        "Jornada %(n)s") % {"n": number}
    matches = [row["match"] for view in views for row in view.matches]
    # The standings after this round, not today's: a card shared later tells the round.
    return _night(competition, title, f"jornada-{number}", matches, upto=number)


def night_matches(competition: Competition, date: dt.date) -> list[Match]:
    """The matches of a competition with a result on `date` (the club's local day), as
    `date_night` draws them: read once, they serve the card in every language."""
    # Through the competition's own manager: every row shares the one competition (and
    # club) instead of building its own, and the matches' document text is not read.
    matches = list(competition.matches.played().with_outcome().select_related("tie")
                   .filter(result_at__date=date).defer("doc").order_by("number"))
    # Their rounds and entries (with their pairs) read once and shared, as select_related
    # would load them: joined, a 39,800-match night built six more rows per match.
    rounds = Round.objects.filter(competition=competition).select_related("group").in_bulk()
    entries = Entry.objects.filter(competition=competition).select_related("pair").in_bulk()
    for match in matches:
        Match.round.field.set_cached_value(match, rounds[match.round_id])
        Match.first.field.set_cached_value(match, entries.get(match.first_id))
        Match.second.field.set_cached_value(match, entries.get(match.second_id))
    return matches


def date_night(competition: Competition, date: dt.date,
               matches: list[Match] | None = None) -> Night | None:
    """The card of the matches of a competition with a result on `date` (the club's local
    day), or None when there are none. `matches`: `night_matches` read already (the
    document worker draws the one night in every language)."""
    if matches is None:
        matches = night_matches(competition, date)
    if not matches:
        return None
    title = _("La noche del %(date)s") % {"date": formats.date_format(date, "DATE_FORMAT")}
    return _night(competition, title, f"noche-{date.isoformat()}", matches)


def latest_night(competition: Competition) -> dt.date | None:
    """The local date of the competition's latest result (None: no result yet)."""
    at = (Match.objects.filter(competition=competition).played()
          .exclude(result_at=None).order_by("-result_at").values_list("result_at", flat=True)
          .first())
    return timezone.localdate(at) if at is not None else None


def _night(competition: Competition, title: str, filename: str, matches: list[Match],
           upto: int | None = None) -> Night:
    night = Night(competition.club.name, competition.title, title, filename)
    tables = table_labels(matches)
    rounds = round_labels(matches)
    for match in matches:
        row = pages.match_row(match, url=False)
        if not row["known"]:
            continue
        result = row["outcome"]
        if result is None:
            night.left += 1
            continue
        night.results.append({
            "table": tables[match.pk],
            "round": rounds.get(match.pk, ""),
            "first": row["first"],
            "second": row["second"],
            "result": row["result"],
            # The image's right column: a no-show's sentence does not fit there.
            "short": _("no presentado") if result.source == "no_show" else row["result"],
            "winner": "" if result.winner is None else (row["first"], row["second"])[
                result.winner],
        })
    night.standings = _standings_top(competition, upto)
    night.ordagos = ordagos(matches, tables)
    night.champion = cup_champion(competition)
    return night


def round_labels(matches: list[Match]) -> dict[int, str]:
    """Each match's round by name ("Ronda 2") when the matches span more than one round (a
    ceros tournament's day, a night of two jornadas): their tables repeat round after round,
    so "Mesa 1" alone would not say which. One round: no labels (the card's title says it)."""
    ids = {m.round_id for m in matches}
    if len(ids) < 2:
        return {}
    rounds = Round.objects.select_related("group").in_bulk(ids)
    return {m.pk: pages.round_title(rounds[m.round_id]) for m in matches}


def table_labels(matches: list[Match]) -> dict[int, str]:
    """Each match's table as the players know it: its drawn table number, else its place
    in its own round (the round's first match at table 1), never the competition-wide
    match number ("mesa 8" for the fourth table of round 2 was the match number)."""
    labels: dict[int, str] = {}
    placed: dict[int | None, int] = {}
    for match in sorted(matches, key=lambda m: m.number):
        placed[match.round_id] = placed.get(match.round_id, 0) + 1
        labels[match.pk] = str(match.table_number or placed[match.round_id])
    return labels


def ordagos(matches: list[Match], tables: dict[int, str] | None = None) -> list[str]:
    """The órdagos accepted in these matches' hands, in words, in the order played, with
    who won each when the stored counts tell it.

    Read from the tables' stored hand records (a lance whose last bet is an órdago and
    whose answer is quiero), without replaying any score. The first pair sits at the
    even seats (side A), as services.open_table seats them. Who won comes from what the
    hands say, stored per match and side (stats_store: PairHandStats): a side whose
    accepted órdagos were all won (or none) names the winner of each of them. Where
    those counts exist they cover the match's vaca only: the órdagos read beyond their
    number (hands of a later vaca at the same table) are left out.
    """
    by_table = {m.table_id: m for m in matches if m.table_id is not None}
    if not by_table:
        return []
    tables = tables or table_labels(matches)
    names = {"grande": _("a la grande"), "chica": _("a la chica"), "pares": _("a pares"),
             "juego": _("a juego"), "punto": _("al punto")}
    counted: dict[tuple[int, int], tuple[int, int]] = {
        (match_id, side): (accepted, won)
        for match_id, side, accepted, won in PairHandStats.objects.filter(
            match_id__in=[m.pk for m in by_table.values()]).values_list(
            "match_id", "side", "ordagos_accepted", "ordagos_won")
    }
    seen: dict[tuple[int, int], int] = {}
    found = []
    # Only the hands with an órdago bet in them (the record's JSON text, filtered by the
    # database): the others add nothing, and decoding every hand of a night was most of a
    # large night's card.
    hands = Hand.objects.filter(table_id__in=list(by_table), record__icontains="ordago"
                                ).order_by("created_at", "table_id", "number").values_list(
        "table_id", "record")
    for table_id, record in hands:
        match = by_table[table_id]
        for lance, side in _accepted_ordagos(record):
            key = (match.pk, side)
            seen[key] = seen.get(key, 0) + 1
            accepted, won = counted.get(key, (-1, -1))
            if 0 <= accepted < seen[key]:
                continue  # beyond the match's vaca
            caller, other = (match.first, match.second) if side == 0 else (
                match.second, match.first)
            words = {"lance": names[lance], "pair": pages.pair_name(caller),
                     "other": pages.pair_name(other), "table": tables[match.pk]}
            if accepted > 0 and won == accepted:
                text = _("Órdago %(lance)s de %(pair)s, aceptado y ganado (mesa %(table)s)")
            elif accepted > 0 and won == 0:
                text = _("Órdago %(lance)s de %(pair)s, aceptado; lo ganó %(other)s "
                         "(mesa %(table)s)")
            else:
                text = _("Órdago %(lance)s de %(pair)s, aceptado (mesa %(table)s)")
            found.append(text % words)
    return found


def _accepted_ordagos(record: Any) -> list[tuple[str, int]]:
    """The accepted órdago of a hand record as (lance, side 0 or 1), or nothing. An
    accepted órdago ends the juego: the lances after it were not played."""
    lances = record.get("lances") if isinstance(record, dict) else None
    if not isinstance(lances, dict):
        return []
    for lance in LANCES:
        betting = lances.get(lance)
        if not isinstance(betting, dict) or betting.get("end") != "quiero":
            continue
        bets = betting.get("bets") or []
        if bets and isinstance(bets[-1], dict) and bets[-1].get("n") == "ordago":
            return [(lance, 0 if bets[-1].get("side") == "A" else 1)]
    return []


# --- the text -------------------------------------------------------------------------------------


def _left(n: int) -> str:
    return ngettext("Queda %(n)s partida por jugar.", "Quedan %(n)s partidas por jugar.", n) % {
        "n": n}


def colon() -> str:
    """The colon after a label, as the language writes it: French puts a non-breaking
    space before it ("Journée 1 :", issue 38.9)."""
    return pgettext("tras un rótulo", ":")


def card_text(night: Night, url: str) -> str:
    """The card's text for the group chat (results, top of the standings, órdagos, the
    competition's public page)."""
    lines = [f"{night.club} · {night.competition}", night.title, ""]
    if night.champion:
        lines += [_("Campeones: %(name)s") % {"name": night.champion}, ""]
    if night.results:
        lines.append(_("Resultados:"))
        heading = ""
        for r in night.results:
            if r.get("round") and r["round"] != heading:
                heading = r["round"]
                lines.append(f"{heading}{colon()}")
            where = _("Mesa %(n)s") % {"n": r["table"]}
            if r["short"] != r["result"]:  # a no-show: its sentence names the pair already
                line = _("%(first)s contra %(second)s: %(result)s") % {
                    "first": r["first"], "second": r["second"], "result": r["result"]}
            else:
                line = f"{r['first']} {r['result']} {r['second']}"
            lines.append(f"{where}{colon()} {line}")
    else:
        lines.append(_("Aún no hay resultados."))
    if night.left:
        lines.append(_left(night.left))
    for table in night.standings:
        lines.append("")
        title = _("Clasificación")
        lines.append(f"{title} · {table['title']}{colon()}" if table["title"]
                     else f"{title}{colon()}")
        for row in table["rows"]:
            lines.append(f"{row['position']}. {row['name']} ({row['figure']})")
    if night.ordagos:
        lines.append("")
        lines.append(_("El órdago de la noche: %(ordago)s") % {"ordago": night.ordagos[-1]})
        if len(night.ordagos) > 1:
            lines.append(_("Órdagos aceptados: %(n)s") % {"n": len(night.ordagos)})
    lines += ["", url]
    return "\n".join(lines)


def card_json(night: Night, url: str) -> str:
    """The card's text and its figures as JSON, for whoever wants to lay it out again."""
    return json.dumps({**asdict(night), "url": url, "text": card_text(night, url)},
                      ensure_ascii=False)


# --- the image ------------------------------------------------------------------------------------

WIDTH = 1080
MARGIN = 60
MAX_RESULTS = 20
BACKGROUND = (24, 48, 38)  # the site's theme colour (#183026)
INK = (255, 255, 255)
SOFT = (190, 214, 200)
GOLD = (242, 201, 76)


@cache
def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(Path(settings.BASE_DIR) / "static" / "fonts" / name), size)


SMALLEST = 18  # pixels: the smallest letters a name is shrunk to, still read on a phone


def fitted(
    draw: ImageDraw.ImageDraw, text: str, size: int, bold: bool, width: int
) -> tuple[str, ImageFont.FreeTypeFont]:
    """`text` and the font it is drawn in to fit `width` pixels: the letters shrunk (down to
    SMALLEST) so two long pair names are read whole; cut with an ellipsis only beyond."""
    for smaller in range(size, min(size, SMALLEST) - 1, -1):
        font = _font(smaller, bold)
        if draw.textlength(text, font=font) <= width:
            return text, font
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…", font


def _lines(night: Night) -> list[tuple[str, str, int, bool, tuple[int, int, int]]]:
    """What the card says, line by line: (left text, right text, size, bold, colour)."""
    out: list[tuple[str, str, int, bool, tuple[int, int, int]]] = [
        (night.club, "", 34, False, SOFT),
        (night.competition, "", 52, True, INK),
        (night.title, "", 40, False, GOLD),
        ("", "", 20, False, INK),
    ]
    if night.champion:
        out += [(_("Campeones: %(name)s") % {"name": night.champion}, "", 44, True, GOLD),
                ("", "", 20, False, INK)]
    shown = night.results[:MAX_RESULTS]
    for r in shown:
        out.append((f"{r['table']}. {r['first']} – {r['second']}", r["short"], 32, False, INK))
    if len(night.results) > len(shown):
        out.append((_("y %(n)s resultados más") % {"n": len(night.results) - len(shown)},
                    "", 28, False, SOFT))
    if not night.results:
        out.append((_("Aún no hay resultados."), "", 32, False, SOFT))
    if night.left:
        out.append((_left(night.left), "", 28, False, SOFT))
    for table in night.standings:
        out.append(("", "", 20, False, INK))
        title = _("Clasificación")
        out.append((f"{title} · {table['title']}" if table["title"] else title, "", 36, True, GOLD))
        for row in table["rows"]:
            out.append((f"{row['position']}. {row['name']}", row["figure"],
                        32, row["position"] == 1, INK))
    if night.ordagos:
        out.append(("", "", 20, False, INK))
        out.append((_("El órdago de la noche"), "", 36, True, GOLD))
        out.append((night.ordagos[-1], "", 28, False, INK))
    out.append(("", "", 20, False, INK))
    out.append(("muscore", "", 26, True, SOFT))
    return out


def render_png(night: Night) -> bytes:
    """The card as a PNG: the same night always gives the same bytes (no date stored)."""
    lines = _lines(night)
    heights = [int(size * 1.5) for _l, _r, size, _b, _c in lines]
    height = 2 * MARGIN + sum(heights)
    image = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    inner = WIDTH - 2 * MARGIN
    for (left, right, size, bold, colour), step in zip(lines, heights, strict=True):
        font = _font(size, bold)
        right_width = int(draw.textlength(right, font=font)) + 24 if right else 0
        if right:
            draw.text((WIDTH - MARGIN, y), right, font=_font(size, True), fill=GOLD, anchor="ra")
        if left:
            shown, shrunk = fitted(draw, left, size, bold, inner - right_width)
            draw.text((MARGIN, y), shown, font=shrunk, fill=colour)
        y += step
    out = io.BytesIO()
    # Not optimize=True: it costs more time than the bytes it saves are worth here.
    image.save(out, format="PNG")
    return out.getvalue()
