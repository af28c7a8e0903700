"""The OpenAPI 3.1 description of every JSON endpoint (muscore.api.docs serves it).

GET /api/v1/openapi.json gives the description; GET /api/ draws it as a readable
page from the same dict (no Swagger UI: nothing comes from another machine).
The texts a reader sees are translated (Spanish in the code, like every UI string):
the page speaks the reader's language, openapi.json is always the English one.
The examples are written out by hand; tests/api/test_openapi.py checks each one
against muscore.rules and the live app, so the description cannot drift.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import override

from muscore import problems
from muscore.api import contract
from muscore.api.openapi_examples import (
    ADD_HAND_REQUEST,
    CREATE_REQUEST,
    CREATE_RESPONSE,
    ERROR_EXAMPLES,
    PERETE_REQUEST,
    PIEDRAS_REQUEST,
    REPLAY_REQUEST,
    REPLAY_SUMMARY,
    SCORE_ERROR_RESPONSE,
    SCORE_REQUEST,
    SCORE_RESPONSE,
    SEED_HANDS,
)

# What the API reads as an ETag (muscore.api.tables.revision_from_etag), and as a client id
# (muscore.tables.services): the document says exactly what is refused.
ETAG_PATTERN = r'^\s*(W/)?"*r[0-9]{1,10}"*\s*$'
TABLE_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"},
            "description": _("El id de la mesa, tal como lo devuelve POST /tables.")}
TABLE_KEY = {"name": "X-Table-Key", "in": "header", "required": True,
             "schema": {"type": "string"},
             "description": _("La clave de edición de la mesa (la devuelve una sola vez POST "
                              "/tables). Sin ella (o con una equivocada) una escritura se "
                              "rechaza con 403.")}
IDEMPOTENCY_KEY = {"name": "Idempotency-Key", "in": "header", "required": False,
                   # 1 to 150 printable ASCII characters (muscore.tables.services.checks),
                   # no space at either end (HTTP drops it: " " would arrive empty).
                   "schema": {"type": "string", "pattern": "^[!-~]([ -~]{0,148}[!-~])?$"},
                   "description": _("Envía otra vez la misma clave (un reintento) y recibes la "
                                    "primera respuesta, sin guardar nada dos veces. La misma "
                                    "clave con otra petición distinta es un 422.")}
IF_MATCH = {"name": "If-Match", "in": "header", "required": False,
            "schema": {"type": "string", "pattern": ETAG_PATTERN},
            "description": _("El ETag del que parte el cambio («r3»). Si la mesa ha cambiado "
                             "desde entonces, el cambio se rechaza con 409 y la revisión "
                             "actual.")}
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False,
                 "schema": {"type": "string"},
                 "description": _("El ETag que tienes: 304 sin cuerpo mientras nada cambie.")}
FINISHED = {"name": "finished", "in": "query", "required": False,
            "schema": {"type": "string", "enum": ["summary", "full"], "default": "summary"},
            "description": _("«summary» (por defecto): cada vaca terminada resumida, sin sus "
                             "manos (juegos, winner, score, next_mano, first_hand, mano y "
                             "hand_count), así que leer una mesa larga cuesta lo mismo que una "
                             "corta. «full»: cada vaca con todas sus manos. Lo mismo en la "
                             "respuesta de cada escritura.")}
ETAG_HEADER = {"ETag": {"description": _("La revisión de la mesa como ETag: «r<revisión>»."),
                        "schema": {"type": "string"}}}

def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: Mapping[str, object], description: str | Promise, example: object = None,
          headers: Mapping[str, object] | None = None) -> dict[str, object]:
    content: dict[str, object] = {"schema": schema}
    if example is not None:
        content["example"] = example
    out: dict[str, object] = {"description": description,
                           "content": {"application/json": content}}
    if headers:
        out["headers"] = headers
    return out


def _error(description: str | Promise, example: object = None) -> dict[str, object]:
    """An error's answer: problem details (RFC 9457, muscore.problems)."""
    content: dict[str, object] = {"schema": _ref("Error")}
    if example is not None:
        content["example"] = example
    return {"description": description, "content": {problems.CONTENT_TYPE: content}}


def _body(schema: Mapping[str, object], example: object,
          required: bool = True) -> dict[str, object]:
    return {"required": required,
            "content": {"application/json": {"schema": schema, "example": example}}}


