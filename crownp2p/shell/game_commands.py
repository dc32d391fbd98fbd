"""Commands about whole games: ``cards``, ``selfplay`` and ``verify``."""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from ..core.setup import Setup, parse_supply
from ..core.standard import standard_rules
from .cli import CommandError


def resolve_setup(text: str, *, squire: bool = False, anointed: bool = False) -> Setup:
    rules = standard_rules()
    try:
        setup = parse_supply(text, rules.variable_cards, rules.cards.names())
    except ValueError as err:
        raise CommandError(str(err)) from None
    from dataclasses import replace

    return replace(setup, squire=squire, anointed=anointed)


def card_json(card) -> dict:
    return {
        "name": card.name,
        "cost": card.cost,
        "trains": card.trains,
        "train_count": card.train_count,
        "effects": [{"kind": e.kind, "text": e.text} for e in card.effects],
    }


def cards_command(args: argparse.Namespace) -> int:
    rules = standard_rules()
    cards = list(rules.cards)
    if args.name:
        try:
            cards = [rules.cards.get(args.name)]
        except ValueError as err:
            raise CommandError(str(err)) from None
    if args.json:
        print(json.dumps([card_json(c) for c in cards]))
        return 0
    for i, card in enumerate(cards):
        if i:
            print()
        print(describe_card(card))
    return 0


def describe_card(card) -> str:
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

    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) != 2:
        raise CommandError("--bots takes two bot names separated by a comma, like greedy,random")
    for name in bots:
        if name not in BOT_NAMES:
            raise CommandError(f"there is no bot called {name!r}: choose {' or '.join(BOT_NAMES)}")
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    setup = resolve_setup(args.supply, squire=args.squire, anointed=args.anointed)
    record_dir = Path(args.record) if args.record else None
    if record_dir is not None:
        try:
            record_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise CommandError(f"cannot make {record_dir}: {err.strerror}") from None
    rules = standard_rules()
    wins = [0, 0]
    for number in range(1, args.games + 1):
        seed = args.seed + number - 1
        result = play_game(
            rules, setup, bots, seed, max_turns=args.max_turns, record=record_dir is not None
        )
        if result.record is not None and record_dir is not None:
            result.record.save(record_dir / f"game-{number:04d}-seed-{seed}.jsonl")
        if result.winner is not None:
            wins[result.winner] += 1
        if args.json:
            print(json.dumps(result.to_json(number)), flush=True)
        else:
            outcome = (
                f"{bots[result.winner]} (seat {result.winner}) wins"
                if result.winner is not None
                else ("drawn" if result.finished else "unfinished at the turn cap")
            )
            print(
                f"game {number} seed {seed}: {outcome} after {result.turns} turns, "
                f"{result.decisions} decisions",
                flush=True,
            )
    if not args.json:
        print(
            f"seat 0 {bots[0]}: {wins[0]} wins; seat 1 {bots[1]}: {wins[1]} wins; "
            f"{args.games - sum(wins)} other"
        )
    return 0


def verify_command(args: argparse.Namespace) -> int:
    from ..core.record import Record, RecordError, verify

    try:
        record = Record.load(args.record)
    except RecordError as err:
        raise CommandError(str(err)) from None
    verdict = verify(standard_rules(), record)
    if verdict.ok:
        print("OK")
        return 0
    print(f"step {verdict.seq}: {verdict.reason}")
    sys.stdout.flush()
    return 1
