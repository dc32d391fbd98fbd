"""The screen as styled text: board, legend, hands, Supply, Barracks and whose decision it is.

Everything here renders what one seat may see (``Game.view``), never the hidden state, except
in a replay, which shows every hand. The output is a list of ``(style, text)`` fragments, the
form prompt_toolkit prints; :func:`plain` drops the styles for pipes and tests.

Owners read without colour: upper case is blue (side 0), lower case gold (side 1); threats,
captures and the last moves are marks beside the squares, and an ally's units in the team game
too. Colour, when the terminal allows it and ``NO_COLOR`` is not set, only adds to that. With
``unicode=False`` every character is ASCII.
"""

from __future__ import annotations

import os
import re
import sys
import textwrap
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import zip_longest
from typing import Any

from ..core.board import FILES, square, square_name
from ..core.game import CHANCE, Game

Fragment = tuple[str, str]
Fragments = list[Fragment]

GAP = 3


# ------------------------------------------------------------------ the terminal's abilities


def use_colour(stream: Any = None) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def can_unicode(stream: Any = None) -> bool:
    """Whether ``stream``'s encoding can show the few non-ASCII characters we use."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "ascii"
    try:
        "·–×—".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def plain(fragments: Iterable[Fragment]) -> str:
    return "".join(text for _, text in fragments)


def lines_of(fragments: Fragments) -> list[Fragments]:
    """Split fragments into lines (without the newlines)."""
    out: list[Fragments] = [[]]
    for style, text in fragments:
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                out.append([])
            if part:
                out[-1].append((style, part))
    return out


def joined(lines: list[Fragments]) -> Fragments:
    """Lines back into fragments, with the newlines (the inverse of :func:`lines_of`)."""
    out: Fragments = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    return out


def _width(line: Fragments) -> int:
    return sum(len(text) for _, text in line)


def folded(line: Fragments, width: int) -> list[Fragments]:
    """One line as lines of at most ``width`` columns, cut between words where it can (a word
    longer than a line is cut where the line ends); the styles go with their words, and the
    spaces where a line is cut are dropped."""
    width = max(1, width)
    rows: list[Fragments] = [[]]
    used = 0
    space: Fragment | None = None  # the spaces before the next word, if it stays on this row
    for style, text in line:
        for word in re.findall(r"\s+|\S+", text):
            if word.isspace():
                space = (style, word) if used else None
                continue
            gap = len(space[1]) if space else 0
            if used and used + gap + len(word) > width:
                rows.append([])
                used, space = 0, None
            if space:
                rows[-1].append(space)
                used += gap
            space = None
            while word:
                piece, word = word[: width - used], word[width - used :]
                rows[-1].append((style, piece))
                used += len(piece)
                if word:
                    rows.append([])
                    used = 0
    return rows


# ------------------------------------------------------------------ small pieces


def counted(names: Iterable[str], unicode: bool = True) -> str:
    """``Guard ×2, Peon ×3`` (sorted), or ``-``."""
    times = "×" if unicode else "x"
    counts = Counter(names)
    if not counts:
        return "-"
    return ", ".join(f"{n} {times}{c}" if c > 1 else n for n, c in sorted(counts.items()))


SIDE_STYLES = ("blue", "gold")  # the style classes of side 0 and side 1 (style.py)


def side_of(game: Game, seat: int) -> int:
    return game.rules.seating.sides[seat]


def owner_case(game: Game, seat: int) -> str:
    return "UPPER case" if side_of(game, seat) == 0 else "lower case"


def wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    """Wrap ``text`` at ", " and " · " boundaries into lines of at most ``width``."""
    words = re.split(r"(?<=, )|(?<= · )|(?<= \| )|(?<=\w  )", text)
    lines, line = [], ""
    for word in words:
        if line and len(line) + len(word.rstrip()) > width:
            lines.append(line.rstrip())
            line = indent
        line += word
    lines.append(line.rstrip())
    return lines


# ------------------------------------------------------------------ the board


def threats(game: Game, seat: int) -> tuple[frozenset[int], frozenset[int]]:
    """Squares of ``seat``'s side's units an enemy could capture by a normal attack now, and of
    enemy units ``seat``'s side could capture: the engine's move generator, whatever orders are
    left. The one place the screen asks about threats (a cached attack map can serve it)."""
    seating = game.rules.seating
    attacked: set[int] = set()
    capturable: set[int] = set()
    for other in seating.seats:
        into = capturable if not seating.are_enemies(seat, other) else attacked
        for move in game.position.all_moves(other):
            if move.kind == "attack":
                into.update(move.captures)
    return frozenset(attacked), frozenset(capturable)


# The marks in the column left of a square, read without colour; the first that applies.
ATTACKED, CAPTURABLE, LAST = "!", "x", "*"
ALLY = "'"  # after an ally's unit in the team game


def board_lines(
    game: Game, seat: int, unicode: bool = True, marks: Sequence[int] = ()
) -> list[Fragments]:
    """The board from ``seat``'s side of the table, with file and rank labels. In the column
    left of each square: ``!`` for our unit an enemy can capture, ``x`` for an enemy unit we
    can capture, ``*`` for the squares in ``marks`` (the last moves, shaded in colour too). In
    the team game each square has a column after it too, ``'`` for an ally's unit."""
    forward = game.rules.seating.forward(seat) > 0
    ranks = range(7, -1, -1) if forward else range(8)
    files = list(range(8)) if forward else list(range(7, -1, -1))
    empty = "·" if unicode else "."
    team = has_allies(game, seat)
    pad = " " if team else ""
    attacked, capturable = threats(game, seat)
    labels: Fragments = [("class:label", "   " + " ".join(FILES[f] + pad for f in files).rstrip())]
    lines = [labels]
    for r in ranks:
        line: Fragments = [("class:label", f"{r + 1:>2}")]
        for f in files:
            sq = square(f, r)
            unit = game.position.board[sq]
            last = " class:last" if sq in marks else ""
            if sq in attacked:
                line.append(("class:threat", ATTACKED))
            elif sq in capturable:
                line.append(("class:threat", CAPTURABLE))
            else:
                line.append(("class:label", LAST if last else " "))
            if unit is None:
                line.append(("class:empty" + last, empty))
            elif side_of(game, unit.owner) == 0:
                line.append(("class:unit.blue" + last, unit.kind.letter.upper()))
            else:
                line.append(("class:unit.gold" + last, unit.kind.letter.lower()))
            if team:
                ally = unit is not None and is_allys(game, seat, unit)
                line.append(("class:label", ALLY if ally else " "))
        line.append(("class:label", f" {r + 1}"))
        lines.append(line)
    lines.append(labels)
    return lines


def has_allies(game: Game, seat: int) -> bool:
    seating = game.rules.seating
    return any(s != seat and not seating.are_enemies(seat, s) for s in seating.seats)


def is_allys(game: Game, seat: int, unit: Any) -> bool:
    """Is ``unit`` an ally's and not ours (a shared Sovereign is ours)?"""
    seating = game.rules.seating
    return not seating.are_enemies(seat, unit.owner) and not seating.is_own(
        seat, unit.owner, unit.kind.is_sovereign
    )


