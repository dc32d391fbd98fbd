"""Commands about whole games: ``cards``, ``selfplay`` and ``verify``."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

from ..core.cards import CardType
from ..core.game import CHANCE
from ..core.record import Record
from ..core.rules import Rules
from ..core.setup import Setup
from ..packs import PackError
from .cli import CommandError
from .context import catalog
from .parser import InputError, find_name, sentence
from .turns import players_turn, turn_limit


def resolve_setup(
    text: str,
    *,
    squire: bool = False,
    anointed: bool = False,
    variant: str = "standard",
    options: list[str] | None = None,
) -> Setup:
    """The setup the command-line words describe, with the installed packs' cards."""
    try:
        # --squire and --anointed are short for the base game's setup options.
        flags = [name for name, given in (("squire", squire), ("anointed", anointed)) if given]
        return catalog().setup(text, variant=variant, options=[*(options or []), *flags])
    except PackError as err:
        raise CommandError(str(err)) from None


def setup_from_args(args: argparse.Namespace) -> Setup:
    return resolve_setup(
        args.supply,
        squire=args.squire,
        anointed=args.anointed,
        variant=getattr(args, "variant", None) or "standard",
        options=getattr(args, "option", None),
    )


def card_json(card: CardType) -> dict[str, Any]:
    return {
        "name": card.name,
        "cost": card.cost,
        "trains": card.trains,
        "train_count": card.train_count,
        "effects": [{"kind": e.kind, "text": e.text} for e in card.effects],
    }


def cards_command(args: argparse.Namespace) -> int:
    rules = catalog().rules()
    cards = list(rules.cards)
    if args.name:
        try:
            cards = [rules.cards.get(find_name(args.name, rules.cards.names(), "card"))]
        except InputError as err:
            raise CommandError(sentence(err)) from None
    if args.json:
        print(json.dumps([card_json(c) for c in cards]))
        return 0
    for i, card in enumerate(cards):
        if i:
            print()
        print(describe_card(card))
    return 0


def describe_card(card: CardType) -> str:
    trains = ""
    if card.trains:
        trains = (
            f"  trains {card.train_count} × {card.trains}"
            if card.train_count > 1
            else (f"  trains a {card.trains}")
        )
    lines = [f"{card.name} (cost {card.cost}){trains}"]
    for number, effect in enumerate(card.effects, 1):
        head = f"  {number}. {effect.kind.capitalize()}: "
        body = textwrap.wrap(effect.text, 92 - len(head)) or [""]
        lines.append(head + body[0])
        lines.extend(" " * len(head) + rest for rest in body[1:])
    return "\n".join(lines)


