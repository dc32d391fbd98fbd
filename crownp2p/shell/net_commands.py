"""The ``host``, ``join`` and ``resume`` commands: a table of peers from the command line.

cli.py registers them (their arguments are in net_args.py); ``crownp2p host|join|resume …``
(or ``python -m crownp2p …``) runs them.

Without ``--bot`` a person plays the seat in the interactive shell (net_table.py), which needs
a terminal: without one the commands say so and exit with status 2. With ``--json`` the first
line says where the table is (``listening``, with the port: useful with ``--port 0``) and the
last line is the result.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..net.events import Audited, Chat, Ended, Heard, LinkChanged, Outcome, Started, Watching
from .cli import CommandError
from .lobby_screen import LobbyScreen, told
from .turns import turn_limit

if TYPE_CHECKING:
    from ..core.rules import Rules
    from ..core.setup import Setup
    from ..net.link import Timeouts
    from ..net.seating import Announced

EXIT_FINISHED, EXIT_UNFINISHED = 0, 1
MAX_SPECTATORS = 64

log = logging.getLogger("crownp2p.net")


# ====================================================================== helpers


def packs() -> list[tuple[str, str]]:
    """The variant packs to compare in the handshake: every loaded pack and its version."""
    from ..packs import installed_packs
    from .context import catalog

    return installed_packs(catalog())


def rules_of(setup: Setup) -> Rules:
    """The rules of a table's agreed setup (its variant), from the loaded packs."""
    from ..packs import PackError
    from .context import catalog

    try:
        return catalog().rules(setup.variant)
    except PackError as err:
        raise CommandError(str(err)) from None


def _setup(args: argparse.Namespace) -> Setup:
    from .context import catalog
    from .game_commands import setup_from_args

    variants = catalog().variants
    if args.players is not None and args.variant is None:
        # `--players N` alone: the base game if it seats N, else the one installed variant
        # that does (the team game for 4)
        fits = [name for name, v in variants.items() if v.seats == args.players]
        if "standard" in fits:
            fits = ["standard"]
        if len(fits) != 1:
            choices = (
                f"choose one with --variant: {', '.join(fits)}"
                if fits
                else ("none is installed (the team game comes with the all_kings_men pack)")
            )
            raise CommandError(f"which variant for {args.players} players? {choices}")
        args.variant = fits[0]
    setup = setup_from_args(args)
    if getattr(args, "sealed_decks", False):
        setup = replace(setup, sealed=True)
    seats = variants[setup.variant].seats
    if args.players is not None and args.players != seats:
        raise CommandError(
            f"the {setup.variant} variant is for {seats} players, not {args.players}"
        )
    return setup


def _require_bot(args: argparse.Namespace, command: str) -> bool:
    """Whether a person plays this seat at the terminal (no --bot); a bad --bot, or no
    --bot without a terminal, is one sentence."""
    from ..bots import BOT_NAMES

    if not args.bot:
        if sys.stdin.isatty() and sys.stdout.isatty():
            return True
        raise CommandError(
            f"without a terminal `{command}` needs --bot random or --bot greedy (the "
            "interactive table runs only in a terminal)"
        )
    if args.bot not in BOT_NAMES:
        raise CommandError(f"there is no bot called {args.bot!r}: choose {', '.join(BOT_NAMES)}")
    return False


def _record_for(args: argparse.Namespace, human: bool, command: str) -> bool:
    """A person at the terminal keeps a record by default, so a crash never loses the game:
    ``args.record`` becomes a new file in games_dir(), named by the local time. Whether we
    chose it (and so must say where it is)."""
    from .games import games_dir, new_game_path

    if args.record or args.no_record or not human:
        return False
    try:
        args.record = str(new_game_path(command))
    except OSError as err:
        raise CommandError(
            f"cannot keep the game's record in {games_dir()} ({err.strerror}): "
            "give --record FILE or --no-record"
        ) from None
    return True


