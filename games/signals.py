"""Keep each game's search data current when what it is built from changes.

Every path that writes a record goes through these: the admin and its inlines, the API,
CSV import (``Game.save`` then credits), and fixtures (raw saves, summaries after games).
``generate_catalogue`` writes in bulk and indexes its batches itself.
"""

from contextlib import contextmanager
from contextvars import ContextVar

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

# Inside ``indexing_deferred``: the games whose search data waits to be rebuilt.
_deferred: ContextVar[set | None] = ContextVar("deferred_indexing", default=None)
DEFERRED_BATCH = 500


@contextmanager
def indexing_deferred():
    """Within the block, saves collect the games to index instead of indexing each at
    once, and the catalogue version moves once at the end: the UNIMARC import indexed
    each game up to six times (record, each credit, languages), most of its time."""
    if _deferred.get() is not None:  # nested: the outer block indexes
        yield
        return
    pending: set = set()
    token = _deferred.set(pending)
    try:
        yield
    finally:
        _deferred.reset(token)
        ids = sorted(pending - {None})
        for start in range(0, len(ids), DEFERRED_BATCH):
            index_games(ids[start : start + DEFERRED_BATCH])
        if pending:
            CatalogueVersion.bump()


def _index(ids) -> None:
    pending = _deferred.get()
    if pending is None:
        index_games(ids)
    else:
        pending.update(ids)


@receiver(post_save, sender=Game)
def game_saved(sender, instance, **kwargs):
    # Raw fixture saves skip Game.save(); the index is built from what is loaded so far,
    # and again when the fixture's credits and summaries arrive.
    _index([instance.pk])


@receiver(post_delete, sender=Game)
def game_deleted(sender, instance, **kwargs):
    unindex_games([instance.pk])


@receiver(post_save, sender=GameAuthor)
@receiver(post_delete, sender=GameAuthor)
@receiver(post_save, sender=RuleSummary)
@receiver(post_delete, sender=RuleSummary)
def part_changed(sender, instance, **kwargs):
    _index([instance.game_id])


@receiver(m2m_changed, sender=Game.authors.through)
def authors_changed(sender, instance, action, **kwargs):
    if action in {"post_add", "post_remove", "post_clear"} and isinstance(instance, Game):
        _index([instance.pk])


@receiver(post_save, sender=Person)
@receiver(post_save, sender=Publisher)
def name_changed(sender, instance, raw, created=False, **kwargs):
    if raw or created:  # a new name is on no game yet
        return
    _index(instance.games.values_list("pk", flat=True))


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
        pending = _deferred.get()
        if pending is None:
            CatalogueVersion.bump()
        else:
            pending.add(None)  # the version moves at the end
