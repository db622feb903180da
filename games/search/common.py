"""What both backends share: the text a game is found by, and the order of relevance."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Case, IntegerField, Value, When

from ..models import Game, GameAuthor, RuleSummary
from ..text import fold

# Best first: the exact title, titles starting with the query, then the text's relevance.
RELEVANCE = ("title_tier", "-text_rank", "title", "pk")
# Ranking reads every match's weighted search data (~0.17 ms a match on PostgreSQL at
# 100 000 games, bench/catalogue_bench.py): past this many matches, newest first.
RANK_LIMIT = 200


@dataclass(frozen=True)
class Document:
    """A game's text as the search indexes it, grouped by how much a match there weighs."""

    id: int
    title: str
    people: str  # authors and publisher
    record: str  # principle and pedagogical analysis (French, the ludothèque's)
    body: str  # rules and contents
    summaries: dict  # language code → summary text

    @property
    def search_title(self) -> str:
        return fold(self.title)


def documents(ids, *, using) -> list[Document]:
    """The search text of the games with these ids that exist."""
    people = defaultdict(list)
    credits = GameAuthor.objects.using(using).filter(game_id__in=ids)
    for game_id, name in credits.values_list("game_id", "person__name"):
        people[game_id].append(name)
    summaries = defaultdict(dict)
    written = RuleSummary.objects.using(using).filter(game_id__in=ids)
    for game_id, language, text in written.values_list("game_id", "language", "text"):
        summaries[game_id][language] = text
    games = Game.objects.using(using).filter(pk__in=ids).select_related("publisher")
    return [
        Document(
            id=game.pk,
            title=game.title,
            people=" ".join(people[game.pk] + ([game.publisher.name] if game.publisher else [])),
            record="\n".join(p for p in (game.principle, game.pedagogical_analysis) if p),
            body="\n".join(p for p in (game.rules, game.contents) if p),
            summaries=summaries[game.pk],
        )
        for game in games
    ]


def ranked(queryset, folded: str, *, matches: int):
    """``queryset`` (annotated with its ``text_rank``) best first; past ``RANK_LIMIT``
    matches, newest first.

    At 100 000 games a word found in nearly every record ("joueurs") took 2.6 s to rank on
    PostgreSQL (every match's weighted vector read from TOAST); by id the first page costs
    7-25 ms whatever the word."""
    if matches > RANK_LIMIT:
        return queryset.order_by("-pk")
    return queryset.annotate(
        title_tier=Case(
            When(search_title=folded, then=Value(0)),
            When(search_title__startswith=folded, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        )
    ).order_by(*RELEVANCE)