def _say_record(args: argparse.Namespace, printer: Printer) -> None:
    printer.emit(
        {"event": "record", "path": args.record},
        f"this seat's record: {args.record} (should this program stop, "
        f"`crownp2p resume {args.record}` takes you back to the table)",
    )


def _configure_logging(verbose: bool) -> None:
    if not any(getattr(h, "_crownp2p", False) for h in log.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("crownp2p: %(message)s"))
        handler._crownp2p = True  # type: ignore[attr-defined]
        log.addHandler(handler)
        log.propagate = False
    log.setLevel(logging.INFO if verbose else logging.WARNING)


def _timeouts(args: argparse.Namespace) -> Timeouts:
    from ..net.bounds import RECONNECT
    from ..net.link import Timeouts

    low, high = RECONNECT
    if not low <= args.reconnect <= high:
        raise CommandError(f"--reconnect must be {low:g} to {high:g} seconds")
    reveal = getattr(args, "reveal_timeout", 60.0)
    if reveal <= 0:
        raise CommandError("--reveal-timeout must be a positive number of seconds")
    return Timeouts(reveal=reveal, reconnect=args.reconnect)


def _spare_the_game() -> None:
    """Leave what this process made before the game (the modules, the engine's tables, the
    links: some 55,000 objects, nearly all kept to the end) out of the garbage collector's
    full passes. Each of those passes took 40-50 ms, and two fell inside a game, stopping the
    peer that was to decide; in a game the collector now walks only what the game made."""
    gc.freeze()


class Printer:
    """What the user sees: plain lines, or JSON lines with ``--json``."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json
        self.names: list[str] = []
        self.started_at: float | None = None  # when the game began and ended, as we heard it
        self.ended_at: float | None = None
        self.sink: Callable[[list[str]], None] | None = None  # lines go there, not to stdout

    def emit(self, data: dict[str, Any], text: str) -> None:
        if self.sink is not None:  # a person reads it on the lobby's screen
            self.sink([text])
        else:
            print(json.dumps(data) if self.as_json else text, flush=True)

    def stamp(self, event: Any) -> None:
        """Time the game by its events (the protocol keeps no clock); at its start, spare it
        the garbage collector's full passes (:func:`_spare_the_game`)."""
        if isinstance(event, Started) and (self.started_at is None or self.ended_at is not None):
            _spare_the_game()
            self.started_at, self.ended_at = time.monotonic(), None  # (the evening's next game)
        elif isinstance(event, Ended) and self.ended_at is None:
            self.ended_at = time.monotonic()

    def event(self, event: Any) -> None:
        self.stamp(event)
        if (said := told(event)) is not None:
            self.emit(*said)
            return
        match event:
            case Chat(seat=seat, text=text):
                self.emit(
                    {"event": "chat", "seat": seat, "text": text},
                    f"[seat {seat}] {text}",
                )
            case Audited(culprit=culprit, text=text):  # (a sealed game's, after its end)
                self.emit({"event": "audited", "culprit": culprit, "text": text}, text)
            case Watching(name=name, here=here):
                self.emit(
                    {"event": "watching", "name": name, "here": here},
                    f"{name} {'is watching' if here else 'stopped watching'}",
                )
            case Heard(name=name, text=text):
                self.emit(
                    {"event": "chat", "spectator": name, "text": text},
                    f"[{name}, watching] {text}",
                )
            case LinkChanged(seat=seat, up=False):
                log.info("lost the link to seat %s; waiting for it to come back", seat)
            case LinkChanged(seat=seat, up=True):
                log.info("link to seat %s is up", seat)

    def outcome(self, outcome: Any, seconds: float | None) -> int:
        data = outcome.to_json()
        if seconds is not None:
            data["seconds"] = round(seconds, 4)
        words = {
            "win": "you win",
            "loss": "you lose",
            "draw": "a draw",
            "forfeit": "the game ended by forfeit",
            "cheat": "the audit caught a cheat",
            "desync": "the game stopped: the peers' games differ",
            "aborted": "the game stopped unfinished",
        }[outcome.result]
        where = (
            f"after seq {outcome.seq}"
            if outcome.result == "desync"
            else f"in {outcome.turns} turns"
        )
        self.emit(
            data,
            f"{words} ({outcome.reason}) {where}; final hash {outcome.final_hash[:16]}",
        )
        return EXIT_FINISHED if outcome.finished else EXIT_UNFINISHED


