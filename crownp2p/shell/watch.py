"""``crownp2p watch HOST:PORT --code CODE``: a spectator's screen, in lines.

What the host sends a spectator is the public projection of the game (net/gallery.py): the
public view after each step and the log. The board is drawn from that view at the start of each
turn (and on ``board``), the log lines as they come, chat as it is said. A line typed is said
in chat; ``board`` draws the board again; ``leave`` (or the end of input) leaves, which changes
nothing for the players.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core import snapshot
from ..core.game import Game
from ..core.rules import Rules
from .cli import CommandError
from .render import board_lines, can_unicode, counted, plain, supply_text, wrap

HELP = "Type to chat; `board` draws the board again; `leave` leaves (the game goes on)."


def public_game(view: dict[str, Any], rules: Rules) -> Game:
    """A game to draw the board and the Supply from: the view's public state, with no card in
    any hand or deck (a spectator knows only how many there are)."""
    players = [{"discard": p["discard"], "in_play": p["in_play"]} for p in view["players"]]
    data = dict(view, stack=[], players=players)
    game = Game(rules, snapshot.setup_of(data))
    snapshot.load(game, rules, data)
    return game


def spectator_screen(
    view: dict[str, Any], names: tuple[str, ...], rules: Rules, unicode: bool
) -> list[str]:
    """The board from blue's side (``!``: a blue unit gold could capture now, ``x``: a gold
    unit blue could capture), every seat's counts and public cards, the Supply and who decides."""
    game = public_game(view, rules)
    dot = " · " if unicode else ", "
    lines = [plain(line) for line in board_lines(game, 0, unicode)]
    for seat, p in enumerate(view["players"]):
        lines.append(f"{names[seat]}{dot}{game.seat_name(seat)}")
        counts = f"hand {p['hand_size']}{dot}deck {p['deck']}{dot}discard {len(p['discard'])}"
        lines.append(f"  {counts}{dot}Barracks: {counted(view['barracks'][seat], unicode)}")
        if p["in_play"]:
            lines.append(f"  In play: {counted(p['in_play'], unicode)}")
    lines.extend(wrap(supply_text(game, unicode), 100))
    prompt = view["prompt"]
    if view["over"]:
        lines.append("The game is over.")
    elif 0 <= prompt["seat"] < len(names):
        lines.append(f"{names[prompt['seat']]} to decide: {prompt['text']}")
    return lines


class WatchScreen:
    """Turns a spectator's events into lines on stdout."""

    def __init__(self, rules_of: Any, unicode: bool) -> None:
        self.rules_of = rules_of
        self.unicode = unicode
        self.last: Any = None  # the latest Scene
        self.drawn_turn = -1

    def event(self, event: Any) -> None:
        from ..net.events import Heard, News, Scene, Watching

        match event:
            case Scene(view=view):
                self.last = event
                if view["turn"] != self.drawn_turn or view["over"]:
                    self.draw()
            case News(lines=lines):
                for line in lines:
                    say(f"  {line}")
            case Heard(name=name, text=text):
                say(f"[{name}] {text}")
            case Watching():
                pass

    def draw(self) -> None:
        if self.last is None:
            say("the game has not begun yet")
            return
        view = self.last.view
        self.drawn_turn = view["turn"]
        rules = self.rules_of(snapshot.setup_of(view))
        say("\n".join(spectator_screen(view, self.last.names, rules, self.unicode)))


async def read_lines(spectator: Any, screen: WatchScreen) -> None:
    """What the spectator types: chat, ``board`` or ``leave`` (the end of input leaves too)."""
    import trio

    while True:
        line = await trio.to_thread.run_sync(sys.stdin.readline, abandon_on_cancel=True)
        text = line.strip()
        if not line or text.lower() in ("leave", "quit"):
            spectator.leave()
            return
        if text.lower() == "board":
            screen.draw()
        elif text:
            spectator.chat(text)


def say(text: str) -> None:
    print(text, flush=True)


def watch_command(args: argparse.Namespace) -> int:
    import trio

    from ..net import crypto
    from ..net.errors import NetError
    from ..net.seating import address_of, boundary
    from ..net.watching import watch_game
    from .net_commands import _configure_logging, packs, rules_of

    _configure_logging(args.verbose)
    try:
        host, port = address_of(args.address)
        crypto.check_code(args.code)
    except ValueError as err:
        raise CommandError(str(err)) from None
    screen = WatchScreen(rules_of, can_unicode(sys.stdout))

    async def run() -> str:
        farewell = ""
        with boundary():  # our own error, not trio's group
            async with trio.open_nursery() as nursery:

                async def follow(task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
                    nonlocal farewell
                    farewell = await watch_game(
                        host,
                        port,
                        code=args.code,
                        packs=packs(),
                        name=args.name,
                        on_event=screen.event,
                        task_status=task_status,
                    )
                    nursery.cancel_scope.cancel()  # stop reading what is typed

                spectator = await nursery.start(follow)
                say(f"watching the table at {host}:{port}. {HELP}")
                nursery.start_soon(read_lines, spectator, screen)
        return farewell

    try:
        farewell = trio.run(run)
    except NetError as err:
        raise CommandError(str(err)) from None
    say(farewell)
    return 0
