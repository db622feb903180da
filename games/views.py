"""Catalogue pages: thin views around the filters and the records."""

import json

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language

from .caching import catalogue_page
from .filters import GameFilter
from .forms import CompareForm
from .fragments import filters, game_cards
from .models import Game, GameAuthor, RuleSummary
from .selectors import COUNT_CAP, list_games

PAGE_SIZE = 12


def _listing_queryset():
    return (
        Game.objects.for_display()
        .select_related("esar", "publisher")
        .prefetch_related(Prefetch("credits", queryset=GameAuthor.objects.select_related("person")))
    )


@catalogue_page
def home(request):
    """The front door: a search box and the collection."""
    games = _listing_queryset().in_order("sort_title")[:PAGE_SIZE]
    playable = Game.objects.filter(slug__in=settings.PLAYABLE_GAMES).order_by("sort_title", "pk")
    return render(
        request,
        "games/home.html",
        {"games": games, "total": Game.objects.count(), "playable": playable},
    )


@catalogue_page
def game_list(request):
    """The catalogue, filtered the way a patron thinks, sorted and paginated."""
    params = request.GET.copy()
    params.pop("page", None)
    filterset = GameFilter(params or None, request=request)
    valid = filterset.is_valid() if filterset.is_bound else True
    version = request.catalogue_version.version
    number = request.GET.get("page")
    if valid:
        wanted = filterset.form.cleaned_data if filterset.is_bound else {}
        games = list_games(**wanted, page=number, per_page=PAGE_SIZE, version=version)
    else:
        games = list_games(games=Game.objects.none(), per_page=PAGE_SIZE)
    # A page needs only its games' ids (their cards are rendered, or kept, from
    # ``_listing_queryset``): rows of id, slug and title, not model instances.
    games = games.values_list("pk", "slug", "title", named=True)
    page = Paginator(games, PAGE_SIZE).get_page(number)
    return render(
        request,
        "games/game_list.html",
        {
            "filter": filterset,
            "form": filterset.form,
            "filter_form": filters(filterset.form, params, version=version),
            "valid": valid,
            "page_obj": page,
            "games": page.object_list,
            "cards": game_cards(
                [game.pk for game in page.object_list],
                version=version,
                games_to_render=_listing_queryset,
            ),
            "count": page.paginator.count,
            "count_capped": games.count_capped,
            "count_cap": COUNT_CAP,
            "query_string": params.urlencode(),
        },
    )


@catalogue_page
def game_detail(request, slug):
    """Everything the ludothèque knows about one game."""
    game = get_object_or_404(
        Game.objects.for_display()
        .select_related("esar", "esar__parent", "publisher")
        .prefetch_related(
            "languages",
            Prefetch("credits", queryset=GameAuthor.objects.select_related("person")),
            Prefetch("summaries", queryset=RuleSummary.objects.order_by("language")),
        ),
        slug=slug,
    )
    summaries = list(game.summaries.all())
    language = get_language()
    summary = next((s for s in summaries if s.language == language), None)
    return render(
        request,
        "games/game_detail.html",
        {
            "game": game,
            "summaries": summaries,
            "summary": summary,
            "record_language": settings.RECORD_LANGUAGE,
            "play_url": _play_url(game),
            "json_ld": _script_safe_json(_json_ld(request, game)),
        },
    )


def _play_url(game):
    name = settings.PLAYABLE_GAMES.get(game.slug)
    return reverse(name) if name else None


def _json_ld(request, game):
    """schema.org's description of a game, for search engines and library aggregators."""
    data = {
        "@context": "https://schema.org",
        "@type": "Game",
        "name": game.title,
        "url": request.build_absolute_uri(game.get_absolute_url()),
        "numberOfPlayers": {
            "@type": "QuantitativeValue",
            "minValue": game.min_players,
            "maxValue": game.max_players,
        },
        "typicalAgeRange": f"{game.min_age}-{game.max_age or ''}",
        "timeRequired": f"PT{game.duration_minutes}M",
        "inLanguage": [lang.code for lang in game.languages.all()],
        "genre": f"ESAR {game.esar.code} {game.esar.label}",
        "author": [
            {"@type": "Person", "name": credit.person.name} for credit in game.credits.all()
        ],
    }
    if game.publisher:
        data["publisher"] = {"@type": "Organization", "name": game.publisher.name}
    if game.principle:
        data["description"] = game.principle
    if game.year:
        data["datePublished"] = str(game.year)
    if game.image:
        data["image"] = request.build_absolute_uri(game.image.url)
    return data


def _script_safe_json(data):
    """JSON that cannot close the <script> element it is embedded in."""
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@catalogue_page
def game_rules(request, slug, language):
    """One game's rule summary in one language, whatever the interface language."""
    game = get_object_or_404(Game, slug=slug)
    summaries = list(game.summaries.order_by("language"))
    summary = next((s for s in summaries if s.language == language), None)
    status = 200 if summary else 404
    return render(
        request,
        "games/game_rules.html",
        {"game": game, "summary": summary, "summaries": summaries, "requested": language},
        status=status,
    )


@catalogue_page
def game_rules_compare(request, slug):
    """Two languages of one game's rules side by side, chosen with ?left=fr&right=da.

    A missing side is filled in: the interface language first, then another language.
    """
    game = get_object_or_404(Game, slug=slug)
    summaries = {s.language: s for s in game.summaries.order_by("language")}
    form = CompareForm(request.GET, languages=list(summaries))
    left = right = None
    rows = []
    if len(summaries) >= 2 and form.is_valid():
        left_code = form.cleaned_data["left"] or _preferred(summaries, exclude=None)
        right_code = form.cleaned_data["right"] or _preferred(summaries, exclude=left_code)
        left, right = summaries[left_code], summaries[right_code]
        left_sections, right_sections = left.sections(), right.sections()
        # Matching structures are shown section against section; otherwise as two columns.
        if len(left_sections) == len(right_sections):
            rows = list(zip(left_sections, right_sections, strict=True))
        form = CompareForm(
            initial={"left": left_code, "right": right_code}, languages=list(summaries)
        )
    return render(
        request,
        "games/game_rules_compare.html",
        {
            "game": game,
            "form": form,
            "left": left,
            "right": right,
            "rows": rows,
            "summaries": summaries,
        },
        status=400 if form.is_bound and not form.is_valid() else 200,
    )


def _preferred(summaries, exclude):
    """The interface language if it has a summary, else the first other language."""
    current = get_language()
    if current in summaries and current != exclude:
        return current
    return next(code for code in summaries if code != exclude)