def _lobby_screen(human: bool, players: int, **how: bool) -> LobbyScreen | None:
    """The lobby a person sees before the game (none for a bot's seat)."""
    return LobbyScreen(players, **how) if human else None


def _simplest(group: BaseExceptionGroup) -> BaseException:
    """The one exception of a trio exception group that says most to the user."""
    from ..net.errors import NetError

    leaves: list[BaseException] = []

    def walk(g: BaseExceptionGroup) -> None:
        for exc in g.exceptions:
            walk(exc) if isinstance(exc, BaseExceptionGroup) else leaves.append(exc)

    walk(group)
    for kind in (KeyboardInterrupt, NetError, OSError):
        for exc in leaves:
            if isinstance(exc, kind):
                return exc
    return leaves[0] if leaves else group


def _run(
    service: Any,
    args: argparse.Namespace,
    printer: Printer,
    human: bool = False,
    lobby: LobbyScreen | None = None,
    **kwargs: Any,
) -> int:
    """Run a table service under trio, mapping every failure to one sentence. For a
    ``human`` player the service runs under the interactive shell (net_table.py), with the
    ``lobby`` screen up until the game."""
    import trio

    box: dict[str, Any] = {}

    def session_ready(session: Any) -> None:
        box["session"] = session

    if human:
        return _run_shell(service, args, printer, box, kwargs, lobby)

    async def main() -> Any:
        return await service(**kwargs, session_ready=session_ready, on_event=printer.event)

    def play() -> Any:
        try:
            return trio.run(main)
        except BaseExceptionGroup as group:
            raise _simplest(group) from None

    return _finish(play, args, printer, box)


def _finish(play: Any, args: argparse.Namespace, printer: Printer, box: dict[str, Any]) -> int:
    from ..net.errors import NetError

    try:
        outcome = play()
    except NetError as err:
        raise CommandError(str(err)) from None
    except KeyboardInterrupt:
        hint = ""
        record = getattr(args, "record", None)
        if record and Path(record).exists():  # the table got as far as its record
            hint = f": continue with `crownp2p resume {record}`"
        raise CommandError(f"interrupted{hint}") from None
    except OSError as err:
        raise CommandError(f"a network error stopped the table: {err.strerror or err}") from None
    except Exception as err:  # a bug: one sentence for the user, the traceback with -v
        log.debug("internal error", exc_info=True)
        if args.verbose:
            log.exception("internal error")
        raise CommandError(
            f"an internal error stopped the table ({type(err).__name__}: {err})"
        ) from None
    seconds = None
    if printer.started_at is not None and printer.ended_at is not None:
        seconds = printer.ended_at - printer.started_at
    return printer.outcome(outcome, seconds)