BAD_REQUEST = _error(_("El cuerpo no es JSON, no es un objeto o rompe una regla del juego: el "
                       "error dice cuál, con palabras de jugador."), SCORE_ERROR_RESPONSE)
NOT_FOUND = _error(_("No existe esa mesa (o esa mano)."), ERROR_EXAMPLES["no_table"])
FORBIDDEN = _error(_("Falta la cabecera X-Table-Key o está mal; no ha cambiado nada."),
                   ERROR_EXAMPLES["no_key"])
METHOD = _error(_("Ese método no se admite aquí (la cabecera Allow dice cuáles sí)."))
IDEMPOTENCY_REUSED = _error(_("La Idempotency-Key ya se usó para otra petición distinta."))
RETRY_AFTER = {"description": _("Segundos de espera."), "schema": {"type": "integer"}}
TOO_MANY = {
    **_error(_("Demasiadas peticiones de este tipo desde esta dirección (muscore/ratelimits.py): "
               "no ha cambiado nada; vuelve a intentarlo pasados `retry_after` segundos."),
             ERROR_EXAMPLES["too_many"]),
    "headers": {"Retry-After": RETRY_AFTER},
}

# Every shape the API speaks, written by pydantic from muscore.api.contract (docs/api.md).
SCHEMAS = contract.components()

NUMBER = {"name": "number", "in": "path", "required": True,
          "schema": {"type": "integer", "minimum": 0}, "description": _("El número de la mano, "
                                                                        "desde 1.")}

def _side_entry(
    operation_id: str, summary: str | Promise, description: str | Promise,
    body: str, example: object, created: str | Promise,
) -> dict[str, object]:
    """POST of an entry tapped for a side (piedras, a perete): its `body` (the contract's
    type: the side, a retry's client id and the board's revision); 201 with the table,
    409 when it moved."""
    return {
        "operationId": operation_id, "tags": ["hands"], "summary": summary,
        "description": description,
        "parameters": [TABLE_ID, FINISHED, TABLE_KEY, IF_MATCH, IDEMPOTENCY_KEY],
        "requestBody": _body(_ref(body), example),
        "responses": {"201": _json(_ref("TableAnswer"), created, headers=ETAG_HEADER),
                      "400": BAD_REQUEST, "403": FORBIDDEN, "404": NOT_FOUND, "405": METHOD,
                      "409": _error(_("La mesa cambió desde la revisión dada.")),
                      "422": IDEMPOTENCY_REUSED, "429": TOO_MANY},
    }


