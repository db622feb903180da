"""Keep each game's search data current when what it is built from changes.

Every path that writes a record goes through these: the admin and its inlines, the API,
CSV import (``Game.save`` then credits), and fixtures (raw saves, summaries after games).
``generate_catalogue`` writes in bulk and indexes its batches itself.
"""

from django.db.models.signals import m2m_changed, post_delete, post_save
from django.dispatch import receiver

from .models import (
    CatalogueVersion,
    EsarCategory,
    Game,
    GameAuthor,
    Language,
    Person,
    Publisher,
    RuleSummary,
)
from .search import index_games, unindex_games


@receiver(post_save, sender=Game)
def game_saved(sender, instance, **kwargs):
    # Raw fixture saves skip Game.save(); the index is built from what is loaded so far,
    # and again when the fixture's credits and summaries arrive.
    index_games([instance.pk])


@receiver(post_delete, sender=Game)
def game_deleted(sender, instance, **kwargs):
    unindex_games([instance.pk])


@receiver(post_save, sender=GameAuthor)
@receiver(post_delete, sender=GameAuthor)
@receiver(post_save, sender=RuleSummary)
@receiver(post_delete, sender=RuleSummary)
def part_changed(sender, instance, **kwargs):
    index_games([instance.game_id])


@receiver(m2m_changed, sender=Game.authors.through)
def authors_changed(sender, instance, action, **kwargs):
    if action in {"post_add", "post_remove", "post_clear"} and isinstance(instance, Game):
        index_games([instance.pk])


@receiver(post_save, sender=Person)
@receiver(post_save, sender=Publisher)
def name_changed(sender, instance, raw, **kwargs):
    if raw:
        return
    index_games(instance.games.values_list("pk", flat=True))


@receiver(post_save, sender=Game)
@receiver(post_delete, sender=Game)
@receiver(post_save, sender=GameAuthor)
@receiver(post_delete, sender=GameAuthor)
@receiver(post_save, sender=RuleSummary)
@receiver(post_delete, sender=RuleSummary)
@receiver(post_save, sender=Person)
@receiver(post_save, sender=Publisher)
@receiver(post_save, sender=EsarCategory)
@receiver(post_save, sender=Language)
@receiver(m2m_changed, sender=Game.languages.through)
@receiver(m2m_changed, sender=Game.authors.through)
def catalogue_changed(sender, **kwargs):
    """Anything a catalogue page shows changed: cached pages and ETags move on."""
    if kwargs.get("action", "post_").startswith("post_"):
        CatalogueVersion.bump()