def _run_shell(
    service: Any,
    args: argparse.Namespace,
    printer: Printer,
    box: dict[str, Any],
    kwargs: dict[str, Any],
    lobby: LobbyScreen | None,
) -> int:
    """The service under trio as a guest of the shell's asyncio loop (net_table.run_shell).
    The person's `again` answers whether to play another game on the same links."""
    from .net_table import PersonsAnswer, run_shell
    from .render import can_unicode
    from .terminal import internal_error

    def start(session_ready: Any, on_event: Any) -> Any:
        def ready(session: Any) -> None:
            box["session"] = session
            session_ready(session)

        def heard(event: Any) -> None:
            printer.stamp(event)
            on_event(event)

        return service(**kwargs, session_ready=ready, on_event=heard, again=answer)

    answer = PersonsAnswer()

    handlers = [h for h in log.handlers if getattr(h, "_crownp2p", False)]
    shown: list[Any] = []  # the open table, while the shell is up

    def to_the_table(record: logging.LogRecord) -> bool:
        """While the shell is up, stderr would tear the screen: the log goes above the prompt
        with -v, and is dropped otherwise (what matters comes as the session's events); in
        the lobby, it goes to the lobby's log."""
        if not shown:
            if lobby is None:
                return True
            lobby.tell([f"crownp2p: {record.getMessage()}"])
            return False
        if args.verbose:
            shown[0].tell([f"crownp2p: {record.getMessage()}"])
        return False

    for handler in handlers:
        handler.addFilter(to_the_table)
    if lobby is not None:
        printer.sink = lobby.tell
    try:
        result, _table = run_shell(
            start,
            on_event=printer.event,
            unicode=can_unicode(sys.stdout),
            bell=not args.quiet,
            on_table=shown.append,
            full_screen=not args.plain,
            lobby=lobby,
            answer=answer,
        )
    except Exception as err:  # noqa: BLE001 - the last line of defence: one sentence
        log.debug("internal error", exc_info=True)
        return internal_error(err, box.get("session") and box["session"].ls, sys.stdout)
    finally:
        printer.sink = None
        for handler in handlers:
            handler.removeFilter(to_the_table)

    def play() -> Any:
        try:
            return result.unwrap()
        except BaseExceptionGroup as group:
            raise _simplest(group) from None

    return _finish(play, args, printer, box)


# ====================================================================== commands


def _announced(args: argparse.Namespace) -> Announced | None:
    """How ``host`` announces its table on the LAN, unless ``--no-announce``."""
    from ..net.seating import Announced

    if args.no_announce:
        return None
    if not 1 <= args.beacon_port <= 65535:
        raise CommandError("--beacon-port must be between 1 and 65535")
    return Announced(args.table or f"{args.name}'s table", args.beacon_port)


