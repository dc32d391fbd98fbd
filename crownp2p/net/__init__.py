"""Peer-to-peer games over trio TCP (docs/protocol.md).

The services, in ``seating``: ``host_game``, ``join_game`` and ``resume_game``, each taking our
seat's decider (a bot, see ``deciders``; None for a person, whose decisions the shell offers to
the session) and returning the game's ``events.Outcome``. Underneath, one module per job:

* ``frames``, ``messages`` — the wire: length-prefixed msgpack frames and their schemas;
* ``crypto`` — join codes, SPAKE2, the Noise handshakes that seal links, commit-reveal;
* ``handshake`` — admitting a joiner (SPAKE2 over the join code) or a seated peer (Noise KK);
* ``throttle`` — the growing pause per address between join tries;
* ``link`` — one connection: a writer fed by a channel, keepalives, the idle timeout;
* ``lockstep`` — the game between peers as a state machine without I/O, on core's ``Play``;
* ``events`` — what the lockstep and the seating tell whoever follows the game;
* ``session`` — the links of one peer and the session that drives its Lockstep;
* ``journal`` — the record and session files, fsync'd before anything depends on them;
* ``discovery`` — a table's UDP beacon on the LAN, and the bounded list a listener keeps;
* ``proof`` — checking that a record's seeds came from its commit-reveal rounds;
* ``local`` — the same game in one process, for tests and benchmarks.
"""
