"""The render worker (companion/web/render_worker.py): the same frames as the server's, and never waited for."""

from __future__ import annotations

import itertools
import os
import random
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion import live
from companion.config import render_workers as render_workers_of_the_box
from companion.live import Hub
from companion.tables import token_hash
from companion.web import render_worker as render_workers
from companion.web.frames import PageView, live_context, render_frames, render_key, renderer
from companion.web.render_worker import render_settings
from tests.http import call, open_table, socket
from tests.pages import LONG_NAMES, MOST_SEATS, PlayedTable

LANGUAGES = ("en", "cs", "nl")
BASE_URL = "http://127.0.0.1:8000/"


@pytest.fixture
def worker(app):
    """The app's render worker, started and answering."""
    workers = app.extensions["companion.render_workers"]
    assert workers is not None, "a box with two cores has render workers"
    (worker,) = workers.workers
    worker.start()
    service = app.extensions["companion"]
    code, _host = service.create("secret-notes", {"players": 2})
    wait_until(lambda: rendered_by_worker(app, code, None) is not None, "the worker answers")
    return worker


def wait_until(condition, what: str, within: float = 20.0) -> None:
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"waited {within} s for: {what}"
        time.sleep(0.05)


@dataclass(eq=False)
class OpenPage:
    """An open page in the hub (the display by default), woken by every change, at the address it came by."""

    seat: str | None = None
    seat_token_hash: str | None = None
    is_host: bool = False
    host_page: bool = False
    as_json: bool = False
    locale: str = "en"
    base_url: str = BASE_URL

    @property
    def render_key(self) -> tuple:
        return render_key(
            self.seat, self.seat_token_hash, self.is_host, self.locale, self.as_json, self.host_page, self.base_url
        )

    def wake(self) -> None:
        pass

    def is_behind(self) -> bool:
        return True

    def sending_since(self) -> None:
        return None  # never sending: the hub's watchdog leaves it alone

    def cut_off(self) -> None:
        pass

    def remind(self, now: float) -> None:
        pass


def pushed(app, code: str, page: OpenPage) -> str | None:
    """The frame a push sends the page."""
    return render_frames(app, code, [page])[page.render_key]


def frame_data(app, code: str, seat: str | None, locale: str = "en", host_page: bool = False) -> tuple:
    """What the server sends the worker of a page's frame."""
    render = renderer(app, locale, BASE_URL)
    game, context = live_context(code, seat, host_page, False, host_page, render)
    return locale, BASE_URL, game.id, context


def rendered_by_worker(app, code: str, seat: str | None, locale: str = "en", host_page: bool = False) -> str | None:
    return app.extensions["companion.render_workers"].render([frame_data(app, code, seat, locale, host_page)], code)[0]


def rendered_afresh(app, code: str, page: OpenPage) -> str | None:
    """The frame a push sends the page, with every part rendered now: none taken from the parts kept."""
    if page.as_json or page.seat_token_hash == FREED:
        return render_frames(app, code, [page])[page.render_key]
    render = renderer(app, page.locale, page.base_url)
    return render.render(*live_context(code, page.seat, page.is_host, False, page.host_page, render), memo=False)


def rendered_here(app, code: str, seat: str | None, locale: str = "en", host_page: bool = False) -> str:
    render = renderer(app, locale, BASE_URL)
    return render.render(*live_context(code, seat, host_page, False, host_page, render))


GAMES = {
    "scotland-yard": {},
    "downforce": {},
    "mice-and-mystics": {},
    "eat-your-tourist": {},
    "secret-notes": {"players": 3},
}


@pytest.mark.parametrize("game", GAMES)
def test_the_worker_renders_every_page_of_every_game_as_the_server_does(app, service, worker, game):
    code, _host = service.create(game, GAMES[game])
    table = service.cached(code)
    specs = service.seat_specs(table)
    for spec in specs:
        service.claim(code, spec.id, f"Šárka Přemyslovna {spec.id}")
    pages = [(spec.id, False) for spec in specs] + [(None, False), (None, True)]
    for locale in ("en", "cs", "nl"):
        for seat, host_page in pages:
            ours = rendered_by_worker(app, code, seat, locale, host_page)
            assert ours is not None, "the worker answered"
            assert ours == rendered_here(app, code, seat, locale, host_page), (seat, locale, host_page)