def host_command(args: argparse.Namespace) -> int:
    from ..net import crypto
    from ..net.deciders import LateBot
    from ..net.seating import host_game

    _configure_logging(args.verbose)
    human = _require_bot(args, "host")
    setup = _setup(args)
    rules = rules_of(setup)
    players = len(rules.seating.sides)
    if args.code is not None:
        try:
            crypto.check_code(args.code)
        except ValueError as err:
            raise CommandError(str(err)) from None
    if not 0 <= args.port < 65536:
        raise CommandError("--port must be between 0 and 65535")
    if args.max_turns < 0:
        raise CommandError("--max-turns must be 0 or more")
    if not 0 <= args.spectators <= MAX_SPECTATORS:
        raise CommandError(f"--spectators must be 0 to {MAX_SPECTATORS}")
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
    printer = Printer(args.json)
    chosen = _record_for(args, human, "host")
    # A person at a team table (four seats) without --teams chooses partners and starts;
    # bots and scripts (--json) start as soon as every place is taken.
    holds = human and not args.json and args.teams is None and players == 4
    lobby = _lobby_screen(human, players, hosting=True, holds=holds)
    announced = _announced(args)

    async def run(**kw: Any) -> Any:
        import trio

        outcomes: list[Any] = []

        async def play(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
            outcomes.append(await host_game(**kw, task_status=task_status))

        async with trio.open_nursery() as nursery:
            ready = await nursery.start(play)
            address = f"{ready.address}:{ready.port}"
            code = args.code or ready.code  # as the user typed it; case and dashes do not matter
            printer.emit(
                {
                    "event": "listening",
                    "address": ready.address,
                    "port": ready.port,
                    "code": code,
                    "players": players,
                },
                f"hosting a table for {players} players at {address}; join code {code}\n"
                f"others join with: crownp2p join {address} --code {code}",
            )
            if announced is not None:
                printer.emit(
                    {"event": "announced", "table": announced.table},
                    f"announced on the LAN as {announced.table!r}: others may just type "
                    "crownp2p join",
                )
            if chosen:
                _say_record(args, printer)
        return outcomes[0]

    return _run(
        run,
        args,
        printer,
        rules=rules,
        setup=setup,
        human=human,
        lobby=lobby,
        hold=holds,
        lobby_ready=lobby and lobby.control,
        decider=None if human else LateBot(args.bot, seed, think=args.think, workers=args.workers),
        packs=packs(),
        name=args.name,
        teams=args.teams,
        spectators=args.spectators,
        bind=args.bind,
        port=args.port,
        code=args.code,
        record=args.record,
        max_turns=turn_limit(rules, args.max_turns),
        clock=args.clock,
        timeouts=_timeouts(args),
        test_seed=args.test_seed,
        extra={"bot": args.bot, "seed": seed},
        announced=announced,
    )


def join_command(args: argparse.Namespace) -> int:
    from ..net import crypto
    from ..net.deciders import LateBot
    from ..net.rematch import always
    from ..net.seating import address_of, join_game
    from .lan_tables import ask_code, choose_table, describe

    _configure_logging(args.verbose)
    human = _require_bot(args, "join")
    try:
        if args.address is None:
            table = choose_table(args)
            host, port = table.address, table.port
            print(f"joining {describe(table)}", file=sys.stderr if args.json else sys.stdout)
            args.code = ask_code(args, repr(table.name))
        else:
            host, port = address_of(args.address)
            args.code = ask_code(args, args.address)
        crypto.check_code(args.code)
    except ValueError as err:
        raise CommandError(str(err)) from None
    seed = args.seed if args.seed is not None else secrets.randbelow(1 << 32)
    printer = Printer(args.json)
    if _record_for(args, human, "join"):
        _say_record(args, printer)
    return _run(
        join_game,
        args,
        printer,
        rules=rules_of,
        host=host,
        port=port,
        code=args.code,
        human=human,
        lobby=_lobby_screen(human, 0, hosting=False),
        decider=None if human else LateBot(args.bot, seed, think=args.think, workers=args.workers),
        packs=packs(),
        name=args.name,
        record=args.record,
        timeouts=_timeouts(args),
        test_seed=args.test_seed,
        extra={"bot": args.bot, "seed": seed},
        # a bot seat says yes to every game the table offers (a person: `again`)
        **({} if human else {"again": always}),
    )


def resume_command(args: argparse.Namespace) -> int:
    from ..net.deciders import LateBot
    from ..net.journal import JournalError, load
    from ..net.seating import resume_game
    from ..net.session import TableInfo
    from .solo import is_solo_save, resumed_table, run_solo

    if is_solo_save(args.record):
        return run_solo(resumed_table(args.record), plain=args.plain)

    _configure_logging(args.verbose)
    try:
        _, session_file = load(args.record)
        info = TableInfo.from_json(session_file.table)
    except JournalError as err:
        raise CommandError(str(err)) from None
    except (KeyError, TypeError, ValueError) as err:
        raise CommandError(f"the session file of {args.record} cannot be read ({err})") from None
    printer = Printer(args.json)
    if session_file.end is not None:  # it ended as this peer stopped: say how, play nothing
        return printer.outcome(Outcome.from_json(session_file.end), None)
    bot = args.bot or info.extra.get("bot")
    args.bot = bot
    human = _require_bot(args, "resume")
    seed = args.seed if args.seed is not None else info.extra.get("seed", 0)
    printer.emit(
        {"event": "resuming", "seat": info.seat},
        f"resuming seat {info.seat} of {args.record}",
    )
    return _run(
        resume_game,
        args,
        printer,
        rules=rules_of,
        record=args.record,
        human=human,
        decider=None if human else LateBot(str(bot), seed, think=args.think, workers=args.workers),
        packs=packs(),
        timeouts=_timeouts(args),
    )
