"""What both backends share: the text a game is found by, and the order of relevance."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import (
    Case,
    F,
    FilteredRelation,
    FloatField,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from ..models import Game, GameAuthor, RuleSummary, SearchWeight
from ..text import fold, word_key, word_weights

# Best first: the exact title, titles starting with the query, then the text's relevance.
RELEVANCE = ("title_tier", "-text_rank", "sort_title", "pk")
# Up to this many matches are ranked whole (each match's weights read by its id); beyond,
# the pages list the games the query's word weighs most in first, read from the weights'
# index in order (``best_first``), then the others newest first.
MATCH_LIMIT = 1000


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

    def weights(self) -> dict[str, float]:
        """The words that weigh most in the game (``games.text.word_weights``)."""
        return word_weights(
            [
                ("title", self.title),
                ("people", self.people),
                ("record", self.record),
                ("body", self.body),
                *(("summary", text) for text in self.summaries.values()),
            ]
        )


def store_weights(found: list[Document], ids, *, using) -> None:
    """Replace the weights of the games with these ids by those of their documents."""
    SearchWeight.objects.using(using).filter(game_id__in=ids).delete()
    SearchWeight.objects.using(using).bulk_create(
        [
            SearchWeight(game_id=doc.id, key=key, weight=weight)
            for doc in found
            for key, weight in doc.weights().items()
        ],
        batch_size=5000,
    )


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


def keys(terms) -> list[str]:
    """The keys the words of a query are weighed under."""
    return list(dict.fromkeys(word_key(term) for term in terms))


def weight_of(terms):
    """How much the query's words weigh together in a game (0 where none weighs much)."""
    total = (
        SearchWeight.objects.filter(game=OuterRef("pk"), key__in=keys(terms))
        .order_by()
        .values("game")
        .annotate(total=Sum("weight"))
        .values("total")
    )
    return Coalesce(Subquery(total, output_field=FloatField()), Value(0.0))


def joined_weight_of(terms):
    """``weight_of`` as a join: the query's words' rows of the weights, read from their
    index by word and summed per match (``ranked`` adds the join, ``query_weights``)."""
    return Coalesce(Sum("query_weights__weight"), Value(0.0), output_field=FloatField())


def ranked(queryset, terms, folded: str, *, matches: int, look_alike=None, join=False):
    """``queryset`` best first: the exact title, titles starting with the query, then by
    the weight of the query's words in each game (plus ``look_alike``, how much the title
    looks like the query, for typos); past ``MATCH_LIMIT`` matches, newest first (and the
    pages put ``best_first`` before them).

    Weights are read by id, one index lookup a match: at most ``MATCH_LIMIT`` of them. At
    100 000 games ranking every match of "joueurs" by its weighted vector took 5.5 s.
    With ``join`` (PostgreSQL) they are joined to the matches instead: the planner reads
    the words' rows from the weights' index and hashes them, where the lookups took 13 of
    the 15 ms of the page of "joueurs"' 1 000 matches (7 ms joined). SQLite cannot
    group the rows of a query that ranks with FTS5's bm25, so it looks them up."""
    if matches > MATCH_LIMIT:
        return queryset.order_by("-pk")
    if join:
        queryset = queryset.alias(
            query_weights=FilteredRelation(
                "search_weights", condition=Q(search_weights__key__in=keys(terms))
            )
        )
    rank = joined_weight_of(terms) if join else weight_of(terms)
    if look_alike is not None:
        rank = rank + look_alike
    return queryset.annotate(
        text_rank=rank,
        title_tier=Case(
            When(search_title=folded, then=Value(0)),
            When(search_title__startswith=folded, then=Value(1)),
            default=Value(2),
            output_field=IntegerField(),
        ),
    ).order_by(*RELEVANCE)


def best_first(queryset, terms):
    """The games of ``queryset`` (every match of a common word) that the query's longest
    word weighs most in, heaviest first, and the others newest first: the two parts of
    its pages (``games.selectors.GameList``).

    Both are read in index order, a page's worth of rows: ranking every match of
    "joueurs" at 100 000 games took 145 ms even by a stored score, sorting them all. The
    longest word stands for the query: rarer than the short ones, as a rule; a game the
    word weighs little in (said once or twice) comes with the others."""
    key = max(keys(terms), key=len, default="")
    if len(key) < 3:
        return None
    best = (
        queryset.filter(search_weights__key=key)
        .alias(key_weight=F("search_weights__weight"))
        .order_by("-key_weight", "-pk")
    )
    return best, queryset.exclude(search_weights__key=key).order_by("-pk")
