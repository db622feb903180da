"""End the holds whose set-aside copy was not collected in time (meant for cron, daily):
each copy passes to the next household waiting, or back to the shelf. The desk's page does
the same when it opens; the command keeps the public record right between opening days."""

from django.core.management.base import BaseCommand

from games.lending.circulation import expire_holds


class Command(BaseCommand):
    help = "End holds not collected in time; their copies pass on to the next in the queue."

    def handle(self, *args, **options):
        ended = expire_holds()
        self.stdout.write(f"{ended} hold(s) ended.")
