"""The ``crownp2p`` command line: argparse here, the work in the modules it calls.

Imports of anything heavy happen inside the command that needs it, so ``crownp2p --version``
stays quick.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .. import __version__
from .arguments import (
    BOT_CHOICES,
    BOTS_HELP,
    add_bot_arguments,
    add_screen_arguments,
    add_setup_arguments,
)


class CommandError(Exception):
    """A one-sentence error for the user; the program exits with status 2."""


Setup = Callable[[argparse.ArgumentParser], None]  # adds a command's arguments
COMMANDS: dict[str, tuple[str, Setup]] = {}


def command(name: str, help_text: str) -> Callable[[Setup], Setup]:
    def wrap(setup: Setup) -> Setup:
        COMMANDS[name] = (help_text, setup)
        return setup

    return wrap


@command("units", "list the unit types, their letters and classes")
def _units(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=lambda a: _lazy("reference", "units_command")(a))


@command("moves", "show what the unit on a square can do in a position")
def _moves(p: argparse.ArgumentParser) -> None:
    p.add_argument("position", help="a position in crownp2p notation (quote it)")
    p.add_argument("square", help="the square of the unit, like e4")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=lambda a: _lazy("reference", "moves_command")(a))


@command("cards", "the card reference, in our own words")
def _cards(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", nargs="?", help="one card's name (quote names with a space)")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=lambda a: _lazy("game_commands", "cards_command")(a))


@command("selfplay", "play whole games between bots in this process")
def _selfplay(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bots", default="greedy,random", help=f"seat 0 and seat 1 bots, each one of {BOTS_HELP}"
    )
    add_bot_arguments(p)
    p.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    p.add_argument("--seed", type=int, default=0, help="game N uses seed SEED+N-1 (default 0)")
    add_setup_arguments(p)
    p.add_argument("--record", metavar="DIR", help="save each game's record in DIR")
    p.add_argument(
        "--max-turns",
        type=int,
        default=150,
        metavar="N",
        help="stop a game unfinished once every player has played N turns (default 150)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.set_defaults(run=lambda a: _lazy("game_commands", "selfplay_command")(a))


@command("solo", "play a game against the built-in bot")
def _solo(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--bot",
        default="normal",
        choices=BOT_CHOICES,
        help=f"the opponent: {BOTS_HELP} (default normal, about 0.2 s a decision)",
    )
    add_bot_arguments(p)
    p.add_argument("--seat", default="blue", help="blue (moves first, default) or gold")
    add_setup_arguments(p)
    p.add_argument("--seed", type=int, help="a number that fixes every shuffle")
    p.add_argument("--resume", metavar="FILE", help="continue the game saved in FILE (by `save`)")
    add_screen_arguments(p)
    p.set_defaults(run=lambda a: _lazy("solo", "solo_command")(a))


@command("games", "list the kept games (records and saves), newest first")
def _games(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=lambda a: _lazy("games", "games_command")(a))


@command("plugins", "list the loaded variant packs and what they add")
def _plugins(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(run=lambda a: _lazy("game_commands", "plugins_command")(a))


@command("host", "host a table on the LAN and print its address and join code")
def _host(p: argparse.ArgumentParser) -> None:
    from .net_args import add_host_arguments

    add_host_arguments(p)
    p.set_defaults(run=lambda a: _lazy("net_commands", "host_command")(a))


@command("tables", "list the tables announced on the LAN")
def _tables(p: argparse.ArgumentParser) -> None:
    from .net_args import add_tables_arguments

    add_tables_arguments(p)
    p.set_defaults(run=lambda a: _lazy("lan_tables", "tables_command")(a))


@command("join", "join a table at HOST:PORT, or one announced on the LAN")
def _join(p: argparse.ArgumentParser) -> None:
    from .net_args import add_join_arguments

    add_join_arguments(p)
    p.set_defaults(run=lambda a: _lazy("net_commands", "join_command")(a))


@command("watch", "watch a table at HOST:PORT as a spectator: its board, public cards and log")
def _watch(p: argparse.ArgumentParser) -> None:
    from .net_args import add_watch_arguments

    add_watch_arguments(p)
    p.set_defaults(run=lambda a: _lazy("watch", "watch_command")(a))


@command("resume", "continue a saved solo game, or a networked game after a crash")
def _resume(p: argparse.ArgumentParser) -> None:
    from .net_args import add_resume_arguments

    add_resume_arguments(p)
    p.set_defaults(run=lambda a: _lazy("net_commands", "resume_command")(a))


@command("verify", "check a game record: its seeds' commit-reveal rounds, then every state hash")
def _verify(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a record file")
    p.set_defaults(run=lambda a: _lazy("game_commands", "verify_command")(a))


@command("state", "print a record's explicit state at a step, as its seat knew it")
def _state(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a record file")
    p.add_argument("--step", type=int, metavar="N", help="after step N (default: the last step)")
    p.add_argument("--json", action="store_true", help="one line of JSON, not indented")
    p.set_defaults(run=lambda a: _lazy("game_commands", "state_command")(a))


@command("replay", "step through a saved game record, the board drawn at each step")
def _replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a record file (from `save FILE` or selfplay --record)")
    p.add_argument("--seat", help="whose side of the board is at the bottom: blue or gold")
    add_screen_arguments(p)
    p.set_defaults(run=lambda a: _lazy("replay", "replay_command")(a))


def _lazy(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    import importlib

    run: Callable[[argparse.Namespace], int] = getattr(
        importlib.import_module(f"crownp2p.shell.{module}"), name
    )
    return run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crownp2p", description="For the Crown, peer to peer over a LAN."
    )
    parser.add_argument("--version", action="version", version=f"crownp2p {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_text, setup) in COMMANDS.items():
        setup(
            sub.add_parser(
                name, help=help_text, description=help_text[:1].upper() + help_text[1:] + "."
            )
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except CommandError as err:
        print(f"crownp2p {args.command}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as err:  # a bug: one sentence, never a traceback
        name = type(err).__name__
        print(
            f"crownp2p {args.command}: internal error ({name}: {err}); please report it",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
