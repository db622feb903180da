"""Serve the whole site for development from the ASGI server (uvicorn): the pages, the
API, the static files and the matches' event streams on one origin, reloading when the
code changes. `make run` starts it. In production gunicorn serves the pages and uvicorn
the streams, behind a proxy (README, "Deploying")."""

from django.conf import settings
from django.core.management.base import BaseCommand

# The folders whose Python files restart the server when they change (not .venv).
WATCHED = ("catalogue", "games", "paletti")


class Command(BaseCommand):
    help = "Serve the site and the matches' event streams from uvicorn (development)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--no-reload", action="store_true", help="Do not restart when the code changes."
        )

    def handle(self, *args, host, port, no_reload, **options):
        import uvicorn

        root = settings.BASE_DIR
        self.stdout.write(f"The site and its event streams: http://{host}:{port}/")
        uvicorn.run(
            "catalogue.asgi:application",
            host=host,
            port=port,
            reload=not no_reload,
            reload_dirs=[str(root / folder) for folder in WATCHED],
            log_level="info",
        )
