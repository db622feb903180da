"""Send the reminders owed today (meant for cron, daily): "due soon", "overdue", "overdue
again", each once per loan and kind, by e-mail in the household's language. Households
without an e-mail address are listed to call. ``--dry-run`` says what would go, sends
nothing and claims nothing."""

from django.core.management.base import BaseCommand

from games.lending.notices import send_reminders


class Command(BaseCommand):
    help = "Send due-soon and overdue reminders by e-mail, each once per loan; list whom to call."

    def add_arguments(self, parser):
        parser.add_argument(
            "--dry-run", action="store_true", help="Say what would be sent; send nothing."
        )

    def handle(self, *args, dry_run=False, **options):
        report = send_reminders(dry_run=dry_run)
        verb = "would send" if dry_run else "sent"
        for household, kind, loans, email in report.sent:
            self.stdout.write(
                f"{verb} {kind} to {email} ({household.card_number}): " + _codes(loans)
            )
        for household, kind, loans in report.to_call:
            contact = " ".join(household.contact.split()) or "no contact"
            self.stdout.write(
                f"to call: {household.name} ({household.card_number}, {contact}), {kind}: "
                + _codes(loans)
            )
        for household, kind, _loans, error in report.failed:
            self.stderr.write(
                f"failed {kind} to {household.email} ({household.card_number}): {error}"
            )
        self.stdout.write(
            f"{len(report.sent)} e-mail(s) {verb}, {len(report.to_call)} household(s) to call, "
            f"{len(report.failed)} failed."
        )
        if report.failed:
            raise SystemExit(1)


def _codes(loans) -> str:
    return ", ".join(f"{loan.copy.barcode} due {loan.due_on:%Y-%m-%d}" for loan in loans)
