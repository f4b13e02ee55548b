"""The client's version: the dipswitch release it belongs to (and starts, when asked to fetch one)."""

__version__ = "0.1.0"
