"""Downforce: the auction, the bets and the sums of the car racing game."""

from .rules import Downforce

game = Downforce()

__all__ = ["Downforce", "game"]
