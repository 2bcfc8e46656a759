"""The service worker controlling a page, waited for within a bound: an unbounded wait in the page hung the suite."""

from __future__ import annotations

# A function, not an expression: the page's CSP forbids the eval that Playwright's polling of an expression needs.
WORKER_STATE = """async () => {
  const within = (promise, ms) => Promise.race([promise, new Promise(resolve => setTimeout(resolve, ms))]);
  const registration = await within(navigator.serviceWorker.ready, 30000);
  if (registration && !navigator.serviceWorker.controller) {
    const change = new Promise(resolve => navigator.serviceWorker.addEventListener("controllerchange", resolve));
    await within(change, 5000);
  }
  const state = registration ? registration.active.state : "not ready within 30 s";
  return [state, Boolean(navigator.serviceWorker.controller)];
}"""


def controlled(page) -> str:
    """The state of the service worker once it controls the page (the page is loaded again if need be)."""
    state, controls = page.evaluate(WORKER_STATE)
    if not controls:
        # Loaded while the worker was activating, after it claimed the pages open then (seen once in the suite on a
        # loaded box: the page waited for a controller for good). Its next load is the worker's.
        page.reload()
        state, controls = page.evaluate(WORKER_STATE)
    assert controls, f"no service worker controls {page.url} ({state})"
    return state
