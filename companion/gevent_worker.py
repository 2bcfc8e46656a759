"""gunicorn's gevent worker with a budget of connections per client address (deploy/gunicorn.conf.py names it).

gunicorn bounds a worker's connections in all (worker_connections): a client that holds them all, half-open, leaves
every other table without one. Here one address holds at most COMPANION_CONNECTIONS_PER_ADDRESS; a connection past
that is closed as soon as it is accepted, before a byte of it is read.
"""

from __future__ import annotations

from gunicorn.workers import ggevent


class GeventWorker(ggevent.GeventWorker):
    def run(self) -> None:
        # Imported here, after gevent's patching: gunicorn's master loads this module, and slow_clients makes a lock as
        # it loads (one made before the patching blocks the whole worker when a greenlet waits for it).
        from companion.slow_clients import connection_budget

        self.connections = connection_budget(self.wsgi.config)  # the app is loaded by now, in this process
        super().run()

    def handle(self, listener, client, address) -> None:
        if not isinstance(address, tuple):  # a Unix socket's clients have no address of their own: a proxy's
            super().handle(listener, client, address)
            return
        if not self.connections.take(address[0]):
            client.close()
            return
        try:
            super().handle(listener, client, address)
        finally:
            self.connections.give_back(address[0])