PATHS: dict[str, object] = {
    "/api/v1/score": {"post": {
        "operationId": "score", "tags": ["scoring"],
        "summary": _("Contar una mano"),
        "description": _("muscore.rules por la red: el recuento de la mano paso a paso. Sin "
                         "mesa, sin clave, sin guardar nada."),
        "requestBody": _body(_ref("HandRecord"), SCORE_REQUEST),
        "responses": {"200": _json(_ref("Result"), _("El resultado."), SCORE_RESPONSE),
                      "400": BAD_REQUEST, "405": METHOD},
    }},
    "/api/v1/replay": {"post": {
        "operationId": "replay", "tags": ["scoring"],
        "summary": _("Rehacer una vaca"),
        "description": _("Las manos en orden: el tanteo sigue, la mano pasa al asiento "
                         "siguiente, un juego ganado empieza el siguiente 0-0 y la vaca se para "
                         "en su ganador. Cada entrada de `hands` lleva además su `result` "
                         "completo."),
        "requestBody": _body(_ref("Vaca"), REPLAY_REQUEST),
        "responses": {"200": _json(_ref("VacaResult"), _("La vaca rehecha."), REPLAY_SUMMARY),
                      "400": BAD_REQUEST, "405": METHOD},
    }},
    "/api/v1/tables": {"post": {
        "operationId": "createTable", "tags": ["tables"],
        "summary": _("Crear una mesa"),
        "description": _("Devuelve la mesa con su clave de edición (se ve una sola vez): "
                         "guárdala, toda escritura la necesita en X-Table-Key."),
        "parameters": [FINISHED],
        "requestBody": _body(_ref("NewTable"), CREATE_REQUEST, required=False),
        "responses": {"201": _json(_ref("TableCreated"), _("La mesa nueva."), CREATE_RESPONSE,
                                   {**ETAG_HEADER, "Location": {"schema": {"type": "string"}}}),
                      "400": BAD_REQUEST, "405": METHOD, "429": TOO_MANY},
    }},
    "/api/v1/tables/import": {"post": {
        "operationId": "importTable", "tags": ["tables"],
        "summary": _("Importar una mesa exportada como mesa nueva"),
        "parameters": [FINISHED],
        "requestBody": _body(_ref("ImportedTable"), {
            "format": "muscore-table", "version": 1, "rules": {"target": 40}, "mano": 0,
            "players": ["Ana", "Bruno", "Carla", "Diego"], "hands": [{"hands": SEED_HANDS}]}),
        "responses": {"201": _json(_ref("TableCreated"), _("La mesa nueva (id y clave nuevos)."),
                                   headers=ETAG_HEADER),
                      "400": BAD_REQUEST, "405": METHOD, "429": TOO_MANY},
    }},
    "/api/v1/tables/{table_id}": {"get": {
        "operationId": "getTable", "tags": ["tables"],
        "summary": _("El estado de una mesa"),
        "parameters": [TABLE_ID, FINISHED, IF_NONE_MATCH],
        "responses": {"200": _json(_ref("TableAnswer"),
                                   _("La mesa: TableSummary por defecto, TableState con "
                                     "finished=full."), headers=ETAG_HEADER),
                      "304": {"description": _("Sin cambios desde el ETag de If-None-Match."),
                              "headers": ETAG_HEADER},
                      "400": _error(_("finished no es «summary» ni «full».")),
                      "404": NOT_FOUND, "405": METHOD},
    }},
    "/api/v1/tables/{table_id}/export": {"get": {
        "operationId": "exportTable", "tags": ["tables"],
        "summary": _("Exportar una mesa (envíala con POST a /tables/import para copiarla)"),
        "parameters": [TABLE_ID],
        "responses": {"200": _json(_ref("Export"), _("La exportación, como archivo para "
                                                     "descargar.")),
                      "404": NOT_FOUND, "405": METHOD},
    }},
    "/api/v1/tables/{table_id}/hands": {"post": {
        "operationId": "addHand", "tags": ["hands"],
        "summary": _("Añadir la mano siguiente"),
        "description": _("La mano (la mesa pone las reglas, la mano y el tanteo). `number` dice "
                         "qué mano es: si otro móvil la llenó antes, 409 con la `hand` "
                         "guardada. `client_id` o Idempotency-Key hacen seguro un reintento."),
        "parameters": [TABLE_ID, FINISHED, TABLE_KEY, IDEMPOTENCY_KEY],
        "requestBody": _body(_ref("AddHand"), ADD_HAND_REQUEST),
        "responses": {"201": _json(_ref("TableAnswer"), _("La mesa con la mano."),
                                   headers=ETAG_HEADER),
                      "400": BAD_REQUEST, "403": FORBIDDEN, "404": NOT_FOUND, "405": METHOD,
                      "409": _error(_("Esa mano ya estaba llena: `hand` es la guardada.")),
                      "422": IDEMPOTENCY_REUSED, "429": TOO_MANY},
    }},
    "/api/v1/tables/{table_id}/piedras": {"post": _side_entry(
        "addPiedras",
        _("Apuntar piedras a mano (+1, +5, -1 para un bando)"),
        _("Para la mesa que no anota lances: las piedras de un bando, como en "
          "el papel. Se guardan como una anotación entre las manos (se "
          "deshacen con DELETE /hands/last y salen en el registro de cambios); "
          "no mueven la mano, nunca bajan de 0 y al llegar a la meta ganan el "
          "juego. `revision` o If-Match rechazan con 409 un toque sobre una mesa "
          "que ha cambiado; `client_id` o Idempotency-Key hacen seguro un "
          "reintento. Ver docs/contract.md."),
        "PiedrasRequest",
        PIEDRAS_REQUEST,
        _("La mesa con las piedras."),
    )},
    "/api/v1/tables/{table_id}/perete": {"post": _side_entry(
        "addPerete",
        _("Apuntar un perete (4 5 6 7: un tanto para un bando)"),
        _("Solo en una mesa que juega el perete (reglas con \"perete\": true; "
          "si no, 400): una piedra para el bando del jugador que lo enseña, "
          "guardada como una anotación entre las manos, como las piedras a "
          "mano (se deshace con DELETE /hands/last); no mueve la mano (se "
          "reparte de nuevo) y al llegar a la meta gana el juego. `revision` o "
          "If-Match, `client_id` o Idempotency-Key como en /piedras. Ver "
          "docs/contract.md."),
        "PereteRequest",
        PERETE_REQUEST,
        _("La mesa con el perete."),
    )},
    "/api/v1/tables/{table_id}/hands/last": {"delete": {
        "operationId": "undoLastHand", "tags": ["hands"],
        "summary": _("Deshacer la última mano"),
        "parameters": [TABLE_ID, FINISHED, TABLE_KEY, IF_MATCH, IDEMPOTENCY_KEY],
        "responses": {"200": _json(_ref("TableAnswer"), _("La mesa sin su última mano."),
                                   headers=ETAG_HEADER),
                      "400": BAD_REQUEST, "403": FORBIDDEN, "404": NOT_FOUND, "405": METHOD,
                      "409": _error(_("La mesa cambió desde la revisión de If-Match: `revision` "
                                      "es la actual.")),
                      "422": IDEMPOTENCY_REUSED, "429": TOO_MANY},
    }},
    "/api/v1/tables/{table_id}/hands/{number}": {
        "get": {
            "operationId": "getHand", "tags": ["hands"],
            "summary": _("Una mano guardada, con su sitio en la vaca y su resultado"),
            "parameters": [TABLE_ID, NUMBER],
            "responses": {"200": _json(_ref("HandEntry"), _("La mano.")),
                          "404": NOT_FOUND, "405": METHOD},
        },
        "put": {
            "operationId": "replaceHand", "tags": ["hands"],
            "summary": _("Corregir una mano guardada"),
            "description": _("Se rehace la mesa entera; un cambio que haría que una mano "
                             "posterior rompiera las reglas se rechaza con 400 y el `number` de "
                             "esa mano."),
            "parameters": [TABLE_ID, NUMBER, FINISHED, TABLE_KEY, IF_MATCH, IDEMPOTENCY_KEY],
            "requestBody": _body(_ref("ReplaceHand"),
                                 {"hands": SEED_HANDS}),
            "responses": {"200": _json(_ref("TableAnswer"), _("La mesa después de la corrección."),
                                       headers=ETAG_HEADER),
                          "400": BAD_REQUEST, "403": FORBIDDEN, "404": NOT_FOUND,
                          "405": METHOD,
                          "409": _error(_("La mesa cambió desde la revisión dada.")),
                          "422": IDEMPOTENCY_REUSED, "429": TOO_MANY},
        },
    },
}

