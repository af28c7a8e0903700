"""The table's pages: thin views over muscore.tables.services and the forms.

A view link (/t/<id>/) only shows; every page that changes something lives
under the edit link (/t/<id>/k/<edit key>/). Opening an edit link with a wrong
key is a 404, the same as a table that does not exist; any write (a POST) to a
view URL or to an edit URL with a wrong key is a 403 and changes nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, cast

from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    JsonResponse,
    QueryDict,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from muscore import bus, ratelimits
from muscore import rules as rules_engine
from muscore.errors import MuscoreError
from muscore.handentry.cards import CARD_VALUES, JUEGO_CHOICES, PARES_CHOICES
from muscore.handentry.corrections import as_entered
from muscore.handentry.presets import PRESETS, SEATS
from muscore.handentry.taps import EntryError
from muscore.htmx import HtmxHttpRequest
from muscore.messages import page_message
from muscore.permalink import next_context, table_hand_links, table_hand_records
from muscore.rules.contract import HandResultDict
from muscore.tables import audit, board, live, notices, offline, services, share
from muscore.tables.forms import HandEntry, ImportForm, SetupForm
from muscore.tables.links import table_links as _links
from muscore.tables.models import Table
from muscore.tables.signals import board_shown
from muscore.tables.state import StoredHand, TableState

VIA = "edit_link"


def _table(table_id: str) -> Table:
    try:
        return services.get_table(table_id)
    except services.TableNotFound:
        raise Http404(_("No hay ninguna mesa con ese enlace.")) from None


def _editable(table_id: str, key: str) -> Table:
    table = _table(table_id)
    if not table.check_edit_key(key):
        raise Http404(_("No hay ninguna mesa con ese enlace."))
    return table


SAFE_METHODS = ("GET", "HEAD")


PageView = Callable[..., HttpResponse]


def table_page(*methods: str) -> Callable[[PageView], PageView]:
    """A page under /t/<id>/: writes need the edit key, whatever the page.

    A write (any method but GET/HEAD) to a view URL, or to an edit URL whose key is
    wrong, is refused with 403 before the view runs, so it cannot change anything.
    Then the method must be one the page takes (405 otherwise).
    """

    def decorate(view: PageView) -> PageView:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, table_id: str, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in SAFE_METHODS:
                table = _table(table_id)
                key = kwargs.get("key")
                if key is None or not table.check_edit_key(key):
                    raise PermissionDenied(_("Este enlace solo sirve para mirar: no cambia nada."))
            if request.method not in methods:
                return HttpResponseNotAllowed(methods)
            return view(request, table_id, *args, **kwargs)

        return wrapper

    return decorate


def refusal(error: MuscoreError) -> str:
    """A refusal of any family (the table's services, the engine) in the page's language,
    as a sentence: the one catalogue's wording (muscore.messages.page_message). The
    views catch apart only the refusals that change what the page does next (a stale
    board, another phone's hand, a settled result), and word the rest through here."""
    message = page_message(error).strip()
    # The table's messages are fragments the API says as they are ("no hay ninguna mano
    # que deshacer"); on a page they are a sentence.
    end = "" if message.endswith((".", "!", "?", "…", ")")) else "."
    return message[:1].upper() + message[1:] + end


def _redirect(request: HtmxHttpRequest, table: Table, url: str) -> HttpResponse:
    """A write's way back to the edit board `url` (its notice in the query): a plain form
    gets a 303; an htmx form (the hand entry's Guardar) the board itself, drawn as the
    write left it and swapped in place of the page with its address pushed (issue 38.4:
    a redirect made the saver load the whole board again and open its stream anew, the
    last phone at the table to see its own save). Its live part is the fragment the
    other phones get by push; the header Muscore-Saved tells static/js/muscore.js."""
    if not request.htmx:
        return redirect(url, permanent=False)
    query = url.partition("?")[2]
    # The table's row is read again: `table` was read before the write.
    response = _render_board(request, table, editable=True, params=QueryDict(query))
    response.headers.pop("ETag", None)  # a POST's answer: never a poll's 304
    response["HX-Retarget"] = "body"
    response["HX-Reswap"] = "innerHTML show:window:top"
    response["HX-Push-Url"] = url
    response["Muscore-Saved"] = "1"
    return response


# --- home and set-up ----------------------------------------------------------------------------


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/home.html")


@require_POST
@ratelimits.limit(ratelimits.CREATE, api=False)
def quick_table(request: HttpRequest) -> HttpResponse:
    """One tap from the home page to a running board: A1, B1, A2, B2, mano A1."""
    table = services.create_table()
    return redirect("tables:edit_board", table.id, table.edit_key)


@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit(ratelimits.CREATE, api=False)
def new_table(request: HttpRequest) -> HttpResponse:
    form = SetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.create_table(**form.table_kwargs())
        except MuscoreError as error:
            form.add_error(None, refusal(error))
        else:
            return redirect("tables:edit_board", table.id, table.edit_key)
    status = 400 if form.errors else 200
    context = {"form": form, "presets": PRESETS, "seats_presets": SEATS}
    return render(request, "tables/new.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@ratelimits.limit(ratelimits.IMPORT, api=False)
def import_table(request: HttpRequest) -> HttpResponse:
    """A table exported as JSON becomes a new table (new links), or nothing is saved."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.import_table(form.cleaned_data["table"], via=VIA)
        except MuscoreError as error:
            form.add_error(None, refusal(error))
        else:
            return redirect("tables:edit_board", table.id, table.edit_key)
    status = 400 if form.errors else 200
    return render(request, "tables/import.html", {"form": form}, status=status)


# --- the board ----------------------------------------------------------------------------------


def _board_context(
    request: HttpRequest, table: Table, editable: bool, partial: bool = False,
    fresh: bool = False, params: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    # Only what the board draws: a full table's finished vacas are read as summaries;
    # `partial`, a poll's live part, which shows its owner only on a vaca's end; `params`,
    # the board's query (the request's own unless the board answers a write in place).
    params = request.GET if params is None else params
    state = services.board_state(table, fresh)
    context: dict[str, Any] = {
        "table": table,
        "state": state,
        "b": board.board(state),
        "editable": editable,
        "links": _links(table, editable),
        "notice": notices.notice(params, table),
        # The hand undone last, offered back until the table changes otherwise.
        "redo": _redo_shown(table) if editable else None,
    }
    last = context["b"]["last_hand"]
    if last and not (last["piedras"] or last["perete"]):
        last["dealt"] = services.dealt_number(table, last["number"])
    context["board_url"] = context["links"]["edit" if editable else "view"]
    # A league match's table: its competition, match and result (the league's, not the hands').
    shows_owner = not partial or bool(context["b"]["vaca_end"])
    owner = context["owner"] = owner_of(table) if shows_owner else None
    # What its owner settled is not offered: no "Deshacer" of a final result's hand, no
    # new vaca at a closed table (its end stays on screen; "Otra vaca" leaves it otherwise).
    context["undo_refused"] = bool(owner and owner.get("undo_refused"))
    context["new_vaca"] = "otra-vaca" in params and not (owner and owner.get("closed"))
    # The live part polls its own link under a URL of its own: the browser then keeps the
    # partial and the page apart in its cache, and revalidates each with its own ETag.
    context["poll_url"] = context["board_url"] + "?live=1" + (
        "&otra-vaca=1" if context["new_vaca"] else ""
    )
    # The links as the others' phones must open them: absolute, and as QR codes to scan.
    # Drawn when the template shows them (the page, not a poll's live part): a callable.
    context["share_url"] = request.build_absolute_uri(context["links"]["view"])
    context["share_qr"] = functools.partial(share.qr_svg, context["share_url"],
                                            _("Enlace para mirar"))
    if editable:
        # The next hand, for the hand page this phone keeps (offline.next_hand, issue 38.4).
        context["next_hand"] = offline.next_hand(table, state, last)
        context["edit_url"] = request.build_absolute_uri(context["links"]["edit"])
        context["edit_qr"] = functools.partial(share.qr_svg, context["edit_url"],
                                               _("Enlace para anotar"))
    return context


def owner_of(table: Table) -> dict[str, Any] | None:
    """What the app a table belongs to says about it (signals.board_shown), or None."""
    for _receiver, answer in board_shown.send(sender=Table, table=table):
        if answer:
            return cast(dict[str, Any], answer)
    return None


def _redo_shown(table: Table) -> dict[str, Any] | None:
    """The entry a redo would bring back, numbered as players count it: a tap or a
    perete is "anotación N", a hand its number among the hands dealt."""
    redo = services.redo_candidate(table)
    if redo is None:
        return None
    record = redo["record"]
    tap = isinstance(record, dict) and ("piedras" in record or "perete" in record)
    return {**redo, "tap": tap, "dealt": services.dealt_number(table, redo["number"])}


def _render_board(request: HttpRequest, table: Table, editable: bool,
                  fresh: bool = False, params: Mapping[str, str] | None = None) -> HttpResponse:
    """The board, or (an htmx poll) its live part, tagged for the 304 of the next poll;
    the whole board with `params` (its query), answering a write in place."""
    partial = live.is_partial(request) and params is None
    context = _board_context(request, table, editable, partial, fresh, params)
    # The tag of the revision that was drawn, not of one read later.
    revision = context["state"]["revision"]
    etag = live.board_etag(revision, get_language(), partial)
    # What the next poll answers while nothing changes: muscore.js swaps only another tag.
    context["etag"] = live.board_etag(revision, get_language(), True)
    template = "tables/board.html" + ("#scoreboard" if partial else "")
    response = live.mark_board(render(request, template, context), etag)
    if context["owner"] and not partial:
        # The page shows its owner's result (a league's), which changes without the
        # table's revision: no tag, so a reload never gets a 304 with the old result.
        del response["ETag"]
    return response


@table_page("GET", "HEAD")
def view_board(request: HttpRequest, table_id: str) -> HttpResponse:
    return _render_board(request, _table(table_id), editable=False)


@table_page("GET", "HEAD")
def edit_board(request: HttpRequest, table_id: str, key: str) -> HttpResponse:
    return _render_board(request, _editable(table_id, key), editable=True)


def live_board(request: HttpRequest, table_id: str, key: str | None) -> tuple[HttpResponse, int]:
    """A stream server's drawing of a board's live part (muscore.live.render): what the
    poll of view_board (``key`` None) or edit_board answers, without the middleware, the
    table read once; and the revision of the table's row it was drawn from."""
    table = _table(table_id) if key is None else _editable(table_id, key)
    return _render_board(request, table, editable=key is not None, fresh=True), table.revision


def _history(request: HttpRequest, table: Table, editable: bool) -> HttpResponse:
    state = services.table_state(table)
    hands = board.history(state)
    # H4: each hand opens in the recuento calculator with one tap (muscore/disputes).
    calc_links = table_hand_links(table, state)
    for hand in hands:
        # Piedras tapped by hand and a perete are no dealt hand: nothing to recount or correct.
        tap = hand["piedras"] or hand["perete"]
        hand["calc_url"] = "" if tap else calc_links.get(hand["number"], "")
    if editable:
        for hand in hands:
            if not (hand["piedras"] or hand["perete"]):
                hand["edit_url"] = reverse(
                    "tables:edit_hand", args=[table.id, table.edit_key, hand["number"]]
                )
    changes = services.table_changes(table)
    corrected = audit.corrected_numbers(changes)
    for hand in hands:
        hand["corrected"] = hand["number"] in corrected
    context = {
        "table": table,
        "b": board.board(services.summarize(state)),
        "hands": hands,
        "vacas": board.history_groups(hands, state),
        # The audit: every add, edit, undo and redo in words, so nothing vanishes unseen.
        "changes": audit.describe_changes(changes, state),
        "editable": editable,
        "links": _links(table, editable),
    }
    return render(request, "tables/history.html", context)


def _vaca_end(request: HttpRequest, table: Table, number: int, editable: bool) -> HttpResponse:
    """A finished vaca's own screen: who won, each juego, the chart of the whole vaca."""
    state = services.table_state(table)
    shown = board.vaca_end(state, number)
    if shown is None:
        raise Http404(_("Esa vaca no existe o no ha terminado."))
    context = {
        "table": table,
        "state": state,
        "b": board.board(services.summarize(state)),
        "v": shown,
        "editable": editable,
        "links": _links(table, editable),
    }
    return render(request, "tables/vaca.html", context)


@table_page("GET", "HEAD")
def view_vaca(request: HttpRequest, table_id: str, number: int) -> HttpResponse:
    return _vaca_end(request, _table(table_id), number, editable=False)


@table_page("GET", "HEAD")
def edit_vaca(request: HttpRequest, table_id: str, key: str, number: int) -> HttpResponse:
    return _vaca_end(request, _editable(table_id, key), number, editable=True)


@table_page("GET", "HEAD")
def view_history(request: HttpRequest, table_id: str) -> HttpResponse:
    return _history(request, _table(table_id), editable=False)


@table_page("GET", "HEAD")
def edit_history(request: HttpRequest, table_id: str, key: str) -> HttpResponse:
    return _history(request, _editable(table_id, key), editable=True)


@table_page("GET", "HEAD", "POST")
@ratelimits.limit(ratelimits.WRITE, api=False)
def undo(request: HtmxHttpRequest, table_id: str, key: str) -> HttpResponse:
    """GET asks first (which hand, what it scored); POST undoes it. A redo can bring it back."""
    table = _editable(table_id, key)
    url = reverse("tables:edit_board", args=[table.id, table.edit_key])
    state = services.table_state(table)
    numbers = services.iter_hands(state)
    if request.method != "POST":
        if not numbers:
            return _board_error(request, table, _("No hay ninguna mano que deshacer."))
        number, last = numbers[-1]
        context = {
            "table": table,
            "state": state,
            "links": _links(table, True),
            "number": number,
            "dealt": board.dealt_numbers(state)(number),
            "score": last["score"],
            "lines": board.entry_lines(last, state["players"]),
            "piedras": board.is_piedras(last),
            "perete": board.is_perete(last),
        }
        return render(request, "tables/undo.html", context)
    revision = request.POST.get("revision", "")
    before = owner_of(table)
    undone = _on_board(
        request, table,
        lambda: services.undo_last(
            table, base_revision=int(revision) if revision.isdigit() else None, via=VIA,
            finished="summary"),
        _("La mesa cambió desde otro móvil: mira el marcador y vuelve a deshacer si hace falta."),
    )
    if isinstance(undone, HttpResponse):
        return undone
    after = owner_of(table)
    # The undo took back the result the table had given its league match: say so.
    taken_back = bool(before and before.get("result") and after and not after.get("result"))
    tap = "" if board.is_dealt(numbers[-1][1]) else "&anotacion=1"
    return _redirect(
        request, table,
        f"{url}?deshecha={numbers[-1][0]}" + ("&pendiente=1" if taken_back else "") + tap,
    )


@table_page("POST")
@ratelimits.limit(ratelimits.WRITE, api=False)
def redo(request: HtmxHttpRequest, table_id: str, key: str) -> HttpResponse:
    """Bring back the hand undone last, as it was; it goes in the audit as a redo."""
    table = _editable(table_id, key)
    url = reverse("tables:edit_board", args=[table.id, table.edit_key])
    revision = request.POST.get("revision", "")
    redone = _on_board(
        request, table,
        lambda: services.redo_last(
            table, base_revision=int(revision) if revision.isdigit() else None, via=VIA,
            finished="summary"),
        _("La mesa cambió desde otro móvil: mira el marcador antes de rehacer."),
    )
    if isinstance(redone, HttpResponse):
        return redone
    tap = "" if board.is_dealt(redone.after or {}) else "&anotacion=1"
    return _redirect(request, table, f"{url}?rehecha={redone.number}{tap}")


@table_page("POST")
@ratelimits.limit(ratelimits.WRITE, api=False)
def piedras(request: HtmxHttpRequest, table_id: str, key: str) -> HttpResponse:
    """+1, +5 or -1 for a side, tapped on the board: stored as an entry like a hand.

    The tap carries the revision of the board it was made on: the same tap sent twice
    (a double tap) is stored once, and a tap on a board another phone has changed
    since is refused, so nobody adds piedras to a score they did not see.
    """
    side = request.POST.get("side", "")
    raw = request.POST.get("n", "")
    n: int | str = int(raw) if raw.lstrip("-").isdigit() and len(raw) < 5 else raw
    valid = side in services.ALL_LETTERS and isinstance(n, int)
    return _board_entry(
        request, table_id, key,
        lambda table, **write: services.add_piedras(table, side, n, **write),
        f"{side}{n}" if valid else None,
    )


@table_page("POST")
@ratelimits.limit(ratelimits.WRITE, api=False)
def perete(request: HtmxHttpRequest, table_id: str, key: str) -> HttpResponse:
    """A perete (4 5 6 7) shown by a player of a side, tapped on the board: one piedra to
    that side, stored as an entry like a piedras tap, with the same guards (the board's
    revision, a double tap stored once). The engine refuses it where the table does
    not play perete."""
    side = request.POST.get("side", "")
    return _board_entry(
        request, table_id, key,
        lambda table, **write: services.add_hand(
            table, services.perete_record(side, services.letters_of(table.rules)), **write),
        f"perete{side}" if side in services.ALL_LETTERS else None,
    )


def _board_entry(
    request: HtmxHttpRequest,
    table_id: str,
    key: str,
    add: Callable[..., services.WriteResult],
    tap: str | None,
) -> HttpResponse:
    """Store an entry tapped on the board (piedras, a perete) with `add(table, **write)`,
    the service that stores it, then the board again."""
    table = _editable(table_id, key)
    url = reverse("tables:edit_board", args=[table.id, table.edit_key])
    revision = request.POST.get("revision", "")
    base = int(revision) if revision.isdigit() and len(revision) < 10 else None
    key_of_tap = f"tap:r{base}:{tap}" if base is not None and tap else None
    added = _on_board(
        request, table,
        # The summed-up answer is enough: the board is drawn anew.
        lambda: add(table, base_revision=base, idempotency_key=key_of_tap, via=VIA,
                    finished="summary"),
        _("La mesa cambió desde otro móvil: mira el marcador y vuelve a tocar si hace falta."),
    )
    return added if isinstance(added, HttpResponse) else _redirect(request, table, url)


def _on_board(
    request: HttpRequest, table: Table, write: Callable[[], services.WriteResult], stale: str
) -> services.WriteResult | HttpResponse:
    """A write tapped on the edit board (an undo, a redo, piedras, a perete), or the board
    again saying why it was refused (409): `stale` when another phone changed the table
    since this board was drawn, else the refusal (nothing to take back, a settled result)."""
    try:
        return write()
    except services.StaleEdit:
        return _board_error(request, table, stale)
    except MuscoreError as error:
        return _board_error(request, table, refusal(error))


def _board_error(request: HttpRequest, table: Table, message: str) -> HttpResponse:
    context = _board_context(request, table, True)
    context["error"] = message
    return render(request, "tables/board.html", context, status=409)


# --- the hand entry -----------------------------------------------------------------------------


def _entry_for(table: Table, state: TableState, number: int | None) -> dict[str, Any]:
    """The mano, the score before and the record of the hand being entered or corrected."""
    if number is None:
        mano, score = next_context(state["current"])
        count = len(services.iter_hands(state))
        return {"mano": mano, "score": score, "number": count + 1, "record": None}
    hand = dict(services.iter_hands(state)).get(number)
    if hand is None:
        raise Http404(_("Esa mano no existe."))
    if board.is_piedras(hand):
        # Piedras tapped by hand: undone (and tapped again), never corrected as a hand.
        raise Http404(_("Esa anotación son piedras a mano: no es una mano que corregir."))
    if board.is_perete(hand):
        raise Http404(_("Esa anotación es un perete: no es una mano que corregir."))
    record = services.hand_entry(table, number)["record"]
    # The mano and score before it as the replay has them (one place: muscore.permalink).
    full = table_hand_records(state, {number: record}).get(number)
    if full is None:
        raise Http404(_("Esa mano no existe."))
    return {"mano": full["mano"], "score": full["score"], "number": number, "record": record}


def _preview(entry: HandEntry, table: Table) -> tuple[HandResultDict | None, str]:
    if not entry.is_complete():
        return None, ""
    record = entry.record()
    try:
        result = rules_engine.score(
            {**record, "rules": table.rules, "mano": entry.mano, "score": entry.score}
        )
    except rules_engine.RuleError as error:
        return None, refusal(error)
    return result, ""


def _hand_entry(request: HttpRequest, state: TableState, where: dict[str, Any]
                ) -> HandEntry:
    """The hand page's form: as posted, or the stored hand (or a new one) as it stands."""
    kwargs = {
        "players": state["players"],
        "rules": state["rules"],
        "mano": where["mano"],
        "score": where["score"],
        "number": where["number"],
    }
    if request.method not in SAFE_METHODS:
        return HandEntry(data=request.POST, **kwargs)
    if where["record"] is not None:
        entry = HandEntry.from_record(where["record"], **kwargs)
    else:
        entry = HandEntry(**kwargs)
    entry.revision = str(state["revision"])
    return entry


@table_page("GET", "HEAD", "POST")
@ratelimits.limit(ratelimits.WRITE, api=False)
def hand(
    request: HtmxHttpRequest, table_id: str, key: str, number: int | None = None
) -> HttpResponse:
    """Enter the next hand, or (with number) correct a stored one."""
    table = _editable(table_id, key)
    state = services.table_state(table)
    where = _entry_for(table, state, number)
    entry = _hand_entry(request, state, where)
    status = 200
    conflict: dict[str, Any] | None = None
    settled = False
    act = entry.act
    # A winner the engine refuses does not stop a tap; anything else unreadable does.
    if act and act != "save" and not [e for e in entry.errors if e not in entry.conflicts]:
        try:
            entry.apply(act)
        except EntryError as error:
            entry.errors.append(str(error))
    result, engine_error = _preview(entry, table)
    missing_lances: list[str] = []
    if act == "save":
        missing = entry.missing_items()
        problems = entry.errors or [m["text"] for m in missing] or (
            [engine_error] if engine_error else []
        )
        if not entry.errors:
            # Marked on the page, which scrolls to the first: what the table must still say.
            missing_lances = [m["lance"] for m in missing]
        if not problems:
            # The saver's board is drawn and sent before the other phones are told
            # (issue 38.4).
            with bus.held() as told:
                saved = _save(request, table, entry, number, where["record"])
                if isinstance(saved, HttpResponse):
                    # Told once the saver's page says it shows it (static/js/muscore.js).
                    saved["Muscore-Shown"] = reverse("tables:shown", args=[told.after(saved)])
                    return saved
            problems = [saved.message]
            conflict = saved.conflict
            settled = saved.settled
        entry.save_errors = problems
        # 409: another phone got there first, or the result is final; 400: the entry is wrong.
        status = 409 if conflict or settled else 400
    # Shown as the engine counted it, past the target too (docs/rules.md, issue 38.2).
    context = {
        "table": table,
        "entry": entry,
        "result": result,
        "lines": board.recuento_lines(result, entry.seating) if result else [],
        "final": board.final_line(result, entry.seating) if result else "",
        "engine_error": engine_error,
        "conflict": conflict,
        "missing_lances": missing_lances,
        "editing": number is not None,
        # The table as this page was drawn from it (its kept copy may be older: muscore.js).
        "drawn": state["revision"],
        # The title counts hands dealt; the entry number stays the form's key.
        "dealt": services.dealt_number(table, entry.number),
        "links": _links(table, True),
        "card_values": CARD_VALUES,
        "pares_choices": PARES_CHOICES,
        "juego_choices": JUEGO_CHOICES,
        "action": request.path,
    }
    template = "tables/hand.html"
    if request.htmx and request.method == "POST":
        template += "#live"
    return render(request, template, context, status=status)


class SaveProblem:
    """Why a hand was not saved, and the stored hand the phone must see instead, if any."""

    def __init__(
        self, message: str, conflict: dict[str, Any] | None = None, *, settled: bool = False
    ) -> None:
        self.message = message
        self.conflict = conflict
        self.settled = settled  # refused because its vaca's result is final elsewhere: a 409


def _stored_hand(table: Table, number: int) -> dict[str, Any] | None:
    """Hand `number` as stored (another phone's version), shown instead of overwriting it."""
    try:
        hand = services.hand_entry(table, number)
    except services.TableError:
        return None
    return _shown_hand(table, hand)


def _shown_hand(table: Table, hand: StoredHand) -> dict[str, Any] | None:
    if "result" not in hand:
        return None
    result = hand["result"]
    return {
        "number": hand["number"],
        "dealt": services.dealt_number(table, hand["number"]),
        "score": result["score"],
        "lines": board.recuento_lines(result, table.players),
        "final": board.final_line(result, table.players) if len(result["score"]) > 2 else "",
    }


def _save(
    request: HtmxHttpRequest,
    table: Table,
    entry: HandEntry,
    number: int | None,
    stored: Mapping[str, Any] | None,
) -> HttpResponse | SaveProblem:
    """Store the hand; the response on success, else what is wrong (and the stored hand).
    A correction keeps every part of the `stored` record it did not change as it was
    entered (issue 38.3)."""
    board_url = reverse("tables:edit_board", args=[table.id, table.edit_key])
    record: Mapping[str, Any] = entry.record()
    if stored is not None:
        context = {"rules": table.rules, "mano": entry.mano, "score": entry.score}
        record = as_entered(stored, record, context)
    try:
        if number is None:
            # The same client id again (a double tap, a retry after the signal dropped)
            # gets the first answer: the board, with one hand stored.
            services.add_hand(
                table,
                record,
                number=entry.number,
                client_id=entry.client_id,
                via=VIA,
                finished="summary",
            )
            return _redirect(request, table, board_url)
        revision = int(entry.revision) if entry.revision.isdigit() else None
        # Only what changed is read: the answer leaves the finished vacas' hands out.
        corrected = services.replace_hand(
            table, number, record, base_revision=revision, via=VIA, finished="summary"
        )
    except services.HandConflict as error:
        # The hand as players number it (hands dealt), as the page's title says it: the
        # entry number counts piedras taps too ("la mano 17" under "Mano 14", issue 30.6).
        shown = _shown_hand(table, error.hand)
        dealt = shown["dealt"] if shown else services.dealt_number(table, entry.number)
        return SaveProblem(
            _("Otro móvil guardó la mano %(n)s: aquí está. No se ha cambiado nada.")
            % {"n": dealt},
            shown,
        )
    except services.StaleEdit:
        return SaveProblem(
            _(
                "Otro móvil cambió la mesa mientras corregías la mano %(n)s: así está "
                "guardada. No se ha cambiado nada; vuelve a abrirla para corregirla."
            )
            % {"n": number},
            _stored_hand(table, number) if number is not None else None,
        )
    except services.ResultSettled as error:
        return SaveProblem(refusal(error), settled=True)
    except MuscoreError as error:
        return SaveProblem(refusal(error))
    changed = ",".join(str(n) for n in corrected.changed)
    return _redirect(request, table, f"{board_url}?corregida={number}&cambian={changed}")


@csrf_exempt  # the token is the key: it only sends now what goes out within a second
@require_POST
def shown(request: HttpRequest, token: str) -> HttpResponse:
    """The saver's page shows the board its save answered: the other phones are told."""
    bus.shown(token)
    return HttpResponse(status=204)


# --- installable and offline (issue #4.4) -------------------------------------------------------


def _manifest(request: HttpRequest, start_url: str, name: str) -> HttpResponse:
    return JsonResponse(
        offline.manifest(start_url=start_url, name=name, language=get_language()),
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    """The site's web app manifest: installed from any page but a board, it opens the home."""
    return _manifest(request, reverse("tables:home"), "muscore")


@table_page("GET", "HEAD")
def view_manifest(request: HttpRequest, table_id: str) -> HttpResponse:
    """A board's manifest: installed on the home screen, it opens this board."""
    table = _table(table_id)
    return _manifest(request, reverse("tables:board", args=[table.id]), _table_name(table))


@table_page("GET", "HEAD")
def edit_manifest(request: HttpRequest, table_id: str, key: str) -> HttpResponse:
    table = _editable(table_id, key)
    url = reverse("tables:edit_board", args=[table.id, table.edit_key])
    return _manifest(request, url, _table_name(table))


def _table_name(table: Table) -> str:
    sides = board.board(services.board_state(table))["sides"]
    return " – ".join(side["names"] for side in sides)
