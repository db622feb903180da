"""A copy or a loan changed: the public record shows copies on the shelf and when one is
back, so cached catalogue pages must move on (what a game is found by does not change:
nothing to reindex)."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from games.signals import catalogue_changed

from .copies import Copy
from .loans import Loan


@receiver(post_save, sender=Copy)
@receiver(post_delete, sender=Copy)
@receiver(post_save, sender=Loan)  # a renewal moves the date the record says it is back
@receiver(post_delete, sender=Loan)
def copy_changed(sender, **kwargs):
    catalogue_changed()
