"""The web application of ``pdn serve`` on Starlette: the pages and the JSON API they use
(``docs/serve.md`` lists every route). Starlette is imported here only, and this module
only when the server starts (the ``[serve]`` extra).

Every handler is a plain function, run by Starlette in its thread pool; the desk's own lock
orders the edits. A request the desk refuses (``DeskError``), a damaged upload or a text
that is no PDN is answered with a 4xx (507 for a full disk) and a reason in words, never a
traceback, and the server goes on serving. Every text that comes in is valid Unicode or
refused at the door, so that no document can stop a page from being written.
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from pdn.i18n import LANGUAGES, N_, Catalog, catalog, negotiate
from replay.record.board import Board
from replay.rules.variants import get_variant
from replay.serve.board_input import legal_routes, square_centres
from replay.serve.desk import Desk, DeskError, shown_name, typed_game, valid_unicode
from replay.serve.engines import EngineError, Engines
from replay.serve.pages import (
    desk_page,
    game_page,
    new_game_page,
    position_editor_page,
    static_file,
    turn_words,
)
from replay.serve.position_editor import edited_position
from replay.serve.security import App, BodyTooLarge, BodyTooSlow, Receive, Scope, Send
from replay.serve.words import chosen

MAX_FEN = 1000
STDIN_NAME = "<stdin>"  # what `pdn validate -` names a text it reads


@dataclass
class Settings:
    """What the server was started with: ``write`` lets it write edited files back,
    ``database`` gives the explorer panel, ``engines`` the evaluation."""

    write: bool = False
    database: Path | None = None
    engines: Engines | None = None


def create_app(desk: Desk, settings: Settings | None = None) -> Starlette:
    """The application serving ``desk`` (wrap it in ``replay.serve.security.Guard``)."""
    settings = settings or Settings()

    def desk_view(request: Request) -> Response:
        return HTMLResponse(desk_page(desk, write=settings.write, words=_words(request),
                                      keep=_keep(request)))

    def game_view(request: Request) -> Response:
        game = desk.game(request.path_params["number"])
        replayed = desk.replayed(game)
        return HTMLResponse(game_page(game, replayed, desk.suggested(game),
                              explorer=_explorer(settings.database, replayed),
                              engine=settings.engines is not None, write=settings.write,
                              words=_words(request), keep=_keep(request)))

    def editor_view(request: Request) -> Response:
        return HTMLResponse(position_editor_page(_words(request), _keep(request)))

    def new_view(request: Request) -> Response:
        return HTMLResponse(new_game_page(_words(request), _keep(request)))

    def event_view(request: Request) -> Response:
        from replay.tournament import read_event, standings
        from replay.tournament.pages import standings_html
        from replay.validate.report import font_faces

        records = [game.record() for game in list(desk.games)]
        if not records:
            raise DeskError(N_("no game is loaded"))
        event = read_event(records, sources=[g.document.name for g in list(desk.games)])
        words = _words(request)
        page = standings_html(standings(event), words=words)
        back = (f'<p class="desk-nav"><a href="/{_keep(request)}">'
                f'{escape(words.gettext(DESK_LINK))}</a> · <a href="/event/report.pdf?lang='
                f"{words.language}\">{escape(words.gettext(REPORT_LINK))}</a> · "
                + " ".join(f'<a href="/event?lang={code}" hreflang="{code}" lang="{code}">'
                           f"{escape(name)}</a>" for code, name in LANGUAGES.items())
                + "</p>")
        if words.language != "th":  # the switch's "ไทย" in the shipped Thai font
            back = f"<style>{font_faces('th')}</style>{back}"
        return HTMLResponse(page.replace("<body>", "<body>" + back, 1))

    def report_pdf(request: Request) -> Response:
        from replay.validate.report import html_report
        from replay.validate.report_pdf import PdfError, write_pdf

        reports = [desk.suggested(game) if desk.fits_board(game) else game.report
                   for game in list(desk.games)]
        with tempfile.TemporaryDirectory(prefix="pdn-serve-") as folder:
            path = Path(folder) / "report.pdf"
            try:
                write_pdf(html_report(reports, _words(request)), path)
            except PdfError as error:
                raise DeskError(str(error)) from None
            body = path.read_bytes()
        return Response(body, media_type="application/pdf", headers={
            "content-disposition": 'attachment; filename="report.pdf"'})

    def static(request: Request) -> Response:
        found = static_file(request.path_params["name"])
        if found is None:
            return JSONResponse({"error": "no such file"}, 404)
        body, kind = found
        return Response(body, media_type=kind)

    def download(request: Request) -> Response:
        document = desk.document(request.path_params["number"])
        name = "".join(c if c.isalnum() or c in "._-" else "_"
                       for c in Path(document.name).name) or "games.pdn"
        return Response(document.encoded(), media_type="application/x-pdn",
                        headers={"content-disposition": f'attachment; filename="{name}"'})

    # -- the API --------------------------------------------------------------------------

    def api_games(request: Request) -> Response:
        return JSONResponse({"games": list(desk.rows())})

    def api_game(request: Request) -> Response:
        game = desk.game(request.path_params["number"])
        if request.query_params.get("suggest"):
            return JSONResponse(desk.suggested(game).as_dict())
        return JSONResponse(game.row)

    async def api_check(request: Request) -> Response:
        text = await _text(request)
        reports = await _in_thread(desk.check_text, text, STDIN_NAME)
        return JSONResponse({"games": [report.as_dict() for report in reports]})

    async def api_upload(request: Request) -> Response:
        body = await _json_body(request)
        name = str(body.get("name") or "pasted.pdn")[:200]
        text = body.get("text")
        if not isinstance(text, str):
            raise DeskError("give the file's text as 'text'")
        document = await _in_thread(desk.add_text, name, text)
        return JSONResponse({"document": document.number,
                             "games": [game.number for game in document.games]})

    async def api_edit(request: Request) -> Response:
        number, what = request.path_params["number"], request.path_params["what"]
        body = await _json_body(request)
        return await _in_thread(edit, number, what, body)

    def edit(number: int, what: str, body: dict) -> Response:
        if what == "text":
            game = desk.set_text(number, _field(body, "text", str))
        elif what == "tag":
            game = desk.set_tag(number, _field(body, "name", str), _field(body, "value", str))
        elif what == "move":
            game = desk.set_move(number, _field(body, "ply", int), _field(body, "text", str))
        elif what == "suggestion":
            game = desk.apply_suggestion(number, _field(body, "index", int))
        else:
            return JSONResponse({"error": f"no edit '{what}'"}, 404)
        return JSONResponse({"number": game.number, **game.row})

    async def api_write(request: Request) -> Response:
        if not settings.write:
            return _answer(request, 403, N_("pdn serve was started without --write: "
                                            "download the file instead"))
        original = await _in_thread(desk.write_back, desk.document(request.path_params["number"]))
        return JSONResponse({"written": True, "original": shown_name(original.name)})

    async def api_encoding(request: Request) -> Response:
        body = await _json_body(request)
        if body.get("encoding") != "utf-8":
            raise DeskError("a file can be converted to 'utf-8' only")
        document = await _in_thread(desk.to_utf8,
                                    desk.document(request.path_params["number"]))
        return JSONResponse({"document": document.number, "encoding": document.encoding})

    async def api_reload(request: Request) -> Response:
        body = await _json_body(request) if await request.body() else {}
        document = desk.document(request.path_params["number"])
        fresh = await _in_thread(lambda: desk.reload(document, discard=body.get("discard") is True))
        return JSONResponse({"document": fresh.number,
                             "games": [game.number for game in fresh.games]})

    async def api_play(request: Request) -> Response:
        body = await _json_body(request)
        moves = _field(body, "moves", list)
        if len(moves) > 1000 or not all(isinstance(m, str) for m in moves):
            raise DeskError("'moves' must be a list of moves as text")
        tags = {k: v for k, v in (body.get("tags") or {}).items()
                if isinstance(k, str) and k.isidentifier() and isinstance(v, str)
                and v.strip() and not any(c in v for c in '"\\\n\r[]')}
        typed = await _in_thread(typed_game, _field(body, "variant", str), moves, tags)
        from replay.record.diagram import board_svg

        return JSONResponse({"accepted": typed.accepted, "error": typed.said(_words(request)),
                             "legal": typed.legal, "fen": typed.fen, "pdn": typed.pdn,
                             "svg": turn_words(board_svg(typed.board), _words(request)),
                             "routes": legal_routes(typed.board),
                             **square_centres(typed.board)})

    async def api_position(request: Request) -> Response:
        body = await _json_body(request)
        variant_name = _field(body, "variant", str)
        fen, pieces = body.get("fen"), body.get("pieces")
        if (fen is not None and not isinstance(fen, str)) or len(fen or "") > MAX_FEN \
                or (pieces is not None and (not isinstance(pieces, dict) or len(pieces) > 200)):
            raise DeskError("'fen' must be a FEN, 'pieces' square names with w, W, b or B")
        try:
            variant = get_variant(variant_name)
            if fen is None and pieces is None:  # neither: the variant's start position
                fen = Board(variant).fen()
            edited = edited_position(variant, fen=fen, pieces=pieces,
                                     white=body.get("white") is not False,
                                     words=_words(request))
        except (LookupError, ValueError) as error:
            raise DeskError(N_("not a position: {reason}").format(reason=error)) from None
        return JSONResponse({**edited, "svg": turn_words(edited["svg"], _words(request))})

    async def api_routes(request: Request) -> Response:
        body = await _json_body(request)
        board = _board(_field(body, "variant", str), _field(body, "fen", str))
        return JSONResponse({"fen": board.fen(), "routes": await _in_thread(legal_routes, board)})

    async def api_engine(request: Request) -> Response:
        if settings.engines is None:
            return _answer(request, 404, N_("pdn serve was started with --engine none"))
        body = await _json_body(request)
        board = _board(_field(body, "variant", str), _field(body, "fen", str))
        try:
            found = await _in_thread(settings.engines.evaluate, board)
        except EngineError as error:
            return _answer(request, 502, str(error))
        return JSONResponse(found)

    def api_engine_stop(request: Request) -> Response:
        if settings.engines is not None:
            settings.engines.stop()
        return JSONResponse({"stopped": True})

    def diagram(request: Request) -> Response:
        from replay.record.diagram import board_svg

        query = request.query_params
        board = _board(query.get("variant", ""), query.get("fen", ""))
        svg = board_svg(board)
        if request.path_params["kind"] == "svg":
            return Response(svg, media_type="image/svg+xml")
        try:
            import cairosvg
        except ImportError:
            return JSONResponse({"error": "PNG needs cairosvg (the [png] extra)"}, 404)
        return Response(cairosvg.svg2png(bytestring=svg.encode(), output_width=480),
                        media_type="image/png")

    routes = [
        Route("/", desk_view), Route("/games/{number:int}", game_view),
        Route("/new", new_view), Route("/editor", editor_view), Route("/event", event_view),
        Route("/event/report.pdf", report_pdf), Route("/static/{name}", static),
        Route("/download/{number:int}", download),
        Route("/api/games", api_games), Route("/api/games/{number:int}", api_game),
        Route("/api/check", api_check, methods=["POST"]),
        Route("/api/upload", api_upload, methods=["POST"]),
        Route("/api/games/{number:int}/{what}", api_edit, methods=["POST"]),
        Route("/api/documents/{number:int}/write", api_write, methods=["POST"]),
        Route("/api/documents/{number:int}/reload", api_reload, methods=["POST"]),
        Route("/api/documents/{number:int}/encoding", api_encoding, methods=["POST"]),
        Route("/api/play", api_play, methods=["POST"]),
        Route("/api/routes", api_routes, methods=["POST"]),
        Route("/api/position", api_position, methods=["POST"]),
        Route("/api/engine", api_engine, methods=["POST"]),
        Route("/api/engine/stop", api_engine_stop, methods=["POST"]),
        Route("/api/diagram.{kind:str}", diagram),
    ]
    handlers: dict[Any, Any] = {DeskError: _refused, BodyTooLarge: _too_large,
                                BodyTooSlow: _too_slow, ClientDisconnect: _gone,
                                Exception: _failed}
    return Starlette(routes=routes, exception_handlers=handlers)


class Logged:
    """Around the application: a request that failed by surprise was answered 500 with
    its reason (``_failed``); Starlette raises it again for the server to log, and here it
    is logged in one line, not as a traceback."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except Exception as error:  # answered already
            print(f"pdn serve: {scope.get('method')} {scope.get('path')} failed: "
                  f"{type(error).__name__}: {error}", file=sys.stderr)


