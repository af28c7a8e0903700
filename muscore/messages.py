"""Every refusal of muscore in the page's language: the one catalogue of error wordings.

An error is a :class:`muscore.errors.MuscoreError`: a ``family``, a ``code`` and its
``params``, an English ``str()`` for the API, the command line and the logs. This module
words it for a person in the active language (gettext: Spanish is the source language,
translated in ``locale/en``, ``locale/eu`` and ``locale/fr``): :func:`page_message` is
the one place the pages ask. Each family with codes has its messages here, a Spanish
msgid with ``%(param)s`` placeholders per code (``RULES``, ``LEAGUE``, ``QUOTA``,
``CEROS``, ``DRAW``, ``PERMALINK``), plus the words its params need translated (a lance,
the kind of value a field must hold, where in a document). The families raised by the
Django apps (tables, clubs, competitions, championships) carry their gettext message
with them: :class:`WordedError`. It sits below every app and imports no app.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext, gettext_noop, override

from muscore.errors import MuscoreError, install_page_wording

# --- the engine (muscore.rules) -------------------------------------------------------------

#: The message of each engine error code, as a Spanish msgid with %(param)s placeholders.
RULES: dict[str, str] = {
    "not_object": gettext_noop("Una mano debe ser un objeto JSON."),
    "not_vaca": gettext_noop("Una vaca debe ser un objeto JSON con la lista de sus manos."),
    "unknown_key": gettext_noop("Campo desconocido «%(key)s» en %(where)s."),
    "not_a": gettext_noop("«%(field)s» debe ser %(what)s, no %(got)s."),
    "rule_value": gettext_noop("La opción «%(field)s» no puede ser %(got)s: debe ser %(allowed)s."),
    "mano": gettext_noop("La mano debe ser un asiento del 0 al %(last)s, no %(got)s."),
    "score_side": gettext_noop("El tanteo se lleva por bandos A y B, no «%(key)s»."),
    "score_value": gettext_noop(
        "El tanteo del bando %(side)s debe ser un número de piedras del 0 al %(last)s, "
        "no %(got)s."),
    "score_at_target": gettext_noop(
        "El bando %(side)s ya tiene %(got)s piedras: con %(target)s el juego acabó antes de "
        "esta mano."),
    "seat": gettext_noop(
        "No hay asiento «%(key)s» en una mesa de %(players)s: los asientos van del 0 al "
        "%(last)s."),
    "card": gettext_noop(
        "Asiento %(seat)s: «%(token)s» no es una carta. Las cartas son 1-7, 10 (S, sota), "
        "11 (C, caballo), 12 (R, rey)."),
    "card_count": gettext_noop(
        "El asiento %(seat)s tiene %(count)s cartas (%(cards)s): una mano tiene 4."),
    "too_many": gettext_noop(
        "Hay %(count)s cartas de índice %(index)s (%(name)s) en la mesa: la baraja solo "
        "tiene 4."),
    "no_cards_no_jugadas": gettext_noop(
        "El asiento %(seat)s no tiene ni cartas ni jugadas: indica sus cuatro cartas o lo que "
        "declaró."),
    "jugada_missing": gettext_noop(
        "El asiento %(seat)s no enseñó cartas: falta lo que declaró en %(field)s."),
    "jugada_pares": gettext_noop(
        "Asiento %(seat)s: los pares deben ser «no», «par», «medias» o «duples», no %(got)s."),
    "jugada_juego": gettext_noop(
        "Asiento %(seat)s: el juego debe ser «no» o un total de 31, 32, 33, 34, 35, 36, 37 o "
        "40, no %(got)s."),
    "jugada_contradicts": gettext_noop(
        "El asiento %(seat)s enseña %(cards)s, que tiene %(has)s en %(lance)s, pero sus "
        "jugadas dicen %(said)s."),
    "lance_name": gettext_noop(
        "«%(key)s» no es un lance: los lances son grande, chica, pares y juego (o punto)."),
    "juego_not_punto": gettext_noop(
        "Nadie tiene juego, así que el cuarto lance es el punto, no el juego."),
    "punto_not_juego": gettext_noop(
        "El asiento %(seat)s tiene juego, así que el cuarto lance es el juego, no el punto."),
    "bet_side": gettext_noop(
        "%(lance)s, apuesta %(i)s: el bando debe ser A o B, no %(got)s."),
    "bet_n": gettext_noop(
        "%(lance)s, apuesta %(i)s: una apuesta es un número entero de piedras, 1 o más, u "
        "órdago; no %(got)s."),
    "first_bet": gettext_noop(
        "%(lance)s: la primera apuesta de un lance es un envido de 2 piedras o más, no de "
        "%(got)s; solo una subida puede ser de 1."),
    "bet_own": gettext_noop(
        "%(lance)s: el bando %(side)s no puede subir su propia apuesta (apuesta %(i)s); los "
        "envites se alternan entre los bandos."),
    "after_ordago": gettext_noop(
        "%(lance)s: después de un órdago no se puede envidar; solo quiero o no quiero."),
    "no_answer": gettext_noop(
        "%(lance)s: nadie contestó al envite: falta el quiero o el no quiero."),
    "end_value": gettext_noop(
        "%(lance)s: la respuesta debe ser quiero o no quiero, no %(got)s."),
    "end_without_bets": gettext_noop(
        "%(lance)s: nadie envidó, así que nadie pudo decir %(got)s."),
    "bet_one_side": gettext_noop(
        "%(lance)s: solo el bando %(side)s tiene %(lance)s, así que no se envida: se cobra en "
        "el recuento."),
    "bet_nobody": gettext_noop(
        "%(lance)s: nadie tiene %(lance)s, así que nadie puede envidar."),
    "winner_value": gettext_noop(
        "El ganador de %(lance)s debe ser el bando A o el B, no %(got)s."),
    "winner_missing": gettext_noop(
        "¿Quién ganó %(lance)s? El asiento %(seat)s no enseñó cartas: indica el bando que "
        "ganó %(lance)s."),
    "winner_contradicts": gettext_noop(
        "Las cartas dan %(lance)s al bando %(side)s, pero el ganador indicado es %(got)s."),
    "winner_contradicts_jugadas": gettext_noop(
        "Las jugadas dan %(lance)s al bando %(side)s (el asiento %(seat)s tiene %(held)s, el "
        "asiento %(other_seat)s %(other_held)s), pero el ganador indicado es %(got)s."),
    "winner_contradicts_lie": gettext_noop(
        "El asiento %(seat)s mintió en %(lance)s, así que %(lance)s es del bando %(side)s, "
        "pero el ganador indicado es %(got)s."),
    "winner_not_holder": gettext_noop(
        "El ganador indicado de %(lance)s es el bando %(got)s, pero solo el bando %(side)s "
        "tiene %(lance)s."),
    "winner_nobody": gettext_noop(
        "El ganador indicado de %(lance)s es el bando %(got)s, pero nadie tiene %(lance)s."),
    "declared_value": gettext_noop(
        "Asiento %(seat)s: lo declarado en %(lance)s es sí o no, no %(got)s."),
    "declared_no_cards": gettext_noop(
        "El asiento %(seat)s no enseñó cartas y lo que declaró en %(lance)s no coincide con "
        "sus jugadas: sin cartas no se puede ver una mentira."),
    "piedras_alone": gettext_noop(
        "Una anotación de piedras solo lleva las piedras, no «%(key)s»."),
    "piedras_side": gettext_noop(
        "Las piedras se anotan al bando A o al B, no %(got)s."),
    "piedras_n": gettext_noop(
        "Las piedras anotadas deben ser un número entero del -%(limit)s al %(limit)s, "
        "distinto de 0, no %(got)s."),
    "perete_off": gettext_noop(
        "Esta mesa no juega el perete (la opción «perete» está desactivada): no se puede "
        "anotar un perete."),
    "perete_alone": gettext_noop(
        "Una anotación de perete solo lleva el perete, no «%(key)s»."),
    "perete_side": gettext_noop(
        "El perete se anota al bando A o al B, no %(got)s."),
    "tap_illegal": gettext_noop("%(lance)s: ahora no se puede decir %(tap)s."),
    "tap_unanswered": gettext_noop(
        "%(lance)s: nadie contestó al envite de %(earlier)s; contéstalo antes."),
    "vaca_hands": gettext_noop("Una vaca necesita la lista de sus manos en orden."),
    "vaca_hand": gettext_noop("Mano %(n)s: %(detail)s"),
    "vaca_hand_field": gettext_noop(
        "Mano %(n)s: «%(field)s» lo lleva la vaca, no se indica en cada mano."),
    "vaca_over": gettext_noop(
        "Mano %(n)s: el bando %(side)s ya ganó la vaca en la mano %(at)s."),
    # Individual play: each player a side of his own (A for seat 0 ... F for seat 5).
    "pairs_players": gettext_noop(
        "Una mesa de %(players)s no juega por parejas (las parejas son de 4 o 6 jugadores): "
        "cada uno juega por su cuenta, así que «individual» no puede ser false."),
    "score_player": gettext_noop(
        "No hay jugador «%(key)s» en una mesa de %(players)s: los jugadores son %(letters)s."),
    "score_value_player": gettext_noop(
        "El tanteo del jugador %(side)s debe ser un número de piedras del 0 al %(last)s, "
        "no %(got)s."),
    "score_at_target_player": gettext_noop(
        "El jugador %(side)s ya tiene %(got)s piedras: con %(target)s el juego acabó antes "
        "de esta mano."),
    "bet_player": gettext_noop(
        "%(lance)s, apuesta %(i)s: quien apuesta debe ser uno de los jugadores %(letters)s, "
        "no %(got)s."),
    "raise_own": gettext_noop(
        "%(lance)s: el jugador %(side)s no puede subir su propia apuesta (apuesta %(i)s): "
        "la sube o la contesta otro jugador."),
    "bet_one_player": gettext_noop(
        "%(lance)s: solo el jugador %(side)s tiene %(lance)s, así que no se envida: lo "
        "cobra en el recuento."),
    "bet_not_playing": gettext_noop(
        "%(lance)s: el jugador %(side)s no juega %(lance)s, así que no puede envidar en él "
        "(apuesta %(i)s); jugadores de %(lance)s: %(players)s."),
    "out_pairs": gettext_noop(
        "%(lance)s: «out» es del juego individual de 3 o más jugadores; con dos bandos un no "
        "quiero cierra el lance."),
    "out_player": gettext_noop(
        "%(lance)s: «out» nombra jugadores de la mesa (%(letters)s), no %(got)s."),
    "out_twice": gettext_noop(
        "%(lance)s: el jugador %(side)s aparece dos veces en «out»: un jugador se va de un "
        "lance una sola vez."),
    "out_without_bets": gettext_noop(
        "%(lance)s: nadie envidó, así que el jugador %(side)s no pudo irse del lance "
        "(«out»)."),
    "out_last_bettor": gettext_noop(
        "%(lance)s: el jugador %(side)s hizo la última apuesta, así que no pudo irse del "
        "lance: su apuesta la contestan los demás."),
    "out_not_playing": gettext_noop(
        "%(lance)s: el jugador %(side)s no juega %(lance)s, así que no pudo irse de él "
        "(«out»); jugadores de %(lance)s: %(players)s."),
    "quiero_nobody": gettext_noop(
        "%(lance)s: no quedaba nadie para decir quiero a la apuesta del jugador %(side)s "
        "(fuera del lance: %(out)s): la respuesta fue no quiero."),
    "winner_player": gettext_noop(
        "El ganador de %(lance)s debe ser uno de los jugadores %(letters)s, no %(got)s."),
    "winner_nobody_player": gettext_noop(
        "El ganador indicado de %(lance)s es el jugador %(got)s, pero nadie tiene "
        "%(lance)s."),
    "winner_not_player": gettext_noop(
        "El ganador indicado de %(lance)s es el jugador %(got)s, pero no juega %(lance)s; "
        "jugadores de %(lance)s: %(players)s."),
    "winner_out": gettext_noop(
        "El ganador indicado de %(lance)s es el jugador %(got)s, pero se fue del lance; lo "
        "aguantaron %(players)s."),
    "winner_liar": gettext_noop(
        "El ganador indicado de %(lance)s es el jugador %(got)s, pero mintió en %(lance)s "
        "(asiento %(seat)s): quien miente no cobra nada en ese lance."),
    "winner_contradicts_player": gettext_noop(
        "Las cartas dan %(lance)s al jugador %(side)s, pero el ganador indicado es %(got)s."),
    "winner_contradicts_jugadas_player": gettext_noop(
        "Las jugadas dan %(lance)s al jugador %(side)s (el asiento %(seat)s tiene "
        "%(held)s, el asiento %(other_seat)s %(other_held)s), pero el ganador indicado es "
        "%(got)s."),
    "winner_contradicts_lie_player": gettext_noop(
        "El asiento %(seat)s mintió en %(lance)s, así que %(lance)s es del jugador "
        "%(side)s, el mejor de los que no mintieron, pero el ganador indicado es %(got)s."),
    "piedras_player": gettext_noop(
        "Las piedras se anotan a un jugador de la mesa (%(letters)s), no %(got)s."),
    "perete_player": gettext_noop(
        "El perete se anota a un jugador de la mesa (%(letters)s), no %(got)s."),
    "vaca_over_player": gettext_noop(
        "Mano %(n)s: el jugador %(side)s ya ganó la vaca en la mano %(at)s."),
    "tap_turn": gettext_noop(
        "%(lance)s: ahora habla el jugador %(turn)s, no el %(side)s."),
    "tap_players": gettext_noop(
        "%(lance)s: aún no se sabe quién juega %(lance)s: indica antes las cartas de cada "
        "jugador o lo que dijo."),
    "tap_text": gettext_noop(
        "%(got)s no es una jugada de la conversación: se escribe «A:paso», «B:envido:5», "
        "«C:ordago», «A:quiero», «B:no_quiero» o «:paso» (pasan todos)."),
}

#: ``not_a``'s ``what``: the kind of value a field must hold.
RULE_WHAT: dict[str, str] = {
    "object": gettext_noop("un objeto"),
    "list": gettext_noop("una lista"),
    "cards": gettext_noop("una cadena de cuatro cartas"),
    "number": gettext_noop("un número entero"),
}

#: ``unknown_key``'s ``where`` when it is not a field's path.
RULE_WHERE: dict[str, str] = {
    "record": gettext_noop("la mano"),
    "vaca": gettext_noop("la vaca"),
}

#: The lances and what a side can say in their betting: game words, translated too.
WORDS: dict[str, str] = {
    "grande": gettext_noop("grande"),
    "chica": gettext_noop("chica"),
    "pares": gettext_noop("pares"),
    "juego": gettext_noop("juego"),
    "punto": gettext_noop("punto"),
    "paso": gettext_noop("paso"),
    "envido": gettext_noop("envido"),
    "ordago": gettext_noop("órdago"),
    "quiero": gettext_noop("quiero"),
    "no_quiero": gettext_noop("no quiero"),
}

_WORD_PARAMS = ("lance", "earlier", "field")

# --- the league contract (muscore.leagues.compute) --------------------------------------

#: The message of each league error code, a Spanish msgid with %(param)s placeholders.
LEAGUE: dict[str, str] = {
    "not_json": gettext_noop("La liga no es JSON válido (línea %(line)s, columna %(column)s)."),
    "not_object": gettext_noop("%(where)s debe ser un objeto JSON."),
    "unknown_key": gettext_noop("Campo desconocido «%(key)s» en %(where)s."),
    "not_a": gettext_noop("«%(field)s» en %(where)s debe ser %(what)s, no %(got)s."),
    "name_missing": gettext_noop("%(where)s necesita un nombre."),
    "name_long": gettext_noop(
        "El nombre en %(where)s es demasiado largo: %(limit)s caracteres como mucho."),
    "rules": gettext_noop("Las reglas de la liga: %(detail)s"),
    "individual_rules": gettext_noop(
        "Las reglas de la liga: las partidas de una liga son entre dos parejas (o dos "
        "jugadores), no entre %(players)s jugadores cada uno por su cuenta."),
    "legs": gettext_noop("«legs» debe ser 1 (solo ida) o 2 (ida y vuelta), no %(got)s."),
    "too_few_pairs": gettext_noop("Una liga necesita al menos 2 parejas, no %(count)s."),
    "too_many_pairs": gettext_noop("Una liga tiene como mucho %(limit)s parejas, no %(count)s."),
    "too_many_matches": gettext_noop(
        "Una liga tiene como mucho %(limit)s partidas (%(pairs)s parejas a ida y vuelta), "
        "no %(count)s."),
    "players_count": gettext_noop(
        "La pareja %(pair)s (%(name)s) tiene %(count)s jugadores: en una mesa de %(players)s "
        "cada pareja tiene %(size)s."),
    "player_twice": gettext_noop("%(where)s: %(player)s no puede sentarse dos veces."),
    "draw": gettext_noop(
        "«draw» debe nombrar cada índice de pareja del 0 al %(last)s exactamente una vez; "
        "%(detail)s."),
    "unknown_pair": gettext_noop(
        "%(where)s: no hay pareja %(got)s; las parejas van del 0 al %(last)s."),
    "plays_itself": gettext_noop(
        "%(where)s: la pareja %(pair)s (%(name)s) no puede jugar contra sí misma."),
    "two_results": gettext_noop(
        "%(where)s tiene más de un resultado (%(keys)s): indica los juegos, una vaca o una "
        "incomparecencia."),
    "tantos_alone": gettext_noop(
        "%(where)s tiene tantos pero no juegos: los tantos van con los juegos anotados a mano."),
    "juegos_end": gettext_noop(
        "%(where)s: los juegos %(got)s no terminan la partida: una pareja necesita exactamente "
        "%(juegos)s y la otra menos."),
    "forfeit_pair": gettext_noop(
        "%(where)s: la pareja que no se presentó debe ser una de las de la partida (%(first)s "
        "o %(second)s) o «both», no %(got)s."),
    "vaca_rules": gettext_noop(
        "%(where)s: la vaca usa las reglas de la liga; quita «rules» de ella."),
    "vaca_invalid": gettext_noop(
        "%(where)s: las manos de la vaca no se pueden reproducir: %(detail)s"),
    "vaca_unfinished": gettext_noop(
        "%(where)s: la vaca no ha terminado (juegos %(a)s-%(b)s; se gana con %(juegos)s): "
        "todavía no es un resultado."),
    "players_shape": gettext_noop(
        "%(where)s: «players» indica quién se sentó por cada una de las dos parejas (una lista "
        "de nombres, o null para los suyos), no %(got)s."),
    "player_both_sides": gettext_noop(
        "%(where)s: %(player)s no puede sentarse con las dos parejas."),
    "meets_too_often": gettext_noop(
        "Las parejas %(first)s (%(first_name)s) y %(second)s (%(second_name)s) se enfrentan "
        "%(count)s veces, pero a %(legs)s vuelta(s) se enfrentan como mucho %(legs)s."),
    "meets_in_groups": gettext_noop(
        "Las parejas %(first)s (%(first_name)s) y %(second)s (%(second_name)s) se enfrentan "
        "%(count)s veces, pero en grupos y eliminatoria se enfrentan como mucho %(most)s "
        "(%(legs)s en su grupo y una en la eliminatoria)."),
    "format_kind": gettext_noop(
        "«kind» en el formato debe ser «liguilla», «groups» o «ceros», no %(got)s."),
    "format_groups": gettext_noop("«groups» en el formato debe ser 2 o 4, no %(got)s."),
    "format_knockout": gettext_noop(
        "Es el documento de una eliminatoria (su formato es «knockout»): sus partidas son las "
        "de las eliminatorias de un cuadro, no las de una liga, así que no se puede leer ni "
        "importar como liga."),
    "round": gettext_noop("%(where)s: «round» debe ser un número entero, 1 o más, no %(got)s."),
    "number_range": gettext_noop(
        "«%(field)s» en %(where)s debe ser un número entero del %(low)s al %(high)s, no "
        "%(got)s."),
    "too_deep": gettext_noop(
        "La liga anida listas y objetos a más de %(limit)s niveles de profundidad."),
    "text_surrogate": gettext_noop(
        "La liga lleva texto que no es Unicode válido (un surrogate suelto, como \\ud800)."),
    "text_control": gettext_noop(
        "La liga lleva un carácter de control (como \\u0000) en un texto."),
    "name_invisible": gettext_noop("El nombre en %(where)s solo tiene caracteres invisibles."),
    "name_bidi": gettext_noop(
        "El nombre en %(where)s lleva un carácter que cambia el sentido del texto."),
}

#: Where in the document (``Where.kind``); a pair or a match with its number.
LEAGUE_WHERE: dict[str, str] = {
    "league": gettext_noop("la liga"),
    "points": gettext_noop("los puntos (points)"),
    "fixtures": gettext_noop("la petición de calendario"),
    "format": gettext_noop("el formato (format)"),
    "pair": gettext_noop("la pareja %(n)s"),
    "match": gettext_noop("la partida %(n)s"),
    "the_match": gettext_noop("la partida"),
}

#: ``not_a``'s ``what``: the kind of value a field must hold.
LEAGUE_WHAT: dict[str, str] = {
    "object": gettext_noop("un objeto"),
    "string": gettext_noop("un texto"),
    "list": gettext_noop("una lista"),
    "names": gettext_noop("una lista de nombres"),
    "pair_indices": gettext_noop("una lista de dos índices de pareja"),
    "counts": gettext_noop("una lista de dos números enteros, 0 o más"),
    "number": gettext_noop("un número entero"),
    "pairs": gettext_noop("un número de parejas, o la lista de parejas"),
}

#: ``draw``'s ``problem``.
DRAW_PROBLEMS: dict[str, str] = {
    "not_list": gettext_noop("se recibió %(got)s"),
    "not_index": gettext_noop("%(got)s no es un índice de pareja"),
    "twice": gettext_noop("el %(item)s aparece %(times)s veces"),
    "missing": gettext_noop("falta el %(item)s"),
}

# --- a championship's quotas, a ceros tournament's pairing, a draw, a permalink --------------

#: The quota document's codes (muscore.championships.compute.quotas); the others, about a
#: document only the command line reads, keep their English.
QUOTA: dict[str, str] = {
    "no_sedes": gettext_noop("El campeonato no tiene sedes."),
    "seats": gettext_noop("Las plazas han de ser un número entero, 1 o más."),
    "seats_too_many": gettext_noop(
        "Hay %(seats)s plazas pero solo %(total)s parejas inscritas en todas las sedes."),
    "min_per_sede": gettext_noop("El mínimo por sede ha de ser un número entero, 0 o más."),
    "minimums": gettext_noop(
        "Los mínimos solos necesitan %(needed)s plazas (%(minimum)s por sede), más que las "
        "%(seats)s plazas."),
}

#: A ceros tournament that cannot be paired (muscore.leagues.compute.ceros).
CEROS: dict[str, str] = {
    "bad_ceros": gettext_noop(
        "Los ceros para quedar fuera han de ser un número entero del %(low)s al %(high)s."),
    "repeated_pair": gettext_noop("Una pareja está dos veces en el torneo."),
    "too_few_pairs": gettext_noop("Un torneo a ceros necesita al menos 2 parejas."),
    "too_many_pairs": gettext_noop(
        "Un torneo a ceros tiene como mucho %(limit)s parejas, no %(count)s."),
    "already_won": gettext_noop("El torneo ya tenía ganadora antes de la ronda %(round)s."),
    "bad_loser": gettext_noop(
        "Una partida de la ronda %(round)s la pierde una pareja que no la jugó."),
    "twice_in_round": gettext_noop("Una pareja está dos veces en la ronda %(round)s."),
    "not_in": gettext_noop(
        "En la ronda %(round)s juega una pareja que ya estaba fuera del torneo."),
    "round_order": gettext_noop(
        "La partida %(number)s es de la ronda %(round)s: las partidas de un torneo a ceros "
        "van ronda a ronda desde la 1, cada una con su ronda."),
    "unplayed_before": gettext_noop(
        "La ronda %(round)s tiene una partida sin resultado, pero la ronda %(next)s se sorteó "
        "después."),
    "many_resting": gettext_noop(
        "En la ronda %(round)s no juegan %(count)s parejas que siguen dentro: descansa una "
        "como mucho."),
}

#: A draw of groups that cannot be made (muscore.championships.compute.draw).
DRAW: dict[str, str] = {
    "group_size": gettext_noop("Un grupo necesita al menos 2 parejas, no %(size)s."),
    "too_few_pairs": gettext_noop("Un sorteo necesita al menos 2 parejas, no %(count)s."),
    "pair_twice": gettext_noop("Una pareja está %(times)s veces en el sorteo."),
}

_DAMAGED = gettext_noop("Ese enlace está dañado: no lleva una mano que se pueda leer.")

#: A calculator link whose code cannot be read back (muscore.permalink): one answer.
PERMALINK: dict[str, str] = {
    "length": _DAMAGED, "size": _DAMAGED, "damaged": _DAMAGED, "not_record": _DAMAGED,
}

#: Each family with codes and its messages.
CATALOGUES: dict[str, Mapping[str, str]] = {
    "rules": RULES, "league": LEAGUE, "quota": QUOTA, "ceros": CEROS, "draw": DRAW,
    "permalink": PERMALINK,
}


# --- the families the apps raise with their own message -------------------------------------

#: What a refusal of those families says: a gettext template (lazy or worded already), or
#: another refusal said in the same language.
Message = str | Promise | MuscoreError


def _said(value: object) -> str:
    # Another refusal inside this one (an engine's error as a table's "why") is said in
    # the same language as the message around it, never in its English str().
    return page_message(value) if isinstance(value, MuscoreError) else str(value)


def _fill(template: Message, params: Mapping[str, Any]) -> str:
    text = _said(template)
    return text % {k: _said(v) for k, v in params.items()} if params else text


class WordedError(MuscoreError):
    """A family whose refusals are raised with their message: a Spanish gettext template
    (``gettext_lazy``, so it is worded when said) and its ``%(param)s`` params. The
    message, or a param, may also be another refusal (an engine's ``RuleError``): it is
    said in the same language, as :func:`page_message` says it.

    ``str()`` is the English (the catalogue in locale/en), for the API and the logs;
    :meth:`page_message` says it in the active language. A message translated when it
    was raised (``gettext``) reads the same in both. ``code`` is the class's own (a
    class attribute ``code = "..."``) or else its family's: such a family tells its
    refusals apart by class.
    """

    family = "worded"

    def __init__(self, message: Message, /, **params: Any) -> None:
        self.template = message
        super().__init__(getattr(type(self), "code", None) or self.family, **params)

    def message(self, language: str = "en") -> str:
        with override(language):
            return _fill(self.template, self.params)

    def page_message(self) -> str:
        return _fill(self.template, self.params)


# --- the page's wording --------------------------------------------------------------------


#: The engine's params that hold several players by letter, said as a list ("A, B y C").
_LIST_PARAMS = ("letters", "players", "out")


def _rule_params(error: MuscoreError) -> dict[str, Any]:
    params: dict[str, Any] = dict(error.params)
    code = error.code
    for key in _LIST_PARAMS:
        value = params.get(key)
        if isinstance(value, tuple | list):
            names = [str(v) for v in value]
            params[key] = names[0] if len(names) == 1 else gettext("%(first)s y %(last)s") % {
                "first": ", ".join(names[:-1]), "last": names[-1]}
    for key in _WORD_PARAMS:
        value = params.get(key)
        if isinstance(value, str) and value in WORDS:
            params[key] = gettext(WORDS[value])
    if code == "not_a":
        params["what"] = gettext(RULE_WHAT.get(params["what"], params["what"]))
    elif code == "unknown_key":
        where = params["where"]
        params["where"] = gettext(RULE_WHERE[where]) if where in RULE_WHERE else where
    elif code == "rule_value":
        choices = params.get("choices")
        if choices:
            words = [f"«{c}»" if isinstance(c, str) else str(c).lower() if isinstance(c, bool)
                     else str(c) for c in choices]
            params["allowed"] = gettext("%(first)s o %(last)s") % {
                "first": ", ".join(words[:-1]), "last": words[-1]}
        else:
            params["allowed"] = gettext("un número entero del %(low)s al %(high)s") % params
    elif code == "tap_illegal":
        tap = gettext(WORDS.get(params["tap"], params["tap"]))
        side = params.get("side")
        said = (gettext("%(tap)s (jugador %(side)s)") if params.get("player")
                else gettext("%(tap)s (bando %(side)s)"))
        params["tap"] = said % {"tap": tap, "side": side} if side else tap
    elif code == "vaca_hand":
        params["detail"] = page_message(params.get("inner"))
    return params


def where_words(where: object) -> str:
    """A place in a league document (``muscore.leagues.compute.errors.Where``: a ``kind``
    and a ``number``) in the active language."""
    kind, number = getattr(where, "kind", None), getattr(where, "number", None)
    if kind in ("pair", "match"):
        if number is None:
            return gettext(LEAGUE_WHERE["the_match"])
        return gettext(LEAGUE_WHERE[str(kind)]) % {"n": number}
    return gettext(LEAGUE_WHERE[kind]) if isinstance(kind, str) and kind in LEAGUE_WHERE else (
        str(where))


def _league_params(error: MuscoreError) -> dict[str, Any]:
    params: dict[str, Any] = dict(error.params)
    if "where" in params:
        params["where"] = where_words(params["where"])
    if error.code == "not_a":
        what = params["what"]
        params["what"] = gettext(LEAGUE_WHAT[what]) if what in LEAGUE_WHAT else what
    elif error.code == "draw":
        params["detail"] = gettext(DRAW_PROBLEMS[params["problem"]]) % params
    elif error.code in ("rules", "vaca_invalid"):
        params["detail"] = page_message(params["inner"])
    return params


#: The params of a family whose words need translating too (the others' are numbers).
_PARAMS: dict[str, Callable[[MuscoreError], dict[str, Any]]] = {
    "rules": _rule_params, "league": _league_params,
}


def _worded(error: MuscoreError) -> str:
    words = _PARAMS.get(error.family)
    params = words(error) if words else dict(error.params)
    text: str = gettext(CATALOGUES[error.family][error.code]) % params
    # A league refusal is a sentence of its own; an engine's is also said inside others
    # ("Mano 2: ..."), so it keeps its first letter (a lance: "grande: ...").
    return text[:1].upper() + text[1:] if error.family == "league" else text


def page_message(error: object, language: str | None = None) -> str:
    """The one place a page asks how to say a refusal: the error in words a person
    understands, in the active language (or ``language``). An error the catalogue does
    not know keeps its own words (its ``message(language)`` if it has one)."""
    if language is not None:
        with override(language):
            return page_message(error)
    if isinstance(error, WordedError):
        return error.page_message()
    if isinstance(error, MuscoreError) and error.code in CATALOGUES.get(error.family, {}):
        try:
            return _worded(error)
        except (KeyError, TypeError, ValueError):  # a param the message lacks: still say it
            return str(error)
    message = getattr(error, "message", None)
    if callable(message):
        try:
            return str(message((get_language() or "es")[:2]))
        except Exception:  # noqa: BLE001 - a message must never break the page
            pass
    return str(error)


#: The engine's and the league's errors by their old names (the wording is one).
rule_message = page_message
league_message = page_message

install_page_wording(page_message)
