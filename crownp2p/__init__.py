"""crownp2p: For the Crown, peer to peer."""

__version__ = "0.1.0"