LEAGUE_ID = {"name": "league_id", "in": "path", "required": True,
             "schema": {"type": "integer", "minimum": 1},
             "description": _("El id de la competición (lo muestra su página de liga).")}
LEAGUE_NOT_FOUND = _error(_("No existe esa liga."), ERROR_EXAMPLES["no_league"])
LEAGUE_ETAG = {"ETag": {"description": _("Cambia con cada resultado, pareja o partida de la "
                                         "liga."), "schema": {"type": "string"}}}
EXPORT_HEADERS = {
    "X-Muscore-Revision": {"description": _("La revisión de la liga que da esta exportación."),
                           "schema": {"type": "integer"}},
    "X-Muscore-Current-Revision": {"description": _("La revisión actual de la liga."),
                                   "schema": {"type": "integer"}},
    "Retry-After": {"description": _("Solo si la exportación es de una revisión anterior: "
                                     "segundos hasta volver a pedirla."),
                    "schema": {"type": "integer"}},
}
def _csv(description: str | Promise) -> dict[str, object]:
    return {"description": description,
            "content": {"text/csv": {"schema": {"type": "string"}}}}


CSV_SEP = {"name": "sep", "in": "query", "required": False,
           "schema": {"type": "string", "enum": [",", ";"], "default": ","},
           "description": _("El separador: «,» (por defecto) o «;», el que Excel en español "
                            "separa en columnas. El archivo empieza con la marca UTF-8 (BOM) y "
                            "un texto que empieza por = + - @ va precedido de ' (no es una "
                            "fórmula).")}
BAD_SEP = _error(_("sep no es «,» ni «;»."))
# muscore.api.leagues.CEROS: a ceros tournament's table is not league.md's standings; its
# CSVs serve it and the export its document. (No example: the API's English message would
# stand on the Spanish, Basque and French /api/ pages among their own words.)
CEROS_409 = _error(_("La competición es un torneo a ceros, cuya tabla no es la clasificación "
                     "de docs/league.md: `standings_csv` y `matches_csv` dan sus enlaces en "
                     "CSV y `export` su documento."))


