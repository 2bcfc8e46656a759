"""Full collections walk only what is newer than the last one, and a page that closed is freed at the next thaw.

Each test runs in an interpreter of its own: freezing is process-wide and would change every other test's collector.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

PAGES = """
import gc, weakref
from companion.collector import FullCollections

class Page:  # an open page: its objects refer to each other
    pass

clock = [0.0]
gc.callbacks.append(FullCollections(thaw_every=60, clock=lambda: clock[0]))
page = Page()
page.itself = page
closed = weakref.ref(page)
"""


def run(script: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PAGES + textwrap.dedent(script)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_what_survives_a_full_collection_is_frozen_and_not_walked_again():
    assert run("gc.collect(); print(gc.get_freeze_count() > 0, len(gc.get_objects(2)))") == "True 0"


def test_a_page_that_closed_while_frozen_is_freed_after_the_thaw():
    printed = run(
        """
        gc.collect()
        del page
        gc.collect()
        print(closed() is None)
        clock[0] = 61
        gc.collect()  # it thaws at its end
        gc.collect()  # and this one walks everything again
        print(closed() is None, gc.get_freeze_count() > 0)
        """
    )
    assert printed.split() == ["False", "True", "True"]