REPORT_LINK = N_("The arbiter's report (PDF)")
DESK_LINK = N_("Desk")


def _words(request: Request) -> Catalog:
    """The language of a page: ``?lang=`` (the page's switch), else the browser's
    ``Accept-Language``, else English."""
    asked = request.query_params.get("lang", "")
    return catalog(asked if asked in LANGUAGES else negotiate(
        request.headers.get("accept-language", "")))


def _keep(request: Request) -> str:
    """What the links of a page add to keep a language chosen with its switch."""
    return chosen(request.query_params.get("lang", ""))


async def _in_thread(function, *args):
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, *args)


async def _text(request: Request) -> str:
    """A posted text: the body as UTF-8 (or a JSON object's ``text``)."""
    raw = await request.body()
    if request.headers.get("content-type", "").startswith("application/json"):
        text = _decoded_json(raw).get("text")
        if not isinstance(text, str):
            raise DeskError("give the text as 'text'")
        return text
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DeskError(f"the text is not UTF-8 (byte {error.start})") from None


async def _json_body(request: Request) -> dict:
    return _decoded_json(await request.body())


def _decoded_json(raw: bytes) -> dict:
    """The JSON object posted, every text in it valid Unicode (JSON's ``\\udcfc`` can
    carry a lone surrogate, which no page or file can hold: refused here)."""
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError):
        raise DeskError("the request is not JSON") from None
    if not isinstance(body, dict):
        raise DeskError("the request must be a JSON object")
    pending: list[Any] = [body]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                valid_unicode(key, "a name in the request")
                if isinstance(item, str):
                    valid_unicode(item, f"'{key}'")
                else:
                    pending.append(item)
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str):
            valid_unicode(value, "a text in the request")
    return body


