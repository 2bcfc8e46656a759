"""Main-thread work of loading a table's pages and of a pushed update, from Chromium's own trace (issue 13).

    .venv/bin/python -m bench.pageload http://127.0.0.1:8000 [--runs 9]

Against a running server: opens a Scotland Yard table with every seat taken, then loads Mister X's and a
detective's seat page and the display in fresh browser contexts (real seat cookies), and makes the display
receive pushed frames (a detective's phone connecting and leaving changes who is online). Times are CPU
time of the renderer's main thread (a trace event's thread duration), so that other load on the machine
counts less than in wall time. "tbt4" is Lighthouse's mobile arithmetic: each task's time x4 (its CPU
slowdown), less 50 ms, summed over the tasks of the load.
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

CHROMIUM = "/usr/bin/chromium"
TASKS = ("RunTask", "ThreadControllerImpl::RunTask")
CATEGORIES = ["devtools.timeline", "toplevel", "disabled-by-default-devtools.timeline"]


def post(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


def seated_table(base: str) -> tuple[str, dict[str, str]]:
    code = post(base, "/api/tables", {"game": "scotland-yard", "options": {"detectives": 3}})["code"]
    tokens = {}
    for seat in ("mister-x", "detective-1", "detective-2", "detective-3"):
        tokens[seat] = post(base, f"/api/tables/{code}/seats", {"seat": seat, "name": seat})["token"]
    return code, tokens


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
    context = browser.new_context(viewport={"width": 412, "height": 823})
    if cookie:
        context.add_cookies([{"name": f"seat_{code}", "value": cookie, "url": base}])
    page = context.new_page()

    def work():
        page.goto(base + path, wait_until="load")
        page.wait_for_timeout(1500)  # the socket opens and whatever it is sent at once arrives

    result = summary(traced(browser, page, work, trace, base))
    context.close()
    return result


def pushed_frames(browser, base: str, code: str, token: str, count: int, trace: Path) -> tuple[list[float], float]:
    """While a phone comes and goes: CPU time of each frame's handler, and of every main-thread task per frame."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/t/{code}/display", wait_until="load")
    page.wait_for_timeout(1000)
    url = base.replace("http", "ws", 1) + f"/t/{code}/ws?view=seat&since=-1"

    def work():
        for _ in range(count // 2):
            phone = websocket.create_connection(url, header=[f"Authorization: Bearer {token}"], timeout=10)
            time.sleep(0.4)
            phone.close()
            time.sleep(0.4)

    events = traced(browser, page, work, trace, base)
    context.close()
    handlers = [
        cpu_ms(e)
        for e in events
        if e["name"] == "FunctionCall" and e["args"]["data"].get("functionName") == "socket.onmessage"
    ]
    # Style, layout and paint come in later tasks (and htmx settles 20 ms after a swap): count them all.
    return handlers, sum(cpu_ms(e) for e in events if e["name"] in TASKS) / max(len(handlers), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    code, tokens = seated_table(args.base)
    pages = {
        "seat page, Mister X": (tokens["mister-x"], f"/t/{code}/seat"),
        "seat page, detective": (tokens["detective-1"], f"/t/{code}/seat"),
        "display": (None, f"/t/{code}/display"),
    }
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        trace = Path(scratch) / "trace.json"
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        for name, (cookie, path) in pages.items():
            runs = defaultdict(list)
            for _ in range(args.runs):
                for key, value in load(browser, args.base, code, cookie, path, trace).items():
                    runs[key].append(value)
            medians = "  ".join(f"{key} {statistics.median(values):6.1f}" for key, values in runs.items())
            print(f"{name:22} {medians}  (ms, median)")
        handlers, per_frame = pushed_frames(browser, args.base, code, tokens["detective-1"], 2 * args.runs, trace)
        print(
            f"{'pushed frame, display':22} handler {statistics.median(handlers):.1f} ms (median of {len(handlers)}),"
            f" all main-thread tasks {per_frame:.1f} ms per frame"
        )
        browser.close()


if __name__ == "__main__":
    main()
