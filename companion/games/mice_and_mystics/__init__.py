"""Mice and Mystics: the story track, cheese wheel, surges and initiative track beside the cardboard."""

from .rules import MiceAndMystics

game = MiceAndMystics()
