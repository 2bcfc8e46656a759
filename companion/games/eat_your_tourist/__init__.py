"""Sežer svého turistu! (Eat your tourist!), the advanced rules from Časostroj."""

from .rules import EatYourTourist

game = EatYourTourist()

__all__ = ["EatYourTourist", "game"]