# A league a large import is writing (the worker, in batches): nothing of it is served yet.
IMPORTING_202 = {**_json(_ref("Preparing"),
                         _("La liga se está importando (el trabajador escribe sus resultados "
                           "por tandas): vuelve a pedirla pasados `retry_after` segundos."),
                         # (no "message" in the example: its English would stand on the
                         # Spanish, Basque and French /api/ pages among their own words)
                         {"preparing": True, "importing": True, "retry_after": 5}),
                 "headers": {"Retry-After": RETRY_AFTER}}


PATHS.update({
    "/api/v1/leagues/{league_id}": {"get": {
        "operationId": "getLeague", "tags": ["leagues"],
        "summary": _("Una liga con su clasificación"),
        "description": _("Pública y de solo lectura. Los resultados de una mesa de muscore "
                         "aparecen como sus juegos y tantos; la clasificación sigue los "
                         "desempates de docs/league.md. Devuelve el ETag en If-None-Match: "
                         "304 mientras nada cambie."),
        "parameters": [LEAGUE_ID, IF_NONE_MATCH],
        "responses": {"200": _json(_ref("League"), _("La liga y su clasificación."),
                                   headers=LEAGUE_ETAG),
                      "202": IMPORTING_202,
                      "304": {"description": _("Sin cambios desde el ETag de If-None-Match."),
                              "headers": LEAGUE_ETAG},
                      "404": LEAGUE_NOT_FOUND, "405": METHOD, "409": CEROS_409},
    }},
    "/api/v1/leagues/{league_id}/export": {"get": {
        "operationId": "exportLeague", "tags": ["leagues"],
        "summary": _("Exportar una liga, con las manos de cada mesa"),
        "description": _("La liga en la forma de docs/league.md, el resultado de una mesa "
                         "como su vaca (las manos tal como se jugaron): la página del club la "
                         "importa otra vez tal cual."),
        "parameters": [LEAGUE_ID],
        "responses": {"200": _json(_ref("League"), _(
            "La exportación, como archivo para descargar. La de una liga grande la hace el "
            "trabajador tras cada cambio: mientras la hace se da la anterior, con Retry-After "
            "y X-Muscore-Revision menor que X-Muscore-Current-Revision."),
            headers=EXPORT_HEADERS),
                      "202": {**_json(_ref("Preparing"),
                                      _("La exportación de esta liga grande aún no se ha "
                                        "hecho nunca: se está haciendo (o la liga se está "
                                        "importando: `importing`); vuelve a pedirla "
                                        "pasados `retry_after` segundos."),
                                      {"preparing": True, "retry_after": 5,
                                       "message": "this league's export is being made"}),
                              "headers": {"Retry-After": RETRY_AFTER}},
                      "404": LEAGUE_NOT_FOUND, "405": METHOD, "429": TOO_MANY},
    }},
    "/api/v1/leagues/{league_id}/standings.csv": {"get": {
        "operationId": "leagueStandingsCsv", "tags": ["leagues"],
        "summary": _("La clasificación en CSV"),
        # muscore.leagues.documents.bracket_csv: a knockout's standings are no league table.
        "description": _("Una eliminatoria (`format` «knockout») no tiene clasificación: da "
                         "su cuadro, una línea por eliminatoria en el orden del cuadro "
                         "(round, tie, first, second, wins_first, wins_second, winner): su "
                         "ronda y su lugar en ella, sus dos parejas, las partidas que ganó "
                         "cada una y la pareja que pasa (vacía hasta decidirse). Véase "
                         "docs/league.md, «A knockout»."),
        "parameters": [LEAGUE_ID, CSV_SEP],
        "responses": {"200": _csv(_("Una línea por pareja (la de una eliminatoria: una por "
                                    "eliminatoria de su cuadro), como archivo para "
                                    "descargar.")),
                      "202": IMPORTING_202, "400": BAD_SEP, "404": LEAGUE_NOT_FOUND,
                      "405": METHOD, "429": TOO_MANY},
    }},
    "/api/v1/leagues/{league_id}/matches.csv": {"get": {
        "operationId": "leagueMatchesCsv", "tags": ["leagues"],
        "summary": _("Todas las partidas en CSV"),
        "parameters": [LEAGUE_ID, CSV_SEP],
        "responses": {"200": _csv(_("Una línea por partida: las parejas, de dónde vino el "
                                    "resultado (table, manual, no_show) y sus cifras.")),
                      "202": {**IMPORTING_202, "description": _(
                          "La liga se está importando, o el CSV de esta liga grande (lo hace "
                          "el trabajador tras cada cambio) aún no se ha hecho nunca: vuelve a "
                          "pedirlo pasados `retry_after` segundos.")},
                      "400": BAD_SEP, "404": LEAGUE_NOT_FOUND,
                      "405": METHOD, "429": TOO_MANY},
    }},
})

