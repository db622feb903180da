"""Lending's models, kept in their own modules and registered with the app here. Their
tables keep the names they had when copies lived in the catalogue's app (``games_copy``…):
moving the models between apps moved no row."""

from .checklist import ContentItem, CopyCheck, CopyCheckLine  # noqa: F401
from .copies import Copy, CopyStatus  # noqa: F401
from .holds import Hold, HoldOutcome  # noqa: F401
from .households import Household, HouseholdLanguage, Member, MemberType  # noqa: F401
from .ledger import LedgerEntry, LedgerKind  # noqa: F401
from .loans import Loan, MissingPiece  # noqa: F401
from .reminders import Reminder, ReminderKind  # noqa: F401