def open_page(hub, code: str, base_url: str = BASE_URL) -> OpenPage:
    page = OpenPage(base_url=base_url)
    hub.watch(code, page)
    return page


def test_one_change_sends_the_worker_every_page_of_the_table_in_one_message(app, service, worker, monkeypatch):
    code, _host = service.create("secret-notes", {"players": 2})
    hub = app.extensions["companion.hub"]
    pages = [open_page(hub, code, f"http://127.0.0.{number}:8000/") for number in (1, 2, 3)]
    messages = []
    render = worker.render
    monkeypatch.setattr(worker, "render", lambda frames: messages.append(len(frames)) or render(frames))
    hub.deliver(code)
    frames = [hub.frame(code, page) for page in reversed(pages)]
    assert messages == [3], "the first page to look rendered them all, in one message"
    for page, frame in zip(reversed(pages), frames, strict=True):
        assert f'class="url">{page.base_url}t/{code}<' in frame, "each page its own"


def test_a_page_whose_frame_fails_meets_the_error_and_the_others_get_theirs(app, service, worker):
    """A page whose links cannot be built (its address has a port past 65535; werkzeug gives no client such an
    address, so this stands for any frame that fails) meets the error in its own thread, and only there, even when
    another page rendered the table's frames."""
    code, _host = service.create("secret-notes", {"players": 2})
    hub = app.extensions["companion.hub"]
    fine, broken = open_page(hub, code), open_page(hub, code, "http://127.0.0.1:99999/")
    hub.deliver(code)
    assert hub.frame(code, fine) == rendered_here(app, code, None)
    with pytest.raises(ValueError, match="Port out of range"):
        hub.frame(code, broken)
    hub.deliver(code)
    with pytest.raises(ValueError, match="Port out of range"):
        hub.frame(code, broken)
    assert hub.frame(code, fine) == rendered_here(app, code, None), "the broken page rendered it"


def test_when_a_change_s_frames_fail_together_each_page_renders_its_own():
    def render(code: str, pages: list) -> dict:
        rendered.append(len(pages))
        if len(pages) > 1:
            raise RuntimeError("the frames of several pages could not be rendered together")
        return {page.render_key: f"{code} at {page.base_url}" for page in pages}

    rendered = []
    hub = Hub(render=render)
    first, second = OpenPage(base_url="http://127.0.0.1:8000/"), OpenPage(base_url="http://localhost:8000/")
    for page in (first, second):
        hub.watch("TABLE", page)
    hub.deliver("TABLE")
    assert hub.frame("TABLE", first) == "TABLE at http://127.0.0.1:8000/", "the page that tried renders its own"
    assert hub.frame("TABLE", second) == "TABLE at http://localhost:8000/"
    assert rendered == [2, 1, 1]


def phone_and_display_woken(monkeypatch, kept: float) -> tuple[Hub, OpenPage, OpenPage, list[int]]:
    """A table's hub with a phone and the display open, both woken by a change; frames kept `kept` seconds at most,
    and how many pages each rendering was for."""
    monkeypatch.setattr(live, "FRAMES_KEPT", kept)
    monkeypatch.setattr(live, "WATCHDOG_INTERVAL", 0.05)
    rendered = []

    def render(code, pages):
        rendered.append(len(pages))
        return {page.render_key: f"{code}, rendering {len(rendered)}" for page in pages}

    hub, phone, display = Hub(render=render), OpenPage(seat="1"), OpenPage()
    for page in (phone, display):
        hub.watch("TABLE", page)
    hub.deliver("TABLE")
    return hub, phone, display, rendered


def test_a_table_s_frames_are_kept_until_every_page_they_were_rendered_for_took_its_own(monkeypatch):
    """Every page a change woke, and the answer to the form that made it, take the frames rendered once; once every
    woken page has taken its own they are let go (a server's memory is not every table's last frames: at 800 tables
    keeping them a few seconds more cost 150 MB), and a page that asks then renders anew."""
    # Let go because all were taken, not because of their age.
    hub, phone, display, rendered = phone_and_display_woken(monkeypatch, kept=3600.0)
    assert hub.frame("TABLE", phone) == "TABLE, rendering 1"
    time.sleep(0.3)  # the watchdog looks a few times while the display has not asked yet
    assert hub.frame("TABLE", phone) == "TABLE, rendering 1", "the answer to the phone's form"
    assert hub.frame("TABLE", display) == "TABLE, rendering 1"
    wait_until(lambda: hub.frame("TABLE", phone) == "TABLE, rendering 2", "the frames are let go", within=5)
    assert rendered == [2, 2]


