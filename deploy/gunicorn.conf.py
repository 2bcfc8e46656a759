"""gunicorn settings for Table Companion: `gunicorn -c deploy/gunicorn.conf.py 'companion.web.app:create_app()'`.

Every open page holds a WebSocket for as long as it is open: with gevent each
costs two greenlets (a few KB), not two OS threads. The one thing that must not
run on gevent's loop, SQLite's fsync on commit, runs in gevent's thread pool
(companion.store.sqlite.off_the_loop), so group commit keeps filling. Measured
against gthread with the same generator: figures in bench/RESULTS.md.
COMPANION_WORKER_CLASS=gthread switches back.
"""

import os

bind = os.environ.get("COMPANION_BIND", "127.0.0.1:8000")
worker_class = os.environ.get("COMPANION_WORKER_CLASS", "gevent")
if worker_class == "gevent":  # with a budget of connections per client address (gthread has none)
    worker_class = "companion.gevent_worker.GeventWorker"
# Processes, not threads, use the cores: one per core. With several, set
# COMPANION_DATABASE_URL and COMPANION_REDIS_URL (SQLite and the in-process hub serve one process).
workers = int(os.environ.get("COMPANION_WORKERS", "1"))
worker_connections = int(os.environ.get("COMPANION_WORKER_CONNECTIONS", "10000"))  # gevent: sockets per worker
threads = int(os.environ.get("COMPANION_THREADS", "2500"))  # gthread: one per open socket, plus its reader thread
# A page's socket is open for the whole game; only a worker that stops answering is restarted.
timeout = 60
graceful_timeout = 10
# gevent: also the most a request's line and headers may take to arrive (the first request's too); its body is
# bounded by COMPANION_REQUEST_TIMEOUT (companion/slow_clients.py).
keepalive = 5
# No preload_app: the Redis listener thread is started by create_app and must start in each worker.
accesslog = os.environ.get("COMPANION_ACCESS_LOG") or None
errorlog = "-"
# Behind nginx on the same host: trust its X-Forwarded-* headers.
forwarded_allow_ips = os.environ.get("COMPANION_FORWARDED_ALLOW_IPS", "127.0.0.1")
# gunicorn's control socket has one default path per user: two instances on one host would share it.
control_socket_disable = True


def post_worker_init(worker):
    """Keep the garbage collector's pauses short (companion/collector.py), let pages go on SIGTERM, and start the
    render workers (companion/web/render_worker.py) before the first pages open."""
    from companion.collector import keep_full_collections_short

    keep_full_collections_short()
    let_pages_go_on_stop(worker)
    render_workers = getattr(worker.wsgi, "extensions", {}).get("companion.render_workers")
    if render_workers is not None:
        render_workers.start()


def let_pages_go_on_stop(worker):
    """On SIGTERM, close the open pages' sockets at once (they reconnect, to another process if there is one):
    otherwise they keep the worker for its whole graceful_timeout, and a restart takes 10 s instead of 1."""
    import signal

    hub = getattr(worker.wsgi, "extensions", {}).get("companion.hub")
    if hub is None:
        return

    def stop(signum, frame):
        worker.handle_exit(signum, frame)  # stop accepting; gunicorn waits for the open connections to end
        hub.let_go()

    signal.signal(signal.SIGTERM, stop)