def _field(body: dict, name: str, kind: type) -> Any:
    value = body.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DeskError(f"'{name}' is missing or not a {kind.__name__}")
    return value


def _board(variant_name: str, fen: str) -> Board:
    if len(fen) > MAX_FEN:
        raise DeskError("the FEN is too long")
    try:
        return Board.from_fen(fen, get_variant(variant_name))
    except (LookupError, ValueError) as error:
        raise DeskError(N_("not a position: {reason}").format(reason=error)) from None


def _explorer(database: Path | None, replayed) -> dict | None:
    if database is None:
        return None
    from replay.database.schema import DatabaseError, open_readonly
    from replay.viewer.explorer import explorer_rows

    try:
        connection = open_readonly(database)
    except DatabaseError:
        return None
    try:
        return explorer_rows(connection, [replayed])
    finally:
        connection.close()


async def _refused(request: Request, error: Exception) -> Response:
    return _answer(request, getattr(error, "status", 400), str(error))


async def _too_slow(request: Request, error: Exception) -> Response:
    return _answer(request, 408, str(error))


async def _gone(request: Request, error: Exception) -> Response:
    """The client went away before its body was read: nobody to answer."""
    return Response(status_code=400)


async def _too_large(request: Request, error: Exception) -> Response:
    return _answer(request, 413, str(error))


async def _failed(request: Request, error: Exception) -> Response:
    """Whatever else went wrong: a reason, no traceback; the server goes on."""
    kind = type(error).__name__
    return _answer(request, 500, f"this request failed ({kind}: {error})")


def _answer(request: Request, status: int, reason: str) -> Response:
    """A refusal: ``{"error": reason}`` from the API, a page from a page's address; the
    reason in the language the request asks for (``Accept-Language``; desk.js sends the
    page's), the keys as they are."""
    words = _words(request)
    reason = words.localize(reason).encode("utf-8", errors="backslashreplace").decode("utf-8")
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": reason}, status)
    return HTMLResponse(f'<!DOCTYPE html><html lang="{words.language}"><head>'
                        f'<meta charset="utf-8"><title>pdn serve</title></head><body><p>'
                        f'<a href="/{_keep(request)}">{escape(words.gettext(DESK_LINK))}</a>'
                        f"</p><p>{escape(reason)}</p></body></html>", status)


__all__ = ["Logged", "Settings", "create_app"]
