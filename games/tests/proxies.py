"""A TCP path to the database that a test or a bench can freeze."""

import contextlib
import socket
import threading
import time


class FreezableProxy:
    """A TCP path to the database that can freeze: connections stay open, bytes are
    taken in and held, nothing is answered (a stopped server behind a live kernel)."""

    def __init__(self, host, port):
        self.target = (host, int(port))
        self.frozen = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets = []
        self.server_ports = []  # this end's port of each connection to the database
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target)
            self.sockets += [client, server]
            self.server_ports.append(server.getsockname()[1])
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    def _pipe(self, source, sink):
        try:
            while data := source.recv(65536):
                while self.frozen.is_set():
                    time.sleep(0.02)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self):
        self.frozen.clear()
        self.listener.close()
        for end in self.sockets:
            # Shut down first: a socket closed while another thread waits in recv() on it
            # stays connected until that wait ends.
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                end.close()


def wait_for_sessions_to_end(connection, ports, seconds=10):
    """PostgreSQL ends a session a moment after its client left: a test database can be
    dropped only once the sessions through a proxy (`ports`: its `server_ports`) ended."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE client_port = ANY(%s)", [list(ports)]
            )
            if not cursor.fetchone()[0]:
                return
            time.sleep(0.05)