def test_a_table_s_frames_are_let_go_a_while_on_when_a_page_they_were_rendered_for_never_asks(monkeypatch):
    """A phone that went away without closing its socket never asks for its frame: the frames go FRAMES_KEPT after
    their rendering began all the same."""
    hub, _gone, display, rendered = phone_and_display_woken(monkeypatch, kept=0.5)
    assert hub.frame("TABLE", display) == "TABLE, rendering 1"
    wait_until(lambda: hub.frame("TABLE", display) == "TABLE, rendering 2", "the frames are let go", within=5)
    assert rendered == [2, 2]


def test_a_table_s_frames_still_rendering_are_kept_for_the_pages_that_ask_meanwhile(monkeypatch):
    """On a busy server a rendering may outlast FRAMES_KEPT: the pages that ask meanwhile wait for it, and do not
    render the same frames again (which would make the server busier still)."""
    monkeypatch.setattr(live, "FRAMES_KEPT", 0.1)
    monkeypatch.setattr(live, "WATCHDOG_INTERVAL", 0.02)
    rendered, release = [], threading.Event()

    def render(code, pages):
        rendered.append(len(pages))
        release.wait(5)
        return {page.render_key: f"{code}, rendering {len(rendered)}" for page in pages}

    hub, first, second = Hub(render=render), OpenPage(), OpenPage()
    for page in (first, second):
        hub.watch("TABLE", page)
    hub.deliver("TABLE")
    got = {}

    def ask(page: OpenPage, name: str) -> None:
        got[name] = hub.frame("TABLE", page)

    asking = [threading.Thread(target=ask, args=(first, "first"))]
    asking[0].start()
    wait_until(lambda: rendered, "the rendering has begun")
    time.sleep(0.3)  # past FRAMES_KEPT, a few looks of the watchdog: without the check, the frames went meanwhile
    # From here on nothing is let go, so that the second page finds them whenever its thread gets to ask (a loaded
    # box can only hide a regression from this test, never fail it).
    monkeypatch.setattr(live, "FRAMES_KEPT", 3600.0)
    asking.append(threading.Thread(target=ask, args=(second, "second")))
    asking[1].start()
    time.sleep(0.1)
    release.set()
    for thread in asking:
        thread.join(5)
    assert rendered == [1] and got == {"first": "TABLE, rendering 1", "second": "TABLE, rendering 1"}


# The most seats each game deals, and names as long as a seat takes.
STEPS = 40
# The token hash of a phone whose seat was given to another.
FREED = "0" * 64
# The address a test client's pages come by: a tap's answer is rendered for it.
ANSWERS_URL = "http://localhost/"