CHAMPIONSHIP_ID = {"name": "championship_id", "in": "path", "required": True,
                   "schema": {"type": "integer", "minimum": 1},
                   "description": _("El id del campeonato (lo muestra su página).")}
CHAMPIONSHIP_NOT_FOUND = _error(_("No existe ese campeonato."),
                                ERROR_EXAMPLES["no_championship"])
PATHS.update({
    "/api/v1/championships/{championship_id}": {"get": {
        "operationId": "getChampionship", "tags": ["championships"],
        "summary": _("Un campeonato: sedes, inscripciones, plazas y fases"),
        "description": _("Público y de solo lectura: sus sedes con sus parejas (sin el "
                         "contacto), la fase previa de cada sede y cada grupo de sus fases en "
                         "la forma de docs/league.md, las plazas con sus cuentas y el sorteo "
                         "de cada fase con su semilla."),
        "parameters": [CHAMPIONSHIP_ID, {
            "name": "pagina", "in": "query", "required": False,
            # Nine digits at most (api.championships): past them no championship has pages.
            "schema": {"type": "integer", "minimum": 1, "maximum": 999_999_999},
            "description": _("La página de sedes (25 por página; la 1 si falta; más allá de "
                             "la última, la última). `page.next` lleva a la siguiente.")},
            IF_NONE_MATCH],
        "responses": {"200": _json(_ref("Championship"), _("El campeonato.")),
                      "304": {"description": _("Sin cambios desde el ETag de If-None-Match.")},
                      "400": _error(_("La página no es un número entero desde 1."),
                                    ERROR_EXAMPLES["bad_page"]),
                      "404": CHAMPIONSHIP_NOT_FOUND, "405": METHOD},
    }},
    "/api/v1/championships/{championship_id}/entries.csv": {"get": {
        "operationId": "championshipEntriesCsv", "tags": ["championships"],
        "summary": _("Las inscripciones en CSV"),
        "parameters": [CHAMPIONSHIP_ID],
        "responses": {"200": _csv(_("Una línea por pareja: sede, región, nombre, jugadores, "
                                    "estado y si ha pagado.")),
                      "404": CHAMPIONSHIP_NOT_FOUND, "405": METHOD},
    }},
})

SPEC: dict[str, object] = {
    "openapi": "3.1.0",
    "info": {
        "title": "muscore API",
        "version": "1",
        "summary": _("Contar manos de mus, rehacer vacas y llevar las manos de una mesa."),
        "description": _("Todo cuerpo de petición y de respuesta es JSON. Todo error es "
                         "{\"error\": \"...\"} con un estado 4xx, y una petición rechazada no "
                         "cambia nada. La mano se describe en docs/contract.md."),
    },
    "servers": [{"url": "/"}],
    "tags": [{"name": "scoring", "description": "The rules engine: no storage."},
             {"name": "tables", "description": "A table's vaca, stored."},
             {"name": "hands", "description": "A table's hands: add, undo, correct."},
             {"name": "leagues", "description": "A club's league: public, read-only."},
             {"name": "championships",
              "description": "A championship across venues: public, read-only."}],
    "paths": PATHS,
    "components": {
        "schemas": SCHEMAS,
        "securitySchemes": {"tableKey": {"type": "apiKey", "in": "header",
                                         "name": "X-Table-Key"}},
    },
}


def resolved(value: object) -> Any:
    """A copy of `value` with each translated text read in the active language."""
    if isinstance(value, Promise):
        return str(value)
    if isinstance(value, dict):
        return {key: resolved(item) for key, item in value.items()}
    if isinstance(value, list):
        return [resolved(item) for item in value]
    return copy.deepcopy(value)


def spec() -> dict[str, Any]:
    """A copy of the description, in English (callers may change it freely)."""
    with override("en"):
        english: dict[str, Any] = resolved(SPEC)
    return english
