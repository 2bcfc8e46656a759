"""A finished game as a play for BG Stats: its createPlay link, and the same play as a plain JSON download.

The format is BG Stats' own ("Push plays to BG Stats from other apps or websites",
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).
A play is built from the game's outcome, which is public once the game is over,
and the names at the table: never from the state.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from urllib.parse import quote

from companion.games.base import Game

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Table Companion"


def play(
    game: Game,
    names: dict[str, str],
    outcome: dict,
    played: tuple[float | None, float | None],
    say: Callable[[dict], str],
    source_url: str,
) -> dict:
    """The play of a finished game: names in seat order, `played` the times of the log's first and last event."""
    began, ended = played
    scores = outcome.get("scores")
    return {
        "sourceName": SOURCE_NAME,
        "sourceUrl": source_url,
        # BG Stats reads the date as the players' local time: the server's clock stands beside the table.
        "playDate": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(began or ended or 0)),
        "durationMin": round(((ended or 0) - (began or 0)) / 60),
        "game": _game(game, has_points=scores is not None),
        "players": [_player(seat, name, outcome, say) for seat, name in names.items()],
        "comments": say(outcome["summary"]),
    }


def _game(game: Game, has_points: bool) -> dict:
    # The name as published (the catalogue's msgid, not the page's language): BG Stats matches games by it.
    found = {"name": game.name, "sourceGameId": game.id, "highestWins": True, "noPoints": not has_points}
    if game.bgg_id:
        found["bggId"] = game.bgg_id
    return found


def _player(seat: str, name: str, outcome: dict, say: Callable[[dict], str]) -> dict:
    player = {
        "name": name,
        "sourcePlayerId": seat,
        "winner": seat in outcome["winners"],
        "startPlayer": seat == outcome.get("start_player"),
    }
    if outcome.get("scores") is not None:
        player["score"] = outcome["scores"][seat]
    if seat in outcome.get("roles", {}):
        player["role"] = say(outcome["roles"][seat])
    return player


def create_play_url(found: dict) -> str:
    """The link that opens BG Stats' import dialog with the play (the app's web address works without it)."""
    return CREATE_PLAY + quote(json.dumps(found, ensure_ascii=False, separators=(",", ":")), safe="")
