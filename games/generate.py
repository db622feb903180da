"""Synthetic catalogues for benchmarks and demonstrations: never for a real ludothèque.

``generate_catalogue(games=N, seed=S)`` adds N records that read like a ludothèque's
(titles in French, Danish, Polish and English, authors and publishers, ESAR categories,
player, age and duration spreads, a principle, rules, contents, and a rule summary in each
of the four languages), the same ones for the same seed. Their slugs start with
``GENERATED_PREFIX``, so they can be told from (and removed without touching) real records.
"""

import random
from collections.abc import Callable

from django.db import connection, transaction

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
from .text import slug_for

GENERATED_PREFIX = "gen-"
BATCH_SIZE = 500

FIRST_NAMES = [
    "Anne", "Bruno", "Camille", "Dirk", "Élise", "François", "Inka", "Jakub", "Katarzyna",
    "Klaus", "Lars", "Léa", "Marek", "Mette", "Nicolas", "Ole", "Piotr", "Rikke", "Søren",
    "Agnieszka", "Reiner", "Sophie", "Thomas", "Zofia", "Wolfgang", "Ida", "Małgorzata",
]  # fmt: skip
LAST_NAMES = [
    "Bauer", "Cathala", "Dubois", "Fournier", "Hansen", "Jensen", "Kowalski", "Lambert",
    "Larsen", "Lefèvre", "Mikkelsen", "Nowak", "Nielsen", "Rasmussen", "Rousseau", "Schmidt",
    "Wiśniewski", "Wójcik", "Zieliński", "Knizia", "Brand", "Kramer", "Sørensen", "Łukasik",
]  # fmt: skip
PUBLISHERS = [
    "Asmodée", "Blackrock", "Cocktail Games", "Djeco", "Egmont", "Gigamic", "Granna",
    "Haba", "Iello", "Kosmos", "Ludonaute", "Nordisk Spil", "Rebel", "Repos Production",
    "Space Cowboys", "Trefl", "Zoch", "Queen Games", "Amigo", "Ravensburger",
]  # fmt: skip

# Title patterns per language: a head word and a complement.
TITLES = {
    "fr": (
        ["Le Château", "La Forêt", "Le Trésor", "La Course", "Les Jardins", "La Tour", "Le Marché",
         "L'Île", "La Caravane", "Le Labyrinthe", "Les Pirates", "La Cité"],
        ["des dragons", "de Carcassonne", "enchanté·e", "des épices", "du roi", "des lutins",
         "aux mille portes", "de l'alchimiste", "des étoiles", "du désert", "de cristal"],
    ),
    "da": (
        ["Skovens", "Slottets", "Havets", "Bjergets", "Kongens", "Dragens", "Troldens"],
        ["hemmelighed", "skat", "tårn", "rejse", "have", "marked", "labyrint", "søjler"],
    ),
    "pl": (
        ["Tajemnica", "Skarb", "Wieża", "Podróż", "Ogród", "Targ", "Wyspa", "Zamek"],
        ["smoka", "króla", "czarodzieja", "piratów", "kupców", "gwiazd", "pustyni", "Łodzi"],
    ),
    "en": (
        ["Mountain", "River", "Star", "Crystal", "Golden", "Secret", "Lost", "Little"],
        ["Traders", "Builders", "Towers", "Explorers", "Gardens", "Caravans", "Kingdoms"],
    ),
}  # fmt: skip

THEMES = {
    "fr": ["cartes", "dés", "tuiles", "pions", "jetons", "plateau", "colonnes", "billes"],
    "da": ["kort", "terninger", "brikker", "spillebræt", "søjler", "fliser", "mønter"],
    "pl": ["karty", "kości", "żetony", "plansza", "kolumny", "kafelki", "pionki"],
    "en": ["cards", "dice", "tiles", "pawns", "tokens", "board", "columns", "marbles"],
}

