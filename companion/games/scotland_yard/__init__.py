"""Scotland Yard companion: Mister X's secret travel log, checked against the real board."""

from .rules import ScotlandYard

game = ScotlandYard()