def marks_legend(game: Game, seat: int) -> str:
    team = f"  {ALLY} your ally's" if has_allies(game, seat) else ""
    return f"{ATTACKED} attacked  {CAPTURABLE} you can capture  {LAST} last moves{team}"


def sovereign_alerts(game: Game, seat: int) -> str:
    """Attacked Sovereigns in words, ours first: "Your King on e1 is under attack. "."""
    attacked, capturable = threats(game, seat)
    words = []
    for sq in sorted(attacked):
        unit = game.position.board[sq]
        if unit is not None and unit.kind.is_sovereign:
            whose = "Your" if game.rules.seating.is_own(seat, unit.owner, True) else "Your ally's"
            words.append(f"{whose} {unit.kind.name} on {square_name(sq)} is under attack.")
    for sq in sorted(capturable):
        unit = game.position.board[sq]
        if unit is not None and unit.kind.is_sovereign:
            whose = game.seat_name(unit.owner)
            words.append(f"You can capture {whose}'s {unit.kind.name} on {square_name(sq)}.")
    return "".join(w + " " for w in words)


def legend(game: Game, seat: int, unicode: bool = True) -> str:
    kinds = sorted(
        {u.kind for _, u in game.position.units()} | {k for b in game.position.barracks for k in b},
        key=lambda k: k.letter,
    )
    units = "  ".join(f"{k.letter} {k.name}" for k in kinds)
    sep = " · " if unicode else " | "
    return f"{units}{sep}UPPER = blue, lower = gold{sep}{marks_legend(game, seat)}"


# ------------------------------------------------------------------ players, Supply


