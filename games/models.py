"""The ludothèque's records: games as a PMB catalogue prints them, and what hangs off them."""

import re

from django.conf import settings
from django.contrib.postgres.search import SearchVectorField
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, get_language_info
from django.utils.translation import gettext_lazy as _

from .identifiers import validate_ean
from .markdown import render_markdown
from .text import KEY_LENGTH, fold


class NaturalKeyManager(models.Manager):
    """Finds a record by its natural key (fixtures, ``loaddata``): the values of
    ``lookups``, in their order, as the model's ``natural_key()`` gives them."""

    def __init__(self, *lookups):
        super().__init__()
        self.lookups = lookups

    def get_by_natural_key(self, *values):
        return self.get(**dict(zip(self.lookups, values, strict=True)))


# A child's age or a game's length beyond these is a typing error, not a record.
MAX_AGE = 120
MAX_PLAYERS = 99
MAX_DURATION = 24 * 60


class Person(models.Model):
    """Someone credited on a game: author, illustrator…"""

    name = models.CharField(_("name"), max_length=200, unique=True)

    objects = NaturalKeyManager("name")

    class Meta:
        ordering = ["name"]
        verbose_name = _("person")
        verbose_name_plural = _("people")

    def __str__(self):
        return self.name

    def natural_key(self):
        return (self.name,)


class Publisher(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)

    objects = NaturalKeyManager("name")

    class Meta:
        ordering = ["name"]
        verbose_name = _("publisher")
        verbose_name_plural = _("publishers")

    def __str__(self):
        return self.name

    def natural_key(self):
        return (self.name,)


class Language(models.Model):
    """A language the material (box, rules, cards) is printed in, by ISO 639-1 code.

    The name is not stored: Django knows every language's name in every interface
    language, so "fr" reads "Français", "French" or "Francuski" as the patron expects.
    """

    code = models.CharField(
        _("code"),
        max_length=7,
        unique=True,
        validators=[RegexValidator(r"^[a-z]{2}(-[a-z]{2,4})?$", _("Use an ISO 639-1 code."))],
        help_text=_("ISO 639-1 code, e.g. fr, da, pl, en, de."),
    )

    objects = NaturalKeyManager("code")

    class Meta:
        ordering = ["code"]
        verbose_name = _("language")
        verbose_name_plural = _("languages")

    def __str__(self):
        return str(self.name)

    def natural_key(self):
        return (self.code,)

    def clean(self):
        try:
            get_language_info(self.code)
        except KeyError:
            raise ValidationError({"code": _("Unknown language code.")}) from None

    @property
    def name(self):
        try:
            info = get_language_info(self.code)
        except KeyError:
            return self.code
        return info["name_translated"]


class EsarFamily(models.TextChoices):
    """The four kinds of play of the ESAR system's first facet."""

    EXERCISE = "E", _("Exercise play")
    SYMBOLIC = "S", _("Symbolic play")
    ASSEMBLY = "A", _("Assembly play")
    RULES = "R", _("Games with rules")