PRINCIPLES = [
    "Chaque joueur pose à son tour des {theme} pour bâtir le plus bel ensemble.",
    "Les joueurs échangent des {theme} et marquent des points en fin de partie.",
    "Il faut retirer des {theme} sans faire tomber l'édifice.",
    "Les joueurs coopèrent pour rassembler les {theme} avant la nuit.",
    "Course de {theme} : le premier arrivé au château l'emporte.",
]
ANALYSES = [
    "Développe l'adresse, la patience et la motricité fine.",
    "Fait travailler la mémoire, l'observation et le calcul mental.",
    "Apprend à coopérer, à négocier et à accepter de perdre.",
    "Stimule la stratégie, l'anticipation et le repérage dans l'espace.",
]
SUMMARIES = {
    "fr": (
        "## But du jeu\n\nMarquer le plus de points avec ses {theme}. La partie dure "
        "environ {minutes} minutes, de {low} à {high} joueurs.\n\n## Mise en place\n\n"
        "Chaque joueur reçoit des {theme} de sa couleur ; le reste forme la pioche.\n\n"
        "## Déroulement\n\nÀ son tour, un joueur pioche, pose ou échange. {extra}\n\n"
        "## Fin de la partie\n\nQuand la pioche est vide, le joueur qui a le plus de points gagne."
    ),
    "da": (
        "## Mål\n\nFå flest point med dine {theme}. Et spil varer omkring {minutes} minutter, "
        "for {low} til {high} spillere.\n\n## Forberedelse\n\nHver spiller får {theme} i sin "
        "farve; resten bliver bunken.\n\n## Spillets gang\n\nPå sin tur trækker, lægger eller "
        "bytter en spiller. {extra}\n\n## Slut\n\nNår bunken er tom, vinder spilleren med "
        "flest point."
    ),
    "pl": (
        "## Cel gry\n\nZdobyć najwięcej punktów swoimi {theme}. Rozgrywka trwa około {minutes} "
        "minut, dla {low}–{high} graczy.\n\n## Przygotowanie\n\nKażdy gracz dostaje {theme} w "
        "swoim kolorze; reszta tworzy stos.\n\n## Przebieg gry\n\nW swojej turze gracz dobiera, "
        "wykłada lub wymienia. {extra}\n\n## Koniec gry\n\nGdy stos się wyczerpie, wygrywa "
        "gracz z największą liczbą punktów."
    ),
    "en": (
        "## Goal\n\nScore the most points with your {theme}. A game lasts about {minutes} "
        "minutes, for {low} to {high} players.\n\n## Set-up\n\nEach player takes the {theme} "
        "of their colour; the rest form the draw pile.\n\n## Playing\n\nOn their turn a player "
        "draws, places or trades. {extra}\n\n## End\n\nWhen the pile is empty, the player "
        "with the most points wins."
    ),
}
EXTRAS = {
    "fr": ["Un dé décide du nombre d'actions.", "Les tours se construisent à plusieurs.",
           "On peut voler une carte à son voisin.", "Le marché change à chaque manche."],
    "da": ["En terning afgør antallet af handlinger.", "Tårnene bygges i fællesskab.",
           "Man må stjæle et kort fra sin nabo.", "Markedet skifter hver runde."],
    "pl": ["Kość decyduje o liczbie akcji.", "Wieże buduje się wspólnie.",
           "Można ukraść kartę sąsiadowi.", "Targ zmienia się co rundę."],
    "en": ["A die decides how many actions you take.", "Towers are built together.",
           "You may steal a card from your neighbour.", "The market changes every round."],
}  # fmt: skip
PLAYER_SPREADS = [(1, 1), (1, 4), (2, 2), (2, 4), (2, 5), (2, 6), (3, 6), (3, 8), (4, 10)]
AGE_SPREADS = [(3, 6), (4, None), (5, 99), (6, None), (7, 99), (8, 99), (10, None), (12, 99)]
DURATIONS = [10, 15, 20, 25, 30, 30, 45, 45, 60, 90, 120]


def _names(rng: random.Random, pool_size: int) -> list[str]:
    names = {f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}" for _ in range(pool_size)}
    return sorted(names)


def _title(rng: random.Random) -> tuple[str, str]:
    language = rng.choice(["fr", "fr", "da", "pl", "en"])
    heads, tails = TITLES[language]
    return f"{rng.choice(heads)} {rng.choice(tails)}", language


def _record(rng, number, seed, categories, publishers, languages):
    title, language = _title(rng)
    low, high = rng.choice(PLAYER_SPREADS)
    min_age, max_age = rng.choice(AGE_SPREADS)
    minutes = rng.choice(DURATIONS)
    theme = {code: rng.choice(words) for code, words in THEMES.items()}
    shown = f"{title} {number}" if rng.random() < 0.5 else title
    game = Game(
        title=shown,
        sort_title=shown,  # bulk_create calls no save(): as Game.fill_sort_title would
        slug=f"{GENERATED_PREFIX}{seed}-{number}-{slug_for(title)}"[:200],
        esar=rng.choice(categories),
        publisher=rng.choice(publishers),
        year=rng.randint(1980, 2025),
        min_players=low,
        max_players=high,
        min_age=min_age,
        max_age=max_age,
        duration_minutes=minutes,
        principle=rng.choice(PRINCIPLES).format(theme=theme["fr"]),
        pedagogical_analysis=rng.choice(ANALYSES),
        rules=(
            f"Mise en place : distribuer les {theme['fr']}. À son tour, chaque joueur "
            f"effectue une action. {rng.choice(EXTRAS['fr'])} La partie s'arrête après "
            f"{rng.randint(3, 12)} manches ; on compte les points."
        ),
        contents=f"{rng.randint(20, 120)} {theme['fr']}, 1 règle du jeu.",
    )
    game.search_title = ""
    summaries = {
        code: text.format(
            theme=theme[code], minutes=minutes, low=low, high=high, extra=rng.choice(EXTRAS[code])
        )
        for code, text in SUMMARIES.items()
    }
    material = sorted({language, rng.choice(list(languages))})
    return game, summaries, [languages[code] for code in material]