def player_block(
    game: Game, seat: int, viewer: int, unicode: bool, reveal: bool, who: str, compact: bool
) -> list[Fragment]:
    """Lines about one seat: counts, Barracks, and the hand when the viewer may see it
    (``compact``: the Barracks on the counts' line)."""
    view = game.view(seat if reveal else viewer)
    p = view["players"][seat]
    dot = " · " if unicode else ", "
    name = game.seat_name(seat)
    lines: list[Fragment] = [
        # coloured by side: a seat's name may be several words ("blue south-west"), and a
        # style class cannot
        (
            f"class:player.{SIDE_STYLES[side_of(game, seat)]}",
            dot.join(filter(None, [name, owner_case(game, seat), who])),
        ),
        ("", f"  hand {p['hand_size']}{dot}deck {p['deck']}{dot}discard {len(p['discard'])}"),
        ("", f"  Barracks: {counted(view['barracks'][seat], unicode)}"),
    ]
    if compact:
        lines[1:] = [("", lines[1][1] + dot + lines[2][1].strip())]
    if "hand" in p:
        lines.append(("class:hand", f"  Hand: {counted(p['hand'], unicode)}"))
    if p["in_play"]:
        lines.append(("", f"  In play: {counted(p['in_play'], unicode)}"))
    return lines


def supply_text(game: Game, unicode: bool = True) -> str:
    dot = " · " if unicode else " | "
    items = []
    for name, left in game.supply.items():
        items.append(f"{name} {game.cost(name)}g ({left})" if left else f"{name} (empty)")
    return "Supply, cost (left): " + dot.join(items)


def extra_lines(game: Game, viewer: int, unicode: bool) -> list[str]:
    turn = game.view(viewer)["this_turn"]
    lines = []
    for _viewer, seen in turn["glimpses"]:
        for other, names in seen:
            lines.append(f"Seen in {game.seat_name(other)}'s hand: {counted(names, unicode)}")
    if turn["revealed"]:
        lines.append(f"Revealed: {counted(turn['revealed'], unicode)}")
    return lines


def _players(
    game: Game,
    viewer: int,
    order: list[int],
    unicode: bool,
    reveal: bool,
    who: dict[int, str],
    column: int,
    *,
    compact: bool,
) -> list[Fragments]:
    """The players' blocks in ``order``, wrapped to ``column`` (``compact``: no blank line
    between them, each block a line shorter)."""
    info: list[Fragment] = []
    for i, s in enumerate(order):
        if i and not compact:
            info.append(("", ""))
        info.extend(player_block(game, s, viewer, unicode, reveal, who.get(s, ""), compact))
    return [[(style, piece)] for style, text in info for piece in wrap(text, column, "    ")]


# ------------------------------------------------------------------ whose decision, and what


def _choices(words: list[str]) -> str:
    if len(words) <= 2:
        return " or ".join(words)
    return ", ".join(words[:-1]) + ", or " + words[-1]


def prompt_line(game: Game, seat: int, tally: Any = None) -> str:
    """Who is to decide and what, for ``seat`` ("Order 1 of 2: march, attack, ...")."""
    if game.over:
        return outcome_line(game, seat)
    prompt = game.prompt()
    if prompt.seat == CHANCE:
        return "Shuffling..."
    if prompt.seat != seat:
        return f"Waiting for {game.seat_name(prompt.seat)}: {prompt.text}."
    legal = game.legal()
    verbs = {d[0] for d in legal}
    if not game.stack and prompt.kind in ("order", "action", "buy"):
        used = tally.used(game) if tally is not None else {"order": 0, "action": 0, "buy": 0}
        if prompt.kind == "order":
            words = []
            if verbs & {"march", "swap"}:
                words.append("march")
            if "attack" in verbs:
                words.append("attack")
            if "deploy" in verbs:
                words.append("deploy")
            if "play" in verbs:
                words.append("play an Order card")
            words.append("end orders")
            n = used["order"]
            return f"Order {n + 1} of {n + game.this_turn.orders}: {_choices(words)}"
        if prompt.kind == "action":
            words = []
            if "play" in verbs:
                words.append("play an Action card")
            if "train" in verbs:
                words.append("train a unit")
            words.append("end actions")
            n = used["action"]
            return f"Action {n + 1} of {n + game.this_turn.actions}: {_choices(words)}"
        words = []
        if "treasure" in verbs:
            words.append("play treasures (`treasure all`)")
        if "buy" in verbs:
            words.append("buy a card")
        words.append("end the turn")
        n = used["buy"]
        buys = (
            f"Buy {n + 1} of {n + game.this_turn.buys}" if game.this_turn.buys else "No buys left"
        )
        return f"{buys}, {game.this_turn.gold} gold: {_choices(words)}"
    text = prompt.text[:1].upper() + prompt.text[1:]
    if prompt.kind == "topdeck" and game.setup.sealed:  # (by place in the hand: say which)
        hand = game.players[seat].hand
        text += ": " + ", ".join(f"`topdeck {i}` {game.cards[c]}" for i, c in enumerate(hand, 1))
    if ("done",) in legal:
        text += " (`done` to stop)"
    return f"{text} (Tab lists the choices)"


