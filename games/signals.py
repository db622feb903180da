"""Keep each game's search text current when what it is built from changes."""

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from .models import Game, GameAuthor, Person, Publisher, RuleSummary


@receiver(post_save, sender=Game)
def game_saved(sender, instance, raw, **kwargs):
    # Fixtures save raw, skipping Game.save(); build the text from what is loaded so far.
    if raw:
        instance.refresh_search_document()


@receiver(post_save, sender=GameAuthor)
@receiver(post_delete, sender=GameAuthor)
@receiver(post_save, sender=RuleSummary)
@receiver(post_delete, sender=RuleSummary)
def part_changed(sender, instance, **kwargs):
    game = Game.objects.filter(pk=instance.game_id).first()
    if game is not None:
        game.refresh_search_document()


@receiver(m2m_changed, sender=Game.authors.through)
def authors_changed(sender, instance, action, **kwargs):
    if action in {"post_add", "post_remove", "post_clear"} and isinstance(instance, Game):
        instance.refresh_search_document()


@receiver(post_save, sender=Person)
@receiver(post_save, sender=Publisher)
def name_changed(sender, instance, raw, **kwargs):
    if raw:
        return
    for game in instance.games.all():
        game.refresh_search_document()