@pytest.mark.parametrize("game", MOST_SEATS)
def test_through_a_random_game_each_page_gets_the_frame_it_would_get_alone(app, worker, game):
    """Whichever page renders a change's frames for the others, each gets exactly its own, the same as if none of its
    parts had been kept from before (rendered_parts.py): every seat in HTML (en,
    cs, nl in turn, one of them the host's phone) and in JSON, the display, the host page and a phone whose seat was
    given to another, asked in a random order after every random tap. And the answer to each tap (the tapping
    phone's or host page's, in its own language) is the frame of the page it was tapped on, and no other's."""
    table = PlayedTable(app, app.test_client(), game, seed=7, options=MOST_SEATS[game], names=LONG_NAMES)
    phones = [(seat, token) for seat, token in table.tokens.items() if seat != "host"]
    seats = [(seat, token_hash(token)) for seat, token in phones]
    # The page each screen taps on, as the hub sees it: the host page first, then the phones in the seats' order.
    tapped_on = {id(table.screens[0]): PageView(None, None, True, "nl", ANSWERS_URL, False, host_page=True)}
    table.screens[0].refresh("nl")
    for number, (screen, (seat, token)) in enumerate(zip(table.screens[1:], phones, strict=True)):
        screen.refresh(LANGUAGES[number % 3])
        tapped_on[id(screen)] = PageView(seat, token, False, LANGUAGES[number % 3], ANSWERS_URL, False)
    pages = [OpenPage(), OpenPage(is_host=True, host_page=True, locale="cs"), OpenPage(seats[0][0], FREED)]
    for number, (seat, hashed) in enumerate(seats):
        pages += [
            OpenPage(seat, hashed, number == 1, locale=LANGUAGES[number % 3]),
            OpenPage(seat, hashed, as_json=True),
        ]
    hub = app.extensions["companion.hub"]
    for page in pages:
        hub.watch(table.code, page)
    order = random.Random(game)
    taps = answers = 0
    for _step in range(STEPS):
        tapped = table.step()
        taps += tapped is not None  # none once the game is over: Mister X may be caught early
        if tapped is not None and (answer := tapped[1].get_data(as_text=True)).lstrip().startswith('<div id="live"'):
            page = tapped_on[id(tapped[0])]
            assert answer.startswith(render_frames(app, table.code, [page])[page.render_key]), page
            answers += 1
        for page in order.sample(pages, len(pages)):
            assert hub.frame(table.code, page) == rendered_afresh(app, table.code, page), page
    assert any('data-seq="0"' not in hub.frame(table.code, page) for page in pages[:2]), "the game moved on"
    assert answers > taps // 2, "most taps were answered with their page's live part"


def test_a_stuck_worker_holds_up_one_round_of_frames_once_and_is_replaced(app, service, worker, monkeypatch):
    monkeypatch.setattr(render_workers, "PATIENCE", 0.5)
    monkeypatch.setattr(render_workers, "RESTART_AFTER", 0.2)
    code, _host = service.create("secret-notes", {"players": 2})
    waited_out = []  # the worker each frame that waited out PATIENCE was waiting for (counted, never timed)
    wait = render_workers.Answer.wait

    def patient(answer, seconds: float) -> bool:
        answered = wait(answer, seconds)
        if not answered:
            waited_out.append(worker.pid)
        return answered

    monkeypatch.setattr(render_workers.Answer, "wait", patient)
    stuck = worker.pid
    os.kill(stuck, signal.SIGSTOP)
    frames = [pushed(app, code, OpenPage()) for _ in range(100)]
    assert frames == [rendered_here(app, code, None)] * 100
    assert waited_out.count(stuck) == 1, "one frame waited for the stuck worker, the others went on without it"
    wait_until(lambda: is_ended(stuck), "the stuck worker is ended")
    # A new worker's first frames (its templates not compiled yet) may take a loaded box longer than PATIENCE: a worker
    # that slow would be ended and started again without end.
    monkeypatch.setattr(render_workers, "PATIENCE", 30.0)
    wait_until(lambda: rendered_by_worker(app, code, None) is not None, "a new worker answers")
    assert worker.pid != stuck


def test_a_worker_whose_answer_a_busy_server_reads_late_is_kept(app, service, worker, monkeypatch):
    """A server too busy to read the worker's answer within PATIENCE finds it waiting on the socket: the worker
    answered, it is not stuck, and it is kept (ending it left a busy server every frame to render itself)."""
    code, _host = service.create("secret-notes", {"players": 2})
    read = render_workers.receive

    def late(stream):
        time.sleep(render_workers.PATIENCE * 1.5)  # the server's reader gets its turn late
        return read(stream)

    monkeypatch.setattr(render_workers, "receive", late)
    kept = worker.pid
    assert rendered_by_worker(app, code, None) is not None  # read by the reader's last prompt read
    assert rendered_by_worker(app, code, None) is not None  # read late, after the first wait gave up
    assert worker.pid == kept


def test_a_worker_that_works_and_never_answers_is_ended(app, service, worker, monkeypatch):
    """A render that never ends uses CPU without an answer: past LONGEST_SILENCE no page waits on it."""
    monkeypatch.setattr(render_workers, "PATIENCE", 0.2)
    monkeypatch.setattr(render_workers, "LONGEST_SILENCE", 1.0)
    monkeypatch.setattr(render_workers, "RESTART_AFTER", 0.2)
    ticks = itertools.count()
    monkeypatch.setattr(render_workers.RenderWorker, "_worker_cpu", lambda self: next(ticks))  # always working
    code, _host = service.create("secret-notes", {"players": 2})
    spinning = worker.pid
    os.kill(spinning, signal.SIGSTOP)  # it answers nothing, though its CPU time (as told above) goes on
    assert rendered_by_worker(app, code, None) is None  # given back to the server to render
    wait_until(lambda: is_ended(spinning), "the worker is ended")