def status_line(game: Game, seat: int, status: str | None = None, tally: Any = None) -> str:
    """The line above the prompt: ``status`` (a table's own word: waiting, closed), or an
    attacked Sovereign in words and who is to decide what."""
    if status is not None:
        return status
    line = prompt_line(game, seat, tally)
    return line if game.over else sovereign_alerts(game, seat) + line


def outcome_line(game: Game, seat: int | None) -> str:
    """Who won, said to ``seat`` (None: to an onlooker, as in a replay)."""
    if game.winner is None:
        return "The game is over: a draw."
    winner = game.side_name(game.winner)
    losers = {game.side_name(side_of(game, s)) for s in game.rules.seating.seats} - {winner}
    loser = " and ".join(sorted(losers)) or "the other side"
    if seat is None:
        return f"The game is over: {winner} wins ({loser} has no Sovereign left)."
    if side_of(game, seat) == game.winner:
        return f"The game is over: you win ({loser} has no Sovereign left)."
    return f"The game is over: {winner} wins (you have no Sovereign left)."


# ------------------------------------------------------------------ the whole screen


def screen(
    game: Game,
    seat: int,
    *,
    unicode: bool = True,
    width: int = 100,
    who: dict[int, str] | None = None,
    reveal: bool = False,
    marks: Sequence[int] = (),
    status: str | None = None,
    tally: Any = None,
) -> Fragments:
    """The whole screen for ``seat`` (board at the bottom from that side), as fragments.

    ``who`` names the player at each seat ("you", "greedy bot"); ``reveal`` shows every hand
    (replays); ``status`` replaces the line saying who decides what."""
    who = who or {}
    board = board_lines(game, seat, unicode, marks)
    seats = list(game.rules.seating.seats)
    order = [s for s in seats if s != seat] + [seat]  # the viewer's own seat nearest the bottom
    board_width = max(_width(line) for line in board) + GAP  # the team board is wider
    side_by_side = width >= board_width + GAP + 40
    column = max(20, min(width - board_width - GAP, 76)) if side_by_side else width
    info_lines = _players(game, seat, order, unicode, reveal, who, column, compact=False)
    if side_by_side and len(info_lines) >= len(board):  # four seats: keep to the board's height
        info_lines = _players(game, seat, order, unicode, reveal, who, column, compact=True)
    lines: list[Fragments] = []
    if side_by_side:
        right: list[Fragments] = [[], *info_lines]  # beside the ranks, from the top rank down
        empty: Fragments = []
        for left, extra in zip_longest(board, right, fillvalue=empty):
            if not _width(extra):
                lines.append(left)
                continue
            filler = " " * (board_width - _width(left) + GAP)
            lines.append([*left, ("", filler), *extra])
    else:
        lines.extend(board)
        lines.append([])
        lines.extend(info_lines)
    lines.extend([("class:legend", p)] for p in wrap(legend(game, seat, unicode), width))
    lines.extend([("class:supply", p)] for p in wrap(supply_text(game, unicode), width))
    lines.extend([("", text)] for text in extra_lines(game, seat, unicode))
    lines.append([])
    line = status_line(game, seat, status, tally)
    status_lines = textwrap.wrap(line, width, subsequent_indent="  ", break_on_hyphens=False)
    lines.extend([("class:status", p)] for p in status_lines)
    return joined(lines)


# ------------------------------------------------------------------ what happened, in words

_MOVE = re.compile(r"\b([a-h][1-8])-([a-h][1-8])\b")


def news(lines: Sequence[str], seat: int | None, game: Game, unicode: bool = True) -> Fragments:
    """Log lines as the player reads them: repeats folded (``×3``), turns as headings, our
    own lines apart from the others'."""
    out: Fragments = []
    times = "×" if unicode else "x"
    mine = game.seat_name(seat) + ":" if seat is not None else None
    folded: list[list[Any]] = []
    for text in lines:
        if folded and folded[-1][0] == text:
            folded[-1][1] += 1
        else:
            folded.append([text, 1])
    for text, count in folded:
        if unicode:
            text = _MOVE.sub(r"\1–\2", text)
        if count > 1:
            text = f"{text} {times}{count}"
        if text.startswith("turn "):
            rule = "—" if unicode else "-"
            style, text = "class:news.turn", f"{rule}{rule} {text} {rule}{rule}"
        elif mine and text.startswith(mine):
            style = "class:news.mine"
        elif text.endswith(" wins") or text == "the game is drawn":
            style = "class:news.outcome"
        else:
            style = "class:news.other"
        if out:
            out.append(("", "\n"))
        out.append((style, text))
    return out