def generate_catalogue(
    *, games: int, seed: int, progress: Callable[[int, int], None] | None = None
) -> int:
    """Add ``games`` synthetic records, identical for the same ``seed``; returns how many.

    Records are written in batches of ``BATCH_SIZE``, each in one transaction, and indexed
    for search batch by batch.
    """
    rng = random.Random(seed)  # noqa: S311 - sample data, not security
    categories = list(EsarCategory.objects.filter(parent__isnull=False).order_by("code"))
    if not categories:
        raise ValueError("Load the ESAR vocabulary first (manage.py seed).")
    languages = {}
    for code in ("fr", "da", "pl", "en", "de"):
        languages[code] = Language.objects.get_or_create(code=code)[0]
    Publisher.objects.bulk_create(
        [Publisher(name=name) for name in PUBLISHERS], ignore_conflicts=True
    )
    publishers = list(Publisher.objects.filter(name__in=PUBLISHERS).order_by("name"))
    names = _names(rng, 400)
    Person.objects.bulk_create([Person(name=name) for name in names], ignore_conflicts=True)
    people = list(Person.objects.filter(name__in=names).order_by("name"))
    Through = Game.languages.through
    # The generated summaries repeat a few thousand texts: each rendered once.
    html = {}

    def rendered(text):
        if text not in html:
            html[text] = str(render_markdown(text))
        return html[text]

    done = 0
    while done < games:
        size = min(BATCH_SIZE, games - done)
        records = [
            _record(rng, done + i + 1, seed, categories, publishers, languages) for i in range(size)
        ]
        credits = [rng.sample(people, rng.choice([1, 1, 2, 2, 3])) for _ in records]
        with transaction.atomic():
            created = Game.objects.bulk_create([game for game, _s, _l in records])
            GameAuthor.objects.bulk_create(
                GameAuthor(game=game, person=person, order=order)
                for game, authors in zip(created, credits, strict=True)
                for order, person in enumerate(authors)
            )
            Through.objects.bulk_create(
                Through(game_id=game.pk, language_id=language.pk)
                for game, (_g, _s, material) in zip(created, records, strict=True)
                for language in material
            )
            RuleSummary.objects.bulk_create(
                RuleSummary(game=game, language=code, text=text, html=rendered(text))
                for game, (_g, summaries, _l) in zip(created, records, strict=True)
                for code, text in summaries.items()
            )
            index_games([game.pk for game in created])
            CatalogueVersion.bump()
        done += size
        if progress:
            progress(done, games)
    refresh_planner_statistics()
    return done


def refresh_planner_statistics() -> None:
    """Tell the database's planner what the catalogue now holds.

    Until autovacuum gets to it, PostgreSQL plans the new rows with the statistics of an
    almost empty table: on a freshly generated 100 000-game catalogue the text searches'
    p95 was 664 ms, and 19-22 ms once analysed (bench/catalogue_bench.py, same machine).
    Vacuumed as well when outside a transaction (VACUUM cannot run in one): the visibility
    map lets a count be read from an index alone (at 1 000 games the list page's count
    and page ids took 1.25 ms, then 0.28 ms).
    """
    tables = [
        model._meta.db_table
        for model in (Game, GameAuthor, RuleSummary, Game.languages.through, Person)
    ]
    vacuum = connection.vendor == "postgresql" and not connection.in_atomic_block
    command = "VACUUM (ANALYZE)" if vacuum else "ANALYZE"
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"{command} {connection.ops.quote_name(table)}")  # noqa: S608


def delete_generated() -> int:
    """Remove every generated record (slug ``gen-…``); real records are left alone."""
    generated = Game.objects.filter(slug__startswith=GENERATED_PREFIX)
    ids = list(generated.values_list("pk", flat=True))
    CatalogueVersion.bump()
    for start in range(0, len(ids), BATCH_SIZE):
        with transaction.atomic():
            Game.objects.filter(pk__in=ids[start : start + BATCH_SIZE]).delete()
    return len(ids)