def selfplay_command(args: argparse.Namespace) -> int:
    from ..bots import BOT_NAMES
    from ..bots.selfplay import play_game

    setup = setup_from_args(args)
    rules = catalog().rules(setup.variant)
    seats = len(rules.seating.sides)
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) != seats:
        raise CommandError(
            f"--bots takes {seats} bot names separated by commas, one per seat, like "
            + ",".join(["greedy", "random"] * (seats // 2))
        )
    for name in bots:
        if name not in BOT_NAMES:
            raise CommandError(f"there is no bot called {name!r}: choose {', '.join(BOT_NAMES)}")
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    record_dir = Path(args.record) if args.record else None
    if record_dir is not None:
        try:
            record_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CommandError(f"cannot make {record_dir}: {err.strerror}") from None
    wins = [0] * (max(rules.seating.sides) + 1)

    def side_label(side: int) -> str:
        players = [bot for s, bot in enumerate(bots) if rules.seating.sides[s] == side]
        return f"{rules.seating.colour(rules.seating.sides.index(side))} ({', '.join(players)})"

    for number in range(1, args.games + 1):
        seed = args.seed + number - 1
        result = play_game(
            rules,
            setup,
            bots,
            seed,
            max_turns=turn_limit(rules, args.max_turns),
            record=record_dir is not None,
            think=args.think,
            workers=args.workers,
        )
        if result.record is not None and record_dir is not None:
            result.record.save(record_dir / f"game-{number:04d}-seed-{seed}.jsonl")
        if result.winner is not None:
            wins[result.winner] += 1
        if args.json:
            print(json.dumps(result.to_json(number)), flush=True)
        else:
            when = f"in turn {players_turn(rules, result.turns)}"
            outcome = (
                f"{side_label(result.winner)} wins {when}"
                if result.winner is not None
                else (
                    f"drawn {when}"
                    if result.finished
                    else f"unfinished after {args.max_turns} turns each (--max-turns)"
                )
            )
            print(f"game {number} seed {seed}: {outcome}, {result.decisions} decisions", flush=True)
    if not args.json:
        tally = "; ".join(f"{side_label(side)}: {n} wins" for side, n in enumerate(wins))
        print(f"{tally}; {args.games - sum(wins)} other")
    return 0


def verify_command(args: argparse.Namespace) -> int:
    from ..core.record import verify
    from ..net.proof import unproven_round, unproven_seating

    record, rules = _record_and_rules(args.record)
    # The seeds first: a forged seed with hashes made to match would replay without a fault.
    wrong = unproven_seating(record, rules.seating.sides) or unproven_round(
        record, list(rules.seating.seats)
    )
    if wrong is None:
        verdict = verify(rules, record)
        if verdict.ok and record.audit is not None:
            from ..net.sealed_cards import audit_fault

            wrong = audit_fault(rules, record)
        if verdict.ok and wrong is None:
            print(verified(record))
            return 0
        wrong = wrong or f"step {verdict.seq}: {verdict.reason}"
    print(wrong)
    sys.stdout.flush()
    return 1


def state_command(args: argparse.Namespace) -> int:
    """The explicit state (docs/state.md) after a step of a record. A sealed game's record
    holds only what its seat knew: every card it could not see is null."""
    from ..core.record import ReplayError

    record, rules = _record_and_rules(args.record)
    steps = len(record.steps)
    step = steps if args.step is None else args.step
    if not 0 <= step <= steps:
        raise CommandError(f"--step is a step of the record: 0 to {steps}")
    try:
        game = next(g for i, (g, _) in enumerate(record.replay(rules, step)) if i == step)
    except ReplayError as err:
        raise CommandError(f"the record does not replay, at step {err.seq}: {err.reason}") from None
    state = game.to_json()
    for player, zones in zip(game.players, state["players"], strict=True):
        for zone in zones:  # (an unknown card holds a stand-in name: not what it is)
            zones[zone] = [
                None if c in game.unknown else game.cards[c] for c in getattr(player, zone)
            ]
    print(json.dumps(state) if args.json else json.dumps(state, indent=2))
    return 0


def _record_and_rules(path: str) -> tuple[Record, Rules]:
    """A record file and the rules of its variant, or one sentence why not."""
    from ..core.record import RecordError

    try:
        record = Record.load(path)
    except RecordError as err:
        raise CommandError(str(err)) from None
    try:
        return record, catalog().rules(record.variant)
    except PackError as err:
        raise CommandError(f"this record needs {err}") from None


def verified(record: Record) -> str:
    """What `verify` checked of a record that holds."""
    seeds = sum(1 for step in record.steps if step.seat == CHANCE)
    how = (
        "each proven by its commit-reveal round, and the seats by the seating draw"
        if record.game_id is not None
        else "drawn in one process (no commit-reveal rounds to check)"
    )
    audit = (
        ""
        if record.audit is None
        else " Its audit holds: the whole game replayed with every sealed card named from the"
        " seats' revealed secrets."
    )
    return (
        f"OK: {len(record.steps)} steps replayed, the start's and every step's state hash"
        f" matched; {seeds} chance seeds, {how}.{audit}"
    )


def plugins_command(args: argparse.Namespace) -> int:
    loaded = catalog()
    if args.json:
        print(json.dumps([p.to_json() for p in loaded.packs]))
        return 0
    for pack in loaded.packs:
        print(f"{pack.name} {pack.version}")
        kinds: dict[str, list[str]] = {}
        for item in pack.provides:
            kind, _, name = item.partition(":")
            kinds.setdefault(kind, []).append(name)
        for kind, names in kinds.items():
            label = {"supply": "Supplies"}.get(kind, kind.capitalize() + "s")
            print(f"  {label}: {', '.join(names)}")
    return 0