class EsarCategory(models.Model):
    """A node of the ESAR classification: ``A 400`` (rules games) → ``A 404`` (dexterity).

    Labels are stored per interface language because they are the ludothèques' controlled
    vocabulary, maintained by staff, not interface text.
    """

    code = models.CharField(_("code"), max_length=12, unique=True)
    parent = models.ForeignKey(
        "self",
        verbose_name=_("parent"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="children",
    )
    family = models.CharField(_("family"), max_length=1, choices=EsarFamily.choices)
    label_fr = models.CharField(_("label (French)"), max_length=200)
    label_da = models.CharField(_("label (Danish)"), max_length=200, blank=True)
    label_pl = models.CharField(_("label (Polish)"), max_length=200, blank=True)
    label_en = models.CharField(_("label (English)"), max_length=200, blank=True)

    objects = NaturalKeyManager("code")

    class Meta:
        ordering = ["code"]
        verbose_name = _("ESAR category")
        verbose_name_plural = _("ESAR categories")

    def __str__(self):
        return f"{self.code} {self.label}"

    def natural_key(self):
        return (self.code,)

    def clean(self):
        if self.parent_id and self.parent_id == self.pk:
            raise ValidationError({"parent": _("A category cannot be its own parent.")})
        if self.parent and self.parent.family != self.family:
            raise ValidationError({"family": _("A category belongs to its parent's family.")})

    @property
    def label(self):
        """The label in the active language, falling back to French."""
        language = (get_language() or settings.RECORD_LANGUAGE).split("-")[0]
        return getattr(self, f"label_{language}", "") or self.label_fr

    def descendant_codes(self, all_categories=None):
        """This code and every code below it in the hierarchy."""
        categories = all_categories or list(EsarCategory.objects.only("code", "parent_id"))
        children = {}
        for category in categories:
            children.setdefault(category.parent_id, []).append(category)
        codes, stack = [], [self]
        while stack:
            node = stack.pop()
            codes.append(node.code)
            stack.extend(children.get(node.pk, []))
        return codes


class DocumentType(models.TextChoices):
    """PMB's document types that a ludothèque lends."""

    OBJECT = "object", _("three-dimensional object, artefact")
    KIT = "kit", _("kit")
    BOOK = "book", _("printed text")


class AuthorRole(models.TextChoices):
    AUTHOR = "author", _("author")
    ILLUSTRATOR = "illustrator", _("illustrator")
    DEVELOPER = "developer", _("developer")
    TRANSLATOR = "translator", _("translator")


# A game's record as staff write it, in the order the CSV files and the API give it.
RECORD_FIELDS = (
    "slug",
    "title",
    "sort_title",
    "document_type",
    "authors",
    "publisher",
    "year",
    "languages",
    "esar",
    "min_players",
    "max_players",
    "min_age",
    "max_age",
    "duration_minutes",
    "principle",
    "pedagogical_analysis",
    "rules",
    "contents",
    "ean",
    "bgg_id",
)


def in_a_stable_order(*ordering) -> tuple:
    """``ordering`` followed by the sort title and then the id, unless it has them; in
    the direction of its first field (a descending sort is the ascending one reversed,
    which each sort's index serves read backwards).

    Games equal in the chosen order came back in whatever order each page's query plan met
    them: paging through "Shortest first" at 1 000 games on PostgreSQL showed about 100
    games twice and never showed as many others, and copies of one title could swap
    between pages."""
    named = {field.lstrip("-") for field in ordering}
    if named & {"pk", "id"}:  # unique already
        return tuple(ordering)
    direction = "-" if ordering and ordering[0].startswith("-") else ""
    ties = ("sort_title", "pk")
    return (*ordering, *(direction + field for field in ties if field not in named))


class GameQuerySet(models.QuerySet):
    def for_display(self):
        """Without the search data: up to 1.4 KB a game that no page or API shows."""
        return self.defer("search_terms")

    def in_order(self, *ordering):
        """Ordered by ``ordering``, ties broken by sort title and id (``in_a_stable_order``)."""
        return self.order_by(*in_a_stable_order(*ordering))

    def playable_by(self, players: int):
        """Games that ``players`` people can play together: min ≤ N ≤ max."""
        return self.filter(min_players__lte=players, max_players__gte=players)

    def suitable_for_age(self, age: int):
        """Games for a child of ``age`` years: min_age ≤ age ≤ max_age (no max: no limit)."""
        return self.filter(min_age__lte=age).filter(Q(max_age__isnull=True) | Q(max_age__gte=age))

    def within_minutes(self, minutes: int):
        """Games whose average duration fits in ``minutes``."""
        return self.filter(duration_minutes__lte=minutes)

    def in_esar(self, code_or_family: str):
        """Games in an ESAR family (``A``, ``R``…) or a category and everything below it."""
        value = code_or_family.strip()
        if value.upper() in EsarFamily.values and len(value) == 1:
            return self.filter(esar__family=value.upper())
        category = EsarCategory.objects.filter(code__iexact=value).first()
        if category is None:
            return self.none()
        return self.filter(esar__code__in=category.descendant_codes())

    def in_language(self, code: str):
        """Games whose material exists in the language ``code``.

        A subquery, not a join: the join's DISTINCT sorted every matching game (1.2 s for
        "da" at 100 000 games). The language's id is looked up once, not joined for every
        game checked ("karty" in Polish at 100 000 games: 18 ms, then 14 ms)."""
        language = Language.objects.filter(code=code).values("pk")[:1]
        through = Game.languages.through.objects.filter(
            game_id=models.OuterRef("pk"), language_id=models.Subquery(language)
        )
        return self.filter(models.Exists(through))


class Game(models.Model):
    """A game as the ludothèque catalogues it."""

    title = models.CharField(_("title"), max_length=200)
    sort_title = models.CharField(
        _("sort title"),
        max_length=200,
        blank=True,
        help_text=_(
            "The title the catalogue sorts by: the title without its leading article when "
            "an imported record marks one (UNIMARC's non-sorting marks). Left empty, it is "
            "the title."
        ),
    )
    slug = models.SlugField(_("slug"), max_length=200, unique=True)
    document_type = models.CharField(
        _("document type"),
        max_length=20,
        choices=DocumentType.choices,
        default=DocumentType.OBJECT,
    )
    authors = models.ManyToManyField(
        Person, through="GameAuthor", related_name="games", verbose_name=_("authors")
    )
    publisher = models.ForeignKey(
        Publisher,
        verbose_name=_("publisher"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="games",
    )
    year = models.PositiveSmallIntegerField(
        _("year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1800), MaxValueValidator(2100)],
    )
    languages = models.ManyToManyField(
        Language,
        verbose_name=_("languages of the material"),
        blank=True,
        related_name="games",
    )
    esar = models.ForeignKey(
        EsarCategory,
        verbose_name=_("ESAR category"),
        on_delete=models.PROTECT,
        related_name="games",
    )
    min_players = models.PositiveSmallIntegerField(
        _("minimum players"), validators=[MinValueValidator(1), MaxValueValidator(MAX_PLAYERS)]
    )
    max_players = models.PositiveSmallIntegerField(
        _("maximum players"), validators=[MinValueValidator(1), MaxValueValidator(MAX_PLAYERS)]
    )
    min_age = models.PositiveSmallIntegerField(
        _("minimum age"), validators=[MaxValueValidator(MAX_AGE)]
    )
    max_age = models.PositiveSmallIntegerField(
        _("maximum age"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(MAX_AGE)],
        help_text=_("Leave empty for no upper limit."),
    )
    duration_minutes = models.PositiveSmallIntegerField(
        _("average duration (minutes)"),
        validators=[MinValueValidator(1), MaxValueValidator(MAX_DURATION)],
    )
    principle = models.TextField(_("game principle"), blank=True)
    pedagogical_analysis = models.TextField(_("pedagogical analysis"), blank=True)
    rules = models.TextField(
        _("rules"),
        blank=True,
        help_text=_("The rules in brief, as the record gives them, in its language."),
    )
    contents = models.TextField(_("contents"), blank=True)
    ean = models.CharField(
        _("EAN"),
        max_length=13,
        blank=True,
        validators=[validate_ean],
    )
    bgg_id = models.PositiveIntegerField(_("BoardGameGeek id"), null=True, blank=True)
    image = models.ImageField(_("image"), upload_to="games/", blank=True)
    # The title folded to lower case without accents: exact, prefix and typo matches.
    search_title = models.CharField(max_length=200, editable=False, blank=True, default="")
    # PostgreSQL's full-text index of the record, people and summaries, without positions
    # or weights: small enough to stay in the row, so checking a match costs no TOAST read
    # (on SQLite an FTS5 table holds it instead; the ranking reads ``SearchWeight``). Both
    # are written by games.search.index_games.
    search_terms = SearchVectorField(null=True, editable=False)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = NaturalKeyManager.from_queryset(GameQuerySet)("slug")

    class Meta:
        ordering = ["sort_title", "id"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        # The numeric filters; the text indexes are made by migration 0004 (database-specific).
        indexes = [
            models.Index(fields=["min_players", "max_players"], name="game_players_idx"),
            models.Index(fields=["min_age", "max_age"], name="game_age_idx"),
            # The sorts a patron may choose, each with its ties by sort title and id
            # (``in_a_stable_order``), so that a page is read from the index in order,
            # forwards or backwards: title (the default, by the sort title), duration
            # (also the duration filter's), players (the maximum), age (the minimum), year.
            models.Index(fields=["sort_title", "id"], name="game_sort_title_idx"),
            models.Index(
                fields=["duration_minutes", "sort_title", "id"], name="game_duration_sort_idx"
            ),
            models.Index(
                fields=["max_players", "sort_title", "id"], name="game_max_players_sort_idx"
            ),
            models.Index(fields=["min_age", "sort_title", "id"], name="game_min_age_sort_idx"),
            models.Index(fields=["year", "sort_title", "id"], name="game_year_sort_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(min_players__gte=1), name="game_min_players_at_least_one"
            ),
            models.CheckConstraint(
                condition=Q(min_players__lte=F("max_players")), name="game_players_min_le_max"
            ),
            models.CheckConstraint(
                condition=Q(max_age__isnull=True) | Q(min_age__lte=F("max_age")),
                name="game_age_min_le_max",
            ),
            models.CheckConstraint(
                condition=Q(duration_minutes__gte=1), name="game_duration_positive"
            ),
            # Every way in fills it (``fill_sort_title``); a bulk write or a fixture that
            # forgot it would list the game before every other.
            models.CheckConstraint(condition=~Q(sort_title=""), name="game_sort_title_not_empty"),
        ]

    def __str__(self):
        return self.title

    def save(self, *args, **kwargs):
        self.search_title = fold(self.title)
        self.fill_sort_title()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "title" in update_fields:
            kwargs["update_fields"] = {*update_fields, "sort_title", "search_title"}
        super().save(*args, **kwargs)
        self.loaded_titles = (self.title, self.sort_title)

    def get_absolute_url(self):
        return reverse("games:game-detail", kwargs={"slug": self.slug})

    def natural_key(self):
        return (self.slug,)

    @classmethod
    def from_db(cls, db, field_names, values):
        game = super().from_db(db, field_names, values)
        if "title" in field_names and "sort_title" in field_names:
            game.loaded_titles = (game.title, game.sort_title)
        return game

    def fill_sort_title(self):
        """The sort title follows the title unless a record marked an article (it is the
        title without it): empty, it is the title; when the title changes and the sort
        title was left as it was, it becomes the new title, unless the new title still
        ends with it (only the marked article changed)."""
        loaded = getattr(self, "loaded_titles", None)
        if loaded and self.title != loaded[0] and self.sort_title == loaded[1]:
            article_dropped = loaded[1] != loaded[0]
            if not (article_dropped and self.title.endswith(self.sort_title)):
                self.sort_title = self.title
        if not self.sort_title.strip():
            self.sort_title = self.title

    def clean(self):
        self.fill_sort_title()
        errors = {}
        if self.min_players and self.max_players and self.min_players > self.max_players:
            errors["max_players"] = _("The maximum number of players is below the minimum.")
        if self.max_age is not None and self.min_age is not None and self.min_age > self.max_age:
            errors["max_age"] = _("The maximum age is below the minimum age.")
        if errors:
            raise ValidationError(errors)

    @property
    def players_label(self):
        return (
            str(self.min_players)
            if self.min_players == self.max_players
            else f"{self.min_players}–{self.max_players}"
        )

    @property
    def age_label(self):
        if self.max_age is None:
            return f"{self.min_age}+"
        return f"{self.min_age}–{self.max_age}"


class SearchWeight(models.Model):
    """How much a word weighs in a game (``games.text.word_weights``), for the words that
    weigh most in it: the search lists the games a word weighs most in first, read from
    this table's index in order whatever the number of matches. Written by
    ``games.search.index_games``."""

    pk = models.CompositePrimaryKey("game", "key")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="search_weights")
    key = models.CharField(max_length=KEY_LENGTH)
    weight = models.FloatField()

    objects = NaturalKeyManager("game__slug", "key")

    class Meta:
        verbose_name = _("search weight")
        verbose_name_plural = _("search weights")
        indexes = [
            # A word's games, heaviest first, ties newest first: the order the search lists them.
            models.Index(fields=["key", "-weight", "-game"], name="searchweight_best_idx"),
        ]

    def __str__(self):
        return f"{self.key}: {self.weight}"

    def natural_key(self):
        # A dump loaded into another catalogue finds its game by slug, not by a number.
        return (self.game.slug, self.key)

    natural_key.dependencies = ["games.game"]


class GameAuthor(models.Model):
    """Who made a game, and as what: PMB prints "Bill Payne, Auteur"."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="credits")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, verbose_name=_("person"))
    role = models.CharField(
        _("role"), max_length=20, choices=AuthorRole.choices, default=AuthorRole.AUTHOR
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    objects = NaturalKeyManager("game__slug", "person__name", "role")

    class Meta:
        ordering = ["order", "id"]
        verbose_name = _("credit")
        verbose_name_plural = _("credits")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "person", "role"], name="gameauthor_unique_credit"
            )
        ]

    def __str__(self):
        return f"{self.person}, {self.get_role_display()}"

    def natural_key(self):
        return (self.game.slug, self.person.name, self.role)

    natural_key.dependencies = ["games.game", "games.person"]


class RuleLanguage(models.TextChoices):
    """Languages rule summaries are written in (ISO 639-1), named in their own language."""

    FRENCH = "fr", "Français"
    DANISH = "da", "Dansk"
    POLISH = "pl", "Polski"
    ENGLISH = "en", "English"


# One whole title per language of the rules, so each interface language can say "in
# Danish" its own way (Polish "po duńsku" is no form of the name "duński").
RULES_PAGE_TITLES = {
    RuleLanguage.FRENCH: _("%(title)s: the rules in French"),
    RuleLanguage.DANISH: _("%(title)s: the rules in Danish"),
    RuleLanguage.POLISH: _("%(title)s: the rules in Polish"),
    RuleLanguage.ENGLISH: _("%(title)s: the rules in English"),
}


# Where a section of a rendered summary starts (a Markdown "##", one level down).
SECTION_START = re.compile(r"(?=<h3[\s>])")


class RuleSummary(models.Model):
    """How to play a game, in one language, in this project's own words (Markdown)."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="summaries", verbose_name=_("game")
    )
    language = models.CharField(_("language"), max_length=7, choices=RuleLanguage.choices)
    text = models.TextField(_("text"), help_text=_("Markdown: ## headings, lists, tables."))
    # The text rendered and sanitised, kept current by save() (and, for fixtures and
    # bulk writes, by games.signals and generate_catalogue).
    html = models.TextField(editable=False, blank=True, default="")
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = NaturalKeyManager("game__slug", "language")

    class Meta:
        ordering = ["game", "language"]
        verbose_name = _("rule summary")
        verbose_name_plural = _("rule summaries")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "language"], name="rulesummary_one_per_language"
            )
        ]

    def __str__(self):
        return f"{self.game} ({self.language})"

    def save(self, *args, **kwargs):
        self.html = render_markdown(self.text)
        super().save(*args, **kwargs)

    def get_absolute_url(self):
        return reverse(
            "games:game-rules", kwargs={"slug": self.game.slug, "language": self.language}
        )

    def natural_key(self):
        return (self.game.slug, self.language)

    natural_key.dependencies = ["games.game"]

    @property
    def language_name(self):
        """The language named in itself, as Django names it: "dansk", "polski"…"""
        return get_language_info(self.language)["name_local"]

    @property
    def page_title(self):
        """ "Villa Paletti: the rules in Danish", in the interface language."""
        return RULES_PAGE_TITLES[self.language] % {"title": self.game.title}

    @property
    def rendered(self):
        """The stored HTML, safe to show (rendered and sanitised when saved)."""
        return mark_safe(self.html)  # noqa: S308 - sanitised by render_markdown on save

    def sections(self):
        """The stored HTML cut before each of its sections' headings (a ``##`` heading
        is rendered as ``<h3>``): what a side-by-side view lines up, so that "Set-up"
        faces "Forberedelse"."""
        parts = (part.strip() for part in SECTION_START.split(self.html))
        return [mark_safe(part) for part in parts if part]  # noqa: S308 - sanitised on save


class CatalogueVersion(models.Model):
    """One row counting changes to the catalogue: what the page cache and the pages'
    ETag and Last-Modified follow. Read once per catalogue request (one indexed row), so
    every server process sees an edit at once, whatever cache backend it uses."""

    version = models.PositiveBigIntegerField(default=1)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("catalogue version")
        verbose_name_plural = _("catalogue versions")

    def __str__(self):
        return f"v{self.version}"

    @classmethod
    def current(cls):
        return cls.objects.get_or_create(pk=1)[0]

    @classmethod
    def bump(cls):
        if not cls.objects.filter(pk=1).update(version=F("version") + 1, changed_at=timezone.now()):
            cls.objects.get_or_create(pk=1)
