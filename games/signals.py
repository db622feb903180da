"""Keep each game's search data and the catalogue's version current.

Every path that writes a record goes through these: the admin and its inlines, the API,
CSV import, and fixtures (raw saves, summaries after games). The games a transaction
changes are collected as it goes and, once it commits, reindexed together and the
catalogue's version bumped once (a new game with two credits and four summaries is one
reindex, not seven). ``generate_catalogue`` writes in bulk and indexes its batches itself.
"""

import threading
from contextlib import contextmanager

from django.db.models.signals import m2m_changed, post_delete, post_save, pre_save
from django.db.transaction import on_commit
from django.dispatch import receiver

from .markdown import render_markdown
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
from .search import index_games

_pending = threading.local()


def catalogue_changed(game_ids=()) -> None:
    """Note that the catalogue changed (and what these games are found by): on commit,
    or at once outside a transaction, they are reindexed and the version bumped."""
    if not hasattr(_pending, "ids"):
        _pending.ids, _pending.changed = set(), False
    _pending.ids.update(game_ids)
    _pending.changed = True
    # Registered on every change: a callback of a rolled-back savepoint is dropped, and
    # the first one left to run does the work for all.
    on_commit(_apply)


def _apply() -> None:
    if not getattr(_pending, "changed", False) or getattr(_pending, "deferred", 0):
        return
    ids, _pending.ids, _pending.changed = _pending.ids, set(), False
    ordered = sorted(ids)
    for start in range(0, len(ordered), DEFERRED_BATCH):
        index_games(ordered[start : start + DEFERRED_BATCH])
    CatalogueVersion.bump()


# Games reindexed together at the end of a deferred block, at most this many at a time.
DEFERRED_BATCH = 500


@contextmanager
def indexing_deferred():
    """Within the block, the games changed by every transaction are collected and, at
    its end, reindexed together and the version bumped once: a UNIMARC import commits a
    transaction per batch of records and would otherwise reindex after each."""
    _pending.deferred = getattr(_pending, "deferred", 0) + 1
    try:
        yield
    finally:
        _pending.deferred -= 1
        if not _pending.deferred:
            _apply()


@receiver(post_save, sender=Game)
@receiver(post_delete, sender=Game)
def game_changed(sender, instance, **kwargs):
    # Raw fixture saves skip Game.save(); the index is built from what is loaded by the
    # time the fixture's transaction commits, credits and summaries included.
    catalogue_changed([instance.pk])


@receiver(pre_save, sender=RuleSummary)
def summary_loaded(sender, instance, raw, **kwargs):
    # A fixture's raw save skips RuleSummary.save(), which renders the text.
    if raw:
        instance.html = render_markdown(instance.text)


@receiver(post_save, sender=GameAuthor)
@receiver(post_delete, sender=GameAuthor)
@receiver(post_save, sender=RuleSummary)
@receiver(post_delete, sender=RuleSummary)
def part_changed(sender, instance, **kwargs):
    catalogue_changed([instance.game_id])


@receiver(m2m_changed, sender=Game.authors.through)
@receiver(m2m_changed, sender=Game.languages.through)
def links_changed(sender, instance, action, model, pk_set, **kwargs):
    if not action.startswith("post_"):
        return
    ids = set()
    if sender is Game.authors.through:  # what a game is found by; languages are not
        ids = {instance.pk} if isinstance(instance, Game) else set(pk_set or ())
    catalogue_changed(ids)


@receiver(post_save, sender=Person)
@receiver(post_save, sender=Publisher)
def name_changed(sender, instance, raw, **kwargs):
    catalogue_changed([] if raw else instance.games.values_list("pk", flat=True))


@receiver(post_delete, sender=Person)
@receiver(post_delete, sender=Publisher)
@receiver(post_save, sender=EsarCategory)
@receiver(post_delete, sender=EsarCategory)
@receiver(post_save, sender=Language)
@receiver(post_delete, sender=Language)
def vocabulary_changed(sender, **kwargs):
    """Anything else a catalogue page shows: cached pages and ETags move on."""
    catalogue_changed()