def test_while_the_worker_is_dead_the_server_renders_and_then_starts_a_new_one(app, service, worker, monkeypatch):
    monkeypatch.setattr(render_workers, "RESTART_AFTER", 0.2)
    code, _host = service.create("secret-notes", {"players": 2})
    dead = worker.pid
    os.kill(dead, signal.SIGKILL)
    expected = rendered_here(app, code, None)
    assert [pushed(app, code, OpenPage()) for _ in range(50)] == [expected] * 50
    wait_until(lambda: rendered_by_worker(app, code, None) is not None, "a new worker answers")
    assert worker.pid != dead


def test_a_frame_the_worker_cannot_render_is_rendered_by_the_server(app, service, worker):
    code, _host = service.create("secret-notes", {"players": 2})
    locale, base_url, _game, context = frame_data(app, code, None)
    sent = [(locale, base_url, "no-such-game", context), frame_data(app, code, "player-1")]
    assert worker.render(sent) == [None, rendered_here(app, code, "player-1")], "the others of its message are rendered"
    assert rendered_by_worker(app, code, None) == rendered_here(app, code, None), "and it goes on rendering"


def test_each_table_s_frames_go_to_one_worker_of_several_and_the_tables_to_all_of_them(app, service):
    """A table's parts are kept in the worker that rendered its last push: its next push goes there too. Each worker
    renders its own tables' frames, and a worker gone leaves its tables' frames to the server, not to another."""
    workers = render_workers.RenderWorkers(render_settings(app), 2)
    codes = [service.create("secret-notes", {"players": 2})[0] for _ in range(12)]
    workers.start()
    try:
        wait_until(lambda: all(workers.render([frame_data(app, code, None)], code)[0] for code in codes), "both answer")
        ended = workers.workers[0]
        ended.stop()
        wait_until(lambda: ended.pid is None, "the first worker has ended")
        by_server = [code for code in codes if workers.render([frame_data(app, code, None)], code)[0] is None]
        assert 0 < len(by_server) < len(codes), "the tables are spread over both workers"
        for _ in range(3):  # however often asked: a table's worker does not change
            assert [c for c in codes if workers.render([frame_data(app, c, None)], c)[0] is None] == by_server
    finally:
        workers.stop()


@pytest.mark.parametrize(
    ("cores", "processes", "workers"), [(1, "1", 0), (2, "1", 2), (4, "1", 4), (4, "2", 2), (2, "4", 1)]
)
def test_a_box_has_a_render_worker_per_core_shared_by_the_server_s_processes(monkeypatch, cores, processes, workers):
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    monkeypatch.setenv("COMPANION_WORKERS", processes)
    assert render_workers_of_the_box() == workers


def test_a_busy_server_leaves_a_longer_backlog_to_the_worker(app, service):
    """A frame the server renders itself takes from every table's actions: when the server is busy, the worker may
    fall further behind before the server takes the frames back. (The server's load is the test's: never the box's.)"""
    load = 0.0
    worker = render_workers.RenderWorker(render_settings(app), load=lambda: load)
    code, _host = service.create("secret-notes", {"players": 2})
    frame = frame_data(app, code, None)
    worker.start()
    try:
        wait_until(lambda: worker.render([frame])[0] is not None, "the worker answers")
        os.kill(worker.pid, signal.SIGSTOP)  # nothing it is sent is answered: the backlog only grows

        def frames_taken(at_most: int) -> int:
            taken = 0
            while taken < at_most and worker._send([frame]) is not None:
                taken += 1
            return taken

        when_idle = frames_taken(1000)
        load = render_workers.BUSY + 0.01
        more_when_busy = frames_taken(when_idle)  # not all the way: the frames would fill the stopped worker's socket
        os.kill(worker.pid, signal.SIGCONT)
    finally:
        worker.stop()
    assert 0 < when_idle < 1000
    assert more_when_busy == when_idle


