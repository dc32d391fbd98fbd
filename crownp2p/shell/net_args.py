"""The arguments of ``host``, ``join`` and ``resume``: argparse only, so that building the
command line (and ``crownp2p --version``) imports nothing else."""

from __future__ import annotations

import argparse
import getpass

from .arguments import BOTS_HELP, add_bot_arguments, add_screen_arguments, add_setup_arguments

__all__ = [
    "add_host_arguments",
    "add_join_arguments",
    "add_resume_arguments",
    "add_tables_arguments",
    "add_watch_arguments",
]

BEACON_PORT = 41930  # net/discovery.py's BEACON_PORT (this module imports nothing)


NAME_MAX = 32  # characters of a name at the table (net/messages.py's `player`)


def login_name() -> str:
    """The name a player goes by unless it gives --name: its login name (printable, at most
    32 characters), or "player" when the system knows none."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no login name, no user database
        return "player"
    name = "".join(c for c in name if c.isprintable()).strip()[:NAME_MAX].strip()
    return name or "player"


def _name_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--name", default=login_name(), help="your name at the table (default: your login name)"
    )


def _common_arguments(p: argparse.ArgumentParser, *, resume: bool = False) -> None:
    add_screen_arguments(p)
    p.add_argument(
        "--bot",
        metavar="BOT",
        help=f"let a bot play this seat: {BOTS_HELP} (default: you play it at the terminal)",
    )
    add_bot_arguments(p)
    p.add_argument(
        "--seed",
        type=int,
        help="the bot's seed (default: random; a resumed game keeps its own)",
    )
    if not resume:
        keep = p.add_mutually_exclusive_group()
        keep.add_argument(
            "--record",
            metavar="FILE",
            help="keep the game record in FILE (and the session in FILE.net) so a crashed "
            "peer can `resume FILE` (default for a person at the terminal: a new file in "
            "the kept games that `crownp2p games` lists; a bot keeps none)",
        )
        keep.add_argument(
            "--no-record",
            action="store_true",
            help="keep no record, even for a person at the terminal",
        )
        p.add_argument(
            "--test-seed",
            type=int,
            metavar="N",
            help=argparse.SUPPRESS,  # tests and benchmarks: predictable nonces (insecure)
        )
    p.add_argument(
        "--reconnect",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="how long to wait for a dropped peer to come back (default 120)",
    )
    p.add_argument("--json", action="store_true", help="print JSON lines; the last is the result")
    p.add_argument("-v", "--verbose", action="store_true", help="log every connection event")
    p.add_argument(
        "--quiet",
        action="store_true",
        help="no bell when your turn begins (the toolbar still says so)",
    )


def _clock(text: str) -> float | None:
    if text.strip().lower() == "none":
        return None
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither a number of seconds nor none"
        ) from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError("a clock is a positive number of seconds, or none")
    return seconds


def add_host_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--bind", default="0.0.0.0", metavar="ADDR", help="address to listen on")
    p.add_argument(
        "--port", type=int, default=0, metavar="N", help="port to listen on (default: any free)"
    )
    p.add_argument(
        "--players",
        type=int,
        choices=(2, 4),
        help="2 or 4 (default: as the variant needs; 4 alone: the team game, from its pack)",
    )
    add_setup_arguments(p)
    p.add_argument(
        "--code",
        help="the join code to use (default: a fresh one, about 50 bits). A short chosen code "
        "costs a guesser one online try per guess, rate-limited per address (about 1,400 a day "
        "past the first few): fine for a game night, weak for a table left open",
    )
    _name_argument(p)
    p.add_argument(
        "--table",
        metavar="NAME",
        help="the table's name, as `crownp2p tables` lists it (default: NAME's table)",
    )
    p.add_argument(
        "--no-announce",
        action="store_true",
        help="do not announce the table on the LAN: joiners type its address",
    )
    _beacon_port_argument(p)
    p.add_argument(
        "--teams",
        metavar="NAME",
        help="at a four-seat team table, play with the joiner called NAME against the other "
        "two (default: a person hosting chooses in the lobby, a bot or --json host leaves it to "
        "the seating draw). Either way the draw decides "
        "which side moves first and who of each side sits first",
    )
    p.add_argument(
        "--spectators",
        type=int,
        default=4,  # net/gallery.py's SPECTATORS (this module imports nothing)
        metavar="N",
        help="how many may watch the game at once with `crownp2p watch` (default 4; 0: none). "
        "A spectator sees only what is public: never a hand or a deck's order",
    )
    decks = p.add_mutually_exclusive_group()
    decks.add_argument(
        "--sealed-decks",
        dest="sealed_decks",
        action="store_true",
        default=True,
        help="hide every hand and deck order from the other peers by cryptography, not only "
        "from their screens (the default)",
    )
    decks.add_argument(
        "--open-decks",
        dest="sealed_decks",
        action="store_false",
        help="let every peer's program hold every card, as the screens still hide them: faster "
        "(about 2.4 times, for bots), for friends who do not care",
    )
    p.add_argument(
        "--max-turns",
        type=int,
        default=150,
        metavar="N",
        help="end the game unfinished once every player has played N turns "
        "(default 150; 0: no limit)",
    )
    p.add_argument(
        "--reveal-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a commit-reveal answer later than this forfeits the game (default 60)",
    )
    p.add_argument(
        "--clock",
        type=_clock,
        default=300.0,  # net/bounds.py's DEFAULT_CLOCK (this module imports nothing)
        metavar="SECONDS|none",
        help="each decision's time limit: a seat silent longer forfeits (default 300; none: "
        "no limit, for a friendly table)",
    )
    _common_arguments(p)


def _beacon_port_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--beacon-port",
        type=int,
        default=BEACON_PORT,
        metavar="N",
        help=f"the UDP port tables are announced on (default {BEACON_PORT})",
    )


def _wait_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--wait",
        type=float,
        default=3.0,
        metavar="SECONDS",
        help="how long to listen for tables announcing themselves (default 3)",
    )


def add_tables_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print a JSON array")
    _wait_argument(p)
    _beacon_port_argument(p)


def add_join_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "address",
        nargs="?",
        metavar="HOST:PORT",
        help="the host's address, as it printed it (default: a table announced on the LAN)",
    )
    p.add_argument(
        "--table",
        metavar="NAME",
        help="without HOST:PORT, the announced table of this name",
    )
    _wait_argument(p)
    _beacon_port_argument(p)
    p.add_argument(
        "--code", help="the join code the host printed (default: asked for, at a terminal)"
    )
    _name_argument(p)
    _common_arguments(p)


def add_watch_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("address", metavar="HOST:PORT", help="the host's address, as it printed it")
    p.add_argument("--code", required=True, help="the join code the host printed")
    p.add_argument("--name", default="spectator", help="your name in the table's chat")
    p.add_argument("-v", "--verbose", action="store_true", help="log every connection event")


def add_resume_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "record", metavar="RECORD", help="a solo game's save, or the record file given to --record"
    )
    _common_arguments(p, resume=True)
