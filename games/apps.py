from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Catalogue")

    def ready(self):
        from django.db.backends.signals import connection_created

        from . import signals  # noqa: F401

        connection_created.connect(set_up_typo_search)


def set_up_typo_search(sender, connection, **kwargs):
    """Typo-tolerant titles use pg_trgm's ``<<%`` operator, whose threshold is a setting;
    SQLite gets pg_trgm's similarity as a function of its own (``games.search.similarity``)."""
    if connection.vendor == "sqlite":
        from .search.similarity import word_similarity

        connection.connection.create_function(
            "strict_word_similarity", 2, word_similarity, deterministic=True
        )
    elif connection.vendor == "postgresql":
        from .search.postgresql import TYPO_THRESHOLD

        with connection.cursor() as cursor:
            cursor.execute("SET pg_trgm.strict_word_similarity_threshold = %s", [TYPO_THRESHOLD])