def test_a_server_that_reads_the_worker_s_answers_late_goes_on_sending_it_frames(app, service, monkeypatch):
    """Answers waiting unread on the socket are frames the worker is done with: a server too busy to read them in
    time must not count them as the worker's backlog and render the next frames itself (which made it busier)."""
    worker = render_workers.RenderWorker(render_settings(app), load=lambda: 0.0)
    code, _host = service.create("secret-notes", {"players": 2})
    frame = frame_data(app, code, None)
    worker.start()
    read, reading = render_workers.receive, threading.Event()

    def late(stream):
        reading.wait()  # the server's reader gets no turn until the test lets it
        return read(stream)

    try:
        wait_until(lambda: worker.render([frame])[0] is not None, "the worker answers")
        monkeypatch.setattr(render_workers, "receive", late)
        assert worker.render([frame])[0] is not None  # read by the reader's last prompt read; it then waits
        os.kill(worker.pid, signal.SIGSTOP)
        stopped = 0  # frames the server leaves to a worker that answers nothing
        while stopped < 1000 and worker._send([frame]) is not None:
            stopped += 1
        os.kill(worker.pid, signal.SIGCONT)
        wait_until(worker._answer_unread, "the worker's answers wait unread")
        more = 0
        while more < stopped + 5 and worker._send([frame]) is not None:
            more += 1
    finally:
        reading.set()
        worker.stop()
    assert 0 < stopped < 1000
    assert more == stopped + 5


def test_the_server_is_busy_when_it_used_most_of_a_core_since_its_last_look():
    clock, cpu = [100.0], [5.0]
    share = render_workers.CpuShare(clock=lambda: clock[0], cpu=lambda: cpu[0])
    clock[0] += render_workers.BUSY_SAMPLE / 2
    cpu[0] += render_workers.BUSY_SAMPLE / 2
    assert share() == 0.0, "not looked at again before BUSY_SAMPLE"
    clock[0] += render_workers.BUSY_SAMPLE
    cpu[0] += render_workers.BUSY_SAMPLE / 4
    assert share() == pytest.approx(0.5)
    clock[0] += render_workers.BUSY_SAMPLE
    cpu[0] += render_workers.BUSY_SAMPLE * 0.9
    assert share() == pytest.approx(0.9) and share() > render_workers.BUSY


def is_ended(pid: int) -> bool:
    """Gone, or a zombie. The process may be reaped between any two looks at /proc, so a vanished file is "gone"."""
    try:
        return "Z" in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True


def children_of(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from any of its threads)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def test_a_server_whose_render_worker_is_killed_goes_on_pushing_and_starts_another(server):
    workers = children_of(server.process.pid)
    assert len(workers) == 1, "the server runs one render worker"
    table = open_table(server.url, seats=("player-1", "player-2"))
    page = socket(server.url, table["code"], table["player-1"], query="view=seat&since=-1")
    try:
        assert 'id="live"' in page.recv()
        killed = workers.pop()
        os.kill(killed, signal.SIGKILL)
        # Until the kernel has ended it, it is still a child: a first roll would count as one with a worker.
        wait_until(lambda: killed not in children_of(server.process.pid), "the worker's end", within=10)
        pushed_with_no_worker = 0

        def roll_and_see_a_new_worker() -> bool:
            nonlocal pushed_with_no_worker
            no_worker = not children_of(server.process.pid)
            status, answer = call(server.url, "POST", f"/api/tables/{table['code']}/actions", ROLL, table["host"])
            assert status == 200, answer
            assert f'data-seq="{answer["seq"]}"' in newest_frame(page, answer["seq"])
            pushed_with_no_worker += no_worker
            return len(children_of(server.process.pid)) == 1

        # The next start comes with the first frame after RESTART_AFTER (on a crowded box, maybe the first frame).
        wait_until(roll_and_see_a_new_worker, "a new render worker", within=30)
        assert pushed_with_no_worker >= 1, "frames went out while no worker ran"
    finally:
        page.close()


ROLL = {"type": "roll"}


def newest_frame(page, seq: int) -> str:
    """The page's frames until the one of `seq`."""
    while f'data-seq="{seq}"' not in (frame := page.recv()):
        pass
    return frame
