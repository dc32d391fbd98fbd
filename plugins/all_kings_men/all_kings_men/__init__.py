"""All the King's Men: a crownp2p variant pack."""

__version__ = "0.1.0"
