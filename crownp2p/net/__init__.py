"""Peer-to-peer tables over trio TCP (docs/protocol.md).

The services, in ``table``: ``host_table``, ``join_table`` and ``resume_table``, each taking a
*decider* (``session.Decider``: a bot from ``deciders``, or later the interactive shell) and
returning the game's ``lockstep.Outcome``. Underneath, one module per job:

* ``frames``, ``messages`` — the wire: length-prefixed msgpack frames and their schemas;
* ``crypto`` — join codes, HMAC proofs, pair keys, commit-reveal;
* ``handshake`` — admitting a joiner (join code) or a seated peer (pair key);
* ``link`` — one connection: a writer fed by a channel, keepalives, the idle timeout;
* ``lockstep`` — the game between peers as a state machine without I/O;
* ``session`` — the links of one peer and the loop that drives its Lockstep;
* ``journal`` — the record and session files, fsync'd before anything depends on them;
* ``local`` — the same game in one process, for tests and benchmarks.
"""
