"""The registry of game companions: game id -> Game.

Every game, built in or added later, registers here the same way.
"""
