"""Main-thread work of loading a table's pages and of a pushed update, from Chromium's own trace (issue 13).

    .venv/bin/python -m bench.pageload http://127.0.0.1:8000 [--runs 9]
    .venv/bin/python -m bench.pageload http://127.0.0.1:8000 --real-pushes 20   # issue 39

Against a running server: opens a Scotland Yard table with every seat taken, then loads Mister X's and a
detective's seat page and the display in fresh browser contexts (real seat cookies), and makes the display
receive pushed frames (a detective's phone connecting and leaving changes who is online). Times are CPU
time of the renderer's main thread (a trace event's thread duration), so that other load on the machine
counts less than in wall time. "tbt4" is Lighthouse's mobile arithmetic: each task's time x4 (its CPU
slowdown), less 50 ms, summed over the tasks of the load.

--real-pushes N instead measures a real game's pushes, a phone's work per push: a Mice and Mystics table of four
players, four mice and their minions, the chapter begun; player 1's seat page (a phone's screen) and the display
(the host's TV) each take N pushed frames while player 2 puts cheese on its mouse and takes it off again.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

import websocket
from playwright.sync_api import sync_playwright

from bench.long_game import SETUP

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 412, "height": 823}
TV = {"width": 1280, "height": 800}
TASKS = ("RunTask", "ThreadControllerImpl::RunTask")
CATEGORIES = ["devtools.timeline", "toplevel", "disabled-by-default-devtools.timeline"]


# A Mice and Mystics chapter begun with four players (bench/long_game.py's two, and two more mice), and what player 2
# does while the pages take their pushes: a cheese count changed, the whole seat page pushed again (issue 39).
MICE_SETUP = (
    *SETUP[:2],
    ("player-3", {"type": "add_mouse", "hero": "filch", "life": 5}),
    ("player-4", {"type": "add_mouse", "hero": "maginos", "life": 4}),
    *SETUP[2:],
)
CHEESE_ON_AND_OFF = (
    ("player-2", {"type": "mouse_cheese", "mouse": "nez", "count": 1}),
    ("player-2", {"type": "mouse_cheese", "mouse": "nez", "count": -1}),
)


def post(base: str, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def seated_table(base: str) -> tuple[str, dict[str, str]]:
    code = post(base, "/api/tables", {"game": "scotland-yard", "options": {"detectives": 3}})["code"]
    tokens = {}
    for seat in ("mister-x", "detective-1", "detective-2", "detective-3"):
        tokens[seat] = post(base, f"/api/tables/{code}/seats", {"seat": seat, "name": seat})["token"]
    return code, tokens


def mice_table(base: str) -> tuple[str, str, dict[str, str]]:
    """A Mice and Mystics table of four, its chapter begun: its code, the host's token and the seats' tokens."""
    created = post(base, "/api/tables", {"game": "mice-and-mystics", "options": {"players": 4}})
    code, tokens = created["code"], {}
    for number in range(1, 5):
        seat = f"player-{number}"
        tokens[seat] = post(base, f"/api/tables/{code}/seats", {"seat": seat, "name": seat})["token"]
    for seat, action in MICE_SETUP:
        post(base, f"/api/tables/{code}/actions", action, tokens[seat])
    return code, created["host_token"], tokens


def main_thread(trace: Path, base: str) -> list[dict]:
    """The events of the main thread of the renderer that parsed our page (Chromium runs pages of its own too)."""
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    parsed = {
        e["pid"]
        for e in events
        if e.get("name") == "ParseHTML" and e["args"].get("beginData", {}).get("url", "").startswith(base)
    }
    shown = {
        frame["processId"]
        for e in events
        if e.get("name") == "TracingStartedInBrowser"
        for frame in e["args"]["data"].get("frames", [])
        if frame.get("url", "").startswith(base)
    }
    ours = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e["args"]["name"] == "CrRendererMain" and e["pid"] in parsed | shown
    }
    return [e for e in events if (e["pid"], e["tid"]) in ours and e.get("ph") == "X"]


def cpu_ms(event: dict) -> float:
    return event.get("tdur", event["dur"]) / 1000


def summary(events: list[dict]) -> dict[str, float]:
    tasks = [cpu_ms(e) for e in events if e["name"] in TASKS]
    frames = [
        cpu_ms(e)
        for e in events
        if e["name"] == "FunctionCall" and e["args"]["data"].get("functionName") == "socket.onmessage"
    ]
    return {
        "longest": max(tasks, default=0),
        "tbt4": sum(max(0.0, 4 * t - 50) for t in tasks),
        "layout": sum(cpu_ms(e) for e in events if e["name"] == "Layout"),
        "style": sum(cpu_ms(e) for e in events if e["name"] == "UpdateLayoutTree"),
        "frames": sum(frames),
    }


def traced(browser, page, work, path: Path, base: str) -> list[dict]:
    browser.start_tracing(page=page, path=str(path), categories=CATEGORIES)
    work()
    browser.stop_tracing()
    return main_thread(path, base)


def load(browser, base: str, code: str, cookie: str | None, path: str, trace: Path) -> dict[str, float]:
    context = browser.new_context(viewport=PHONE)
    if cookie:
        context.add_cookies([{"name": f"seat_{code}", "value": cookie, "url": base}])
    page = context.new_page()

    def work():
        page.goto(base + path, wait_until="load")
        page.wait_for_timeout(1500)  # the socket opens and whatever it is sent at once arrives

    result = summary(traced(browser, page, work, trace, base))
    context.close()
    return result


def pushes(browser, base: str, path: str, cookie: dict | None, viewport: dict, work, count: int, trace: Path):
    """While `work` makes the server push `count` frames to the page at `path`: CPU time of each message's handler
    (a frame's, or now and then the pong to the page's ping), and of every main-thread task per frame."""
    context = browser.new_context(viewport=viewport)
    if cookie:
        context.add_cookies([{**cookie, "url": base}])
    page = context.new_page()
    page.goto(base + path, wait_until="load")
    page.wait_for_timeout(1000)
    events = traced(browser, page, work, trace, base)
    context.close()
    handlers = [
        cpu_ms(e)
        for e in events
        if e["name"] == "FunctionCall" and e["args"]["data"].get("functionName") == "socket.onmessage"
    ]
    # Style, layout and paint come in later tasks (and htmx settles 20 ms after a swap): count them all.
    return handlers, sum(cpu_ms(e) for e in events if e["name"] in TASKS) / count


def pushed_frames(browser, base: str, code: str, token: str, count: int, trace: Path) -> tuple[list[float], float]:
    """While a phone comes and goes: the display's work per pushed frame."""
    url = base.replace("http", "ws", 1) + f"/t/{code}/ws?view=seat&since=-1"

    def work():
        for _ in range(count // 2):
            phone = websocket.create_connection(url, header=[f"Authorization: Bearer {token}"], timeout=10)
            time.sleep(0.4)
            phone.close()
            time.sleep(0.4)

    return pushes(browser, base, f"/t/{code}/display", None, TV, work, count // 2 * 2, trace)


def real_pushes(browser, base: str, count: int, trace: Path) -> None:
    """A Mice and Mystics seat page's and the display's work per pushed frame while another seat acts (issue 39)."""
    code, host_token, tokens = mice_table(base)
    pages = {
        "seat page, player 1": ("seat", {"name": f"seat_{code}", "value": tokens["player-1"]}, PHONE),
        "display": ("display", {"name": f"host_{code}", "value": host_token}, TV),
    }
    for name, (view, cookie, viewport) in pages.items():
        print(pushed_while_acting(browser, base, (code, tokens), name, view, cookie, viewport, count, trace))


def pushed_while_acting(browser, base, table, name, view, cookie, viewport, count, trace) -> str:
    """A page's work per pushed frame while player 2 acts, and the pushed frames' bytes (as a second socket of the
    same page receives them)."""
    code, tokens = table
    url = base.replace("http", "ws", 1) + f"/t/{code}/ws?view={view}&since=-1"
    twin = websocket.create_connection(url, cookie=f"{cookie['name']}={cookie['value']}", timeout=10)
    twin.recv()  # the frame a page is sent when it opens
    sizes = []

    def work():
        for number in range(count):
            seat, action = CHEESE_ON_AND_OFF[number % len(CHEESE_ON_AND_OFF)]
            post(base, f"/api/tables/{code}/actions", action, tokens[seat])
            sizes.append(len(twin.recv().encode()))
            time.sleep(0.4)

    line = pushes_line(name, *pushes(browser, base, f"/t/{code}/{view}", cookie, viewport, work, count, trace))
    twin.close()
    return f"{line}, pushed frames of {statistics.median(sizes):,.0f} bytes"


def pushes_line(name: str, handlers: list[float], per_frame: float) -> str:
    handler = f"handler {statistics.median(handlers):.1f} ms (median of {len(handlers)} messages)"
    return f"{'pushed frame, ' + name:34} {handler}, all main-thread tasks {per_frame:.1f} ms per frame"


def scotland_yard_pages(browser, base: str, runs: int, trace: Path) -> None:
    """Each page's load (medians of `runs`), then the display's pushed frames while a phone comes and goes."""
    code, tokens = seated_table(base)
    pages = {
        "seat page, Mister X": (tokens["mister-x"], f"/t/{code}/seat"),
        "seat page, detective": (tokens["detective-1"], f"/t/{code}/seat"),
        "display": (None, f"/t/{code}/display"),
    }
    for name, (cookie, path) in pages.items():
        loads = defaultdict(list)
        for _ in range(runs):
            for key, value in load(browser, base, code, cookie, path, trace).items():
                loads[key].append(value)
        medians = "  ".join(f"{key} {statistics.median(values):6.1f}" for key, values in loads.items())
        print(f"{name:22} {medians}  (ms, median)")
    print(pushes_line("display", *pushed_frames(browser, base, code, tokens["detective-1"], 2 * runs, trace)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--real-pushes", type=int, default=0, help="only a Mice and Mystics table's pushes, this many")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        trace = Path(scratch) / "trace.json"
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        if args.real_pushes:
            real_pushes(browser, args.base, args.real_pushes, trace)
        else:
            scotland_yard_pages(browser, args.base, args.runs, trace)
        browser.close()


if __name__ == "__main__":
    main()
