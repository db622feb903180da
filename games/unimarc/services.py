"""The UNIMARC import: each record of a file made into a game, or reported.

``import_unimarc`` is what the command and the admin upload call. Each record is atomic:
a record that fails leaves nothing behind and the others go in. Records are taken in
batches (a transaction each): the batch's new games are made and checked in memory and
written together, a statement per table, and a record that may update a game goes in on
its own, in a savepoint; when the database refuses a batch's new games, they go in one at
a time, each in its own savepoint (``import_batch``). A dry run does the same work and
rolls it back, so what it reports is what an import would do.
"""

import re
import xml.sax
import xml.sax.handler
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from itertools import islice

import defusedxml
import defusedxml.sax
import reversion
from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.lending.models import ContentItem, Copy
from games.lending.services import checklist_from_contents, parse_contents
from games.models import (
    RECORD_FIELDS,
    EsarCategory,
    Game,
    GameAuthor,
    Language,
    Person,
    Publisher,
)
from games.signals import catalogue_changed, indexing_deferred
from games.text import fold, slug_for

from . import pmb
from .mapping import (
    GAME_TYPES,
    LEADER_TYPE_NAMES,
    OTHER_TYPES,
    GameData,
    custom_field_mapping,
    map_record,
    status_from_pmb,
)
from .models import ImportedRecord
from .reading import FileProblem, ReadRecord, read_file, sniff_format

# Records per transaction (each record is a savepoint inside it).
COMMIT_EVERY = 200

# The game's fields an import sets, in the order the report lists them: the record's own
# fields but the slug, which the import derives from the title.
FIELDS = [name for name in RECORD_FIELDS if name != "slug"]
EMPTY = {"authors": [], "languages": [], "publisher": "", "year": None, "max_age": None,
         "bgg_id": None, "esar": ""}  # fmt: skip

NO_PERMISSION = gettext_lazy("You may not %(action)s: %(what)s.")
ACTIONS = {
    "add_game": gettext_lazy("add games"),
    "change_game": gettext_lazy("change games"),
    "delete_gameauthor": gettext_lazy("remove credits"),
    "add_person": gettext_lazy("add people"),
    "add_publisher": gettext_lazy("add publishers"),
    "add_language": gettext_lazy("add languages"),
    "lending.add_copy": gettext_lazy("add copies"),
}


FORGOTTEN = object()  # a key ``Vocabulary.remember`` found no value under


class Vocabulary:
    """Publishers, people, languages and ESAR categories by name, read once per import
    (a query each per record was a fifth of the import's time). Rows created inside a
    record that is then rolled back are forgotten with ``forget_since``."""

    def __init__(self):
        self.publishers = {p.name: p for p in Publisher.objects.all()}
        self.people = {p.name: p for p in Person.objects.all()}
        self.languages = {lang.code: lang for lang in Language.objects.all()}
        self.esar = {c.code: c for c in EsarCategory.objects.all()}
        # The catalogue's games by EAN, by title and publisher, by source record number:
        # what duplicates are found by, read once rather than queried for each record.
        self.by_ean: dict[str, int] = {}
        self.by_title: dict[tuple[str, str], int] = {}
        for pk, title, publisher, ean in Game.objects.order_by("-pk").values_list(
            "pk", "title", "publisher__name", "ean"
        ):
            if ean:
                self.by_ean[ean] = pk
            self.by_title[(title_key(title), (publisher or "").casefold())] = pk
        self.by_source = dict(
            ImportedRecord.objects.exclude(source_id="")
            .order_by("-pk")
            .values_list("source_id", "game_id")
        )
        self.slugs = dict.fromkeys(Game.objects.values_list("slug", flat=True))
        self.created: list[tuple[dict, str, object]] = []  # table, key, value before
        self.barcodes: dict[str, int | Game] = {}  # a batch's copies known, by barcode

    def add_game(self, game: Game, source_id: str, publisher: str | None = None) -> None:
        """Find ``game`` by what it is found by from now on: by its pk, or the game itself
        while it waits to be written with its batch (``publisher``: its name, as the
        game's publisher may not be written yet either)."""
        row = game if game.pk is None else game.pk
        if game.ean:
            self.remember(self.by_ean, game.ean, row)
        if publisher is None:
            publisher = game.publisher.name if game.publisher_id else ""
        self.remember(self.by_title, (title_key(game.title), publisher.casefold()), row)
        if source_id:
            self.remember(self.by_source, source_id, row)

    def remember(self, table: dict, key: str, row) -> None:
        self.created.append((table, key, table.get(key, FORGOTTEN)))
        table[key] = row

    def mark(self) -> int:
        return len(self.created)

    def forget_since(self, mark: int) -> None:
        """Undo what was remembered since ``mark``: what a key named before comes back."""
        for table, key, before in reversed(self.created[mark:]):
            if before is FORGOTTEN:
                table.pop(key, None)
            else:
                table[key] = before
        del self.created[mark:]


class RecordRefused(Exception):
    """A record that cannot go in, with the reason the report gives."""


class DryRunRollback(Exception):
    pass


@dataclass
class ImportOptions:
    dry_run: bool = False
    overwrite: bool = False  # a re-import replaces staff edits too
    other_types: bool = False  # books imported as what they are
    default_esar: str = ""  # for records that name no ESAR category
    custom_fields: dict[str, str] = field(default_factory=dict)


@dataclass
class RecordOutcome:
    number: int
    action: str  # created, updated, unchanged, duplicate, skipped, failed
    title: str = ""
    reason: str = ""
    encoding: str = ""
    game_id: int | None = None
    mapped: list[tuple[str, str, str]] = field(default_factory=list)
    unmapped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # fields staff had edited, left alone


@dataclass
class ImportReport:
    dry_run: bool = False
    outcomes: list[RecordOutcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def counts(self) -> Counter:
        return Counter(outcome.action for outcome in self.outcomes)

    @property
    def failed(self) -> list[RecordOutcome]:
        return [o for o in self.outcomes if o.action == "failed"]


ACTION_LABELS = {
    # A record the import made a game of ("created" alone is also a date field's name).
    "created": pgettext_lazy("import outcome", "created"),
    "updated": pgettext_lazy("import outcome", "updated"),  # not the date field's "updated on"
    "unchanged": gettext_lazy("unchanged"),
    "duplicate": gettext_lazy("duplicate, left alone"),
    "skipped": gettext_lazy("skipped"),
    "failed": gettext_lazy("failed"),
}


def require(user, codename: str, what: str) -> None:
    """As the admin's forms would: the user holds games.<codename>, or the app's permission
    named in full (lending.add_copy) (code, no user: trusted)."""
    permission = codename if "." in codename else f"games.{codename}"
    if user is not None and not user.has_perm(permission):
        raise RecordRefused(NO_PERMISSION % {"action": ACTIONS[codename], "what": what})


def game_values(game: Game) -> dict:
    """A game's imported fields as plain values: what provenance keeps, the export writes
    and the round-trip test compares."""
    credits = game.credits.select_related("person").order_by("order", "id")
    return {
        "title": game.title,
        "sort_title": game.sort_title,
        "document_type": game.document_type,
        "authors": [[c.person.name, c.role] for c in credits],
        "publisher": game.publisher.name if game.publisher_id else "",
        "year": game.year,
        "languages": sorted(game.languages.values_list("code", flat=True)),
        "esar": game.esar.code if game.esar_id else "",
        "min_players": game.min_players,
        "max_players": game.max_players,
        "min_age": game.min_age,
        "max_age": game.max_age,
        "duration_minutes": game.duration_minutes,
        "principle": game.principle,
        "pedagogical_analysis": game.pedagogical_analysis,
        "rules": game.rules,
        "contents": game.contents,
        "ean": game.ean,
        "bgg_id": game.bgg_id,
    }


def record_values(data: GameData) -> dict:
    """The record's values in ``game_values``'s shape; what it does not give is empty."""
    values = {}
    for name in FIELDS:
        value = data.values.get(name, EMPTY.get(name, ""))
        if name == "authors":
            value = [list(credit) for credit in value]
        if name == "languages":
            value = sorted(value)
        values[name] = value
    return values


def title_key(title: str) -> str:
    """A title as duplicates are found by: folded, punctuation ignored."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", fold(title)).split())


def duplicate_of(data: GameData, vocabulary) -> tuple[int | Game | None, str]:
    """What this record already is, from what the vocabulary knows: by EAN, then title and
    publisher, then the record number an earlier import of it kept. A game's pk, or a new
    game of this batch not written yet (a ``Game`` whose pk is None until it is)."""
    values = data.values
    if values.get("ean") and values["ean"] in vocabulary.by_ean:
        return vocabulary.by_ean[values["ean"]], _("EAN %(ean)s") % {"ean": values["ean"]}
    key = (title_key(values.get("title", "")), values.get("publisher", "").casefold())
    if key in vocabulary.by_title:
        return vocabulary.by_title[key], _("title and publisher")
    if data.source_id in vocabulary.by_source:
        return vocabulary.by_source[data.source_id], _("record number %(id)s") % {
            "id": data.source_id
        }
    return None, ""


def find_duplicate(data: GameData, vocabulary) -> tuple[Game | None, str]:
    """The game this record already is (``duplicate_of``), read from the database."""
    found, how = duplicate_of(data, vocabulary)
    pk = found.pk if isinstance(found, Game) else found
    game = Game.objects.filter(pk=pk).first() if pk is not None else None
    return game, (how if game else "")


def unique_slug(title: str, vocabulary) -> str:
    """The title's slug, numbered when another game has it (``vocabulary.slugs``)."""
    base = slug_for(title)[:180] or "jeu"
    slug, n = base, 1
    while slug in vocabulary.slugs:
        n += 1
        slug = f"{base}-{n}"
    vocabulary.remember(vocabulary.slugs, slug, None)
    return slug


def validation_reason(error: ValidationError) -> str:
    if hasattr(error, "message_dict"):
        parts = []
        for name, messages in error.message_dict.items():
            label = (
                Game._meta.get_field(name).verbose_name
                if name in {f.name for f in Game._meta.get_fields()}
                else name
            )
            parts.append(f"{label}: {' '.join(str(m) for m in messages)}")
        return "; ".join(parts)
    return " ".join(str(m) for m in error.messages)


def named(table: dict, key: str, make, codename: str, *, user, vocabulary, new=None):
    """The vocabulary's row under ``key`` (a publisher, a person, a language), made with
    ``make()`` if there is none, by a user who may add one: saved at once, or appended to
    ``new`` to be written in bulk with its batch."""
    row = table.get(key)
    if row is None:
        require(user, codename, key)
        row = make()
        if new is None:
            row.save()
        else:
            new.append(row)
        vocabulary.remember(table, key, row)
    return row


def set_fields(
    game: Game, values: dict, names: list[str], *, user, vocabulary: Vocabulary, new=None
) -> None:
    """Set the game's own fields among ``names`` and validate it, as its form would
    (``new``: the bulk path's list of publishers to write, see ``named``)."""
    scalar = [n for n in names if n not in ("authors", "languages", "publisher", "esar")]
    for name in scalar:
        setattr(game, name, values[name])
    if "publisher" in names:
        name = values["publisher"]
        game.publisher = (
            named(
                vocabulary.publishers,
                name,
                lambda: Publisher(name=name),
                "add_publisher",
                user=user,
                vocabulary=vocabulary,
                new=new,
            )
            if name
            else None
        )
    if "esar" in names:
        code = values["esar"]
        category = vocabulary.esar.get(code) if code else None
        if category is None:
            raise RecordRefused(
                _("No ESAR category (custom field, 686, 676 or 606).")
                if not code
                else _("The ESAR category %(code)s is not in the vocabulary.") % {"code": code}
            )
        game.esar = category
    if not game.slug:
        game.slug = unique_slug(game.title, vocabulary)
    try:
        # The check constraints mirror Game.clean(), and publisher and category were just
        # read from the database: validating them again cost a query each.
        game.full_clean(exclude=["slug", "image", "publisher", "esar"], validate_constraints=False)
    except ValidationError as error:
        raise RecordRefused(validation_reason(error)) from None


def languages_named(codes: list[str], *, user, vocabulary: Vocabulary, new=None) -> list:
    return [
        named(
            vocabulary.languages,
            code,
            lambda code=code: Language(code=code),
            "add_language",
            user=user,
            vocabulary=vocabulary,
            new=new,
        )
        for code in codes
    ]


def credit_rows(game: Game, credits: list, *, user, vocabulary: Vocabulary, new=None) -> list:
    return [
        GameAuthor(
            game=game,
            person=named(
                vocabulary.people,
                name,
                lambda name=name: Person(name=name[:200]),
                "add_person",
                user=user,
                vocabulary=vocabulary,
                new=new,
            ),
            role=role,
            order=order,
        )
        for order, (name, role) in enumerate(credits)
    ]


def apply_values(
    game: Game, values: dict, names: list[str], *, user, vocabulary: Vocabulary
) -> None:
    """Set ``names`` of ``values`` on ``game`` (saved, with its credits and languages)."""
    is_new = game.pk is None
    set_fields(game, values, names, user=user, vocabulary=vocabulary)
    game.save()
    if "languages" in names:
        languages = languages_named(values["languages"], user=user, vocabulary=vocabulary)
        through = Game.languages.through
        if not is_new:
            through.objects.filter(game_id=game.pk).delete()
        # In bulk, without m2m signals, as the credits.
        through.objects.bulk_create(
            [through(game_id=game.pk, language_id=language.pk) for language in languages]
        )
    if "authors" in names:
        set_credits(game, values["authors"], user=user, vocabulary=vocabulary)


def set_credits(game: Game, credits: list, *, user, vocabulary: Vocabulary) -> None:
    current = list(game.credits.select_related("person").order_by("order", "id")) if game.pk else []
    if [[c.person.name, c.role] for c in current] == credits:
        return
    removed = {(c.person.name, c.role) for c in current} - {tuple(c) for c in credits}
    if removed:
        require(user, "delete_gameauthor", ", ".join(sorted(f"{n} ({r})" for n, r in removed)))
    if current:
        game.credits.all().delete()
    # In bulk, without the per-row signals: the game is indexed and versioned with its
    # credits once they are all there (``import_one``).
    GameAuthor.objects.bulk_create(credit_rows(game, credits, user=user, vocabulary=vocabulary))


def copies_to_add(game: Game, data: GameData, outcome: RecordOutcome, known: dict) -> list:
    """The record's copies (995/996) the catalogue does not have yet, by barcode
    (``known``: barcode → the game, or its pk, that has it). A copy already known is left
    as the desk keeps it; a barcode on another game is noted."""
    new, seen = [], set()
    default_section = pmb.site()["default_section"]
    for copy in data.copies:
        if not copy.barcode:
            outcome.notes.append(_("A copy without a barcode (995 $f): left out."))
            continue
        if copy.barcode in seen:
            continue
        if copy.barcode in known:
            owner = known[copy.barcode]
            if not (owner is game or (game.pk is not None and owner == game.pk)):
                outcome.notes.append(
                    _("Barcode %(barcode)s is already a copy of another game: left out.")
                    % {"barcode": copy.barcode}
                )
            continue
        seen.add(copy.barcode)
        status, understood = status_from_pmb(copy.status, copy.status_code)
        note = copy.note
        if not understood:
            note = "\n".join(part for part in (note, copy.status) if part)
        try:
            acquired = date.fromisoformat(copy.acquired) if copy.acquired else None
        except ValueError:
            acquired = None
        # The section the export gives a copy without one reads back as none.
        section = "" if copy.section == default_section else copy.section
        new.append(
            Copy(
                game=game,
                barcode=copy.barcode[:50],
                call_number=copy.call_number[:50],
                location=copy.location[:100],
                section=section[:100],
                status=status,
                condition_note=note,
                acquired=acquired,
            )
        )
    return new


def import_copies(game: Game, data: GameData, outcome: RecordOutcome, *, user) -> None:
    """The record's new copies (``copies_to_add``), written."""
    if not data.copies:
        return
    known = dict(
        Copy.objects.filter(barcode__in=[c.barcode for c in data.copies]).values_list(
            "barcode", "game_id"
        )
    )
    new = copies_to_add(game, data, outcome, known)
    if new:
        require(user, "lending.add_copy", ", ".join(c.barcode for c in new))
        Copy.objects.bulk_create(new)


def screen(data: GameData, options: ImportOptions) -> tuple[RecordOutcome, dict | None]:
    """What can be said of a record before the catalogue is asked: its outcome so far
    and the values it gives, or no values when it is skipped (RecordRefused when it
    cannot go in)."""
    outcome = RecordOutcome(
        number=data.number,
        action="created",
        title=data.title,
        mapped=data.mapped,
        unmapped=data.unmapped,
        notes=list(data.notes),
    )
    if data.leader_level == "s":
        outcome.action = "skipped"
        outcome.reason = _("Not a game: a periodical (leader/07 “s”).")
        return outcome, None
    allowed = GAME_TYPES | (OTHER_TYPES if options.other_types else set())
    if data.leader_type not in allowed:
        name = LEADER_TYPE_NAMES.get(data.leader_type, data.leader_type or "?")
        outcome.action = "skipped"
        outcome.reason = _("Not a game: leader/06 is “%(code)s” (%(name)s).") % {
            "code": data.leader_type,
            "name": name,
        }
        return outcome, None
    if "title" not in data.values:
        raise RecordRefused(_("No title (200 $a)."))
    if data.errors:
        raise RecordRefused(" ".join(data.errors))
    new = record_values(data)
    if not new["esar"] and options.default_esar:
        new["esar"] = options.default_esar
        outcome.notes.append(
            _("No ESAR category in the record: %(code)s, as asked.")
            % {"code": options.default_esar}
        )
    return outcome, new


def import_one(
    data: GameData, options: ImportOptions, *, user, vocabulary: Vocabulary
) -> RecordOutcome:
    """One mapped record into the catalogue (the caller holds the savepoint)."""
    outcome, new = screen(data, options)
    if new is None:
        return outcome
    game, matched_by = find_duplicate(data, vocabulary)
    if game is None:
        require(user, "add_game", data.title)
        game = Game()
        apply_values(game, new, FIELDS, user=user, vocabulary=vocabulary)
        ImportedRecord.objects.create(
            game=game, source_id=data.source_id, imported_values=new, picture_url=data.picture_url
        )
        vocabulary.add_game(game, data.source_id)
        import_copies(game, data, outcome, user=user)
        checklist_from_contents(game=game, new=True)
        if not options.dry_run:
            reversion.add_to_revision(game)  # with its credits, once they are all there
        outcome.game_id = game.pk
        return outcome
    outcome.game_id = game.pk
    imported = ImportedRecord.objects.filter(game=game).first()
    if imported is None and not options.overwrite:
        outcome.action = "duplicate"
        outcome.reason = _(
            "Already in the catalogue as “%(title)s” (same %(how)s), not by an import: left alone."
        ) % {
            "title": game.title,
            "how": matched_by,
        }
        return outcome
    require(user, "change_game", game.title)
    current = game_values(game)
    before = imported.imported_values if imported else {}
    changed = []
    for name in FIELDS:
        if new[name] == current[name]:
            continue
        if new[name] == EMPTY.get(name, "") and current[name] != EMPTY.get(name, ""):
            # A record that says nothing of a field does not empty it, with or without
            # `overwrite`: a staff-made record's principle or rules stay.
            continue
        staff_edited = imported is not None and name in before and current[name] != before[name]
        if staff_edited and not options.overwrite:
            outcome.kept.append(name)
            continue
        changed.append(name)
    if changed:
        apply_values(
            game,
            {**current, **{n: new[n] for n in changed}},
            changed,
            user=user,
            vocabulary=vocabulary,
        )
    ImportedRecord.objects.update_or_create(
        game=game,
        defaults={
            "source_id": data.source_id,
            "imported_values": new,
            "picture_url": data.picture_url,
        },
    )
    vocabulary.add_game(game, data.source_id)
    import_copies(game, data, outcome, user=user)
    if changed and not options.dry_run:
        reversion.add_to_revision(game)
    outcome.action = "updated" if changed else "unchanged"
    if changed:
        outcome.reason = _("Changed: %(fields)s.") % {"fields": ", ".join(changed)}
    return outcome


_XML_RECORD_END = re.compile(rb"</(?:[^\s<>/:]+:)?record\s*>")


def record_count(content: bytes) -> int:
    """How many records the file holds (at least 1): an ISO 2709 file's record terminators
    (where its reader cuts it), an XML file's `record` elements as its parser reads them,
    whatever their namespace prefix (a non-ASCII one escaped a pattern of end tags: 16 000
    records were counted as one), or, for XML the parser refuses, its end tags."""
    if sniff_format(content) != "xml":
        return max(content.count(b"\x1d"), 1)
    counter = _RecordCounter()
    try:
        defusedxml.sax.parseString(content, counter)
    except (xml.sax.SAXException, defusedxml.DefusedXmlException):
        return max(len(_XML_RECORD_END.findall(content)), 1)
    return max(counter.records, 1)


class _RecordCounter(xml.sax.handler.ContentHandler):
    """Counts elements named `record`, with any prefix (namespaces are not resolved)."""

    def __init__(self):
        super().__init__()
        self.records = 0

    def endElement(self, name):  # noqa: N802 (SAX's name)
        if name.rpartition(":")[2] == "record":
            self.records += 1


def import_unimarc(
    content: bytes,
    *,
    options: ImportOptions,
    user=None,
    progress: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Import every record of a UNIMARC file (ISO 2709 or XML); never raises for what
    the file holds: every problem is in the report."""
    report = ImportReport(dry_run=options.dry_run)
    mapping = custom_field_mapping(options.custom_fields)
    total = record_count(content)
    items = read_file(content)
    done = 0
    vocabulary = Vocabulary()

    def step(_outcome):
        nonlocal done
        done += 1
        if progress:
            progress(done, max(total, done))

    with indexing_deferred():
        while batch := list(islice(items, COMMIT_EVERY)):
            # A transaction per batch: a commit per record cost a third of the import's
            # time on SQLite. Each game a record makes or changes is added to the batch's
            # one revision once it is whole (reversion's own handlers would serialise a
            # game again at every save of it or of what it holds).
            with transaction.atomic(), reversion.create_revision(manage_manually=True):
                if user is not None:
                    reversion.set_user(user)
                reversion.set_comment(_("UNIMARC import"))
                records = []
                for item in batch:
                    if isinstance(item, FileProblem):
                        report.problems.append(item.message)
                    else:
                        records.append(item)
                report.outcomes.extend(
                    import_batch(
                        records, options, mapping, user=user, vocabulary=vocabulary, step=step
                    )
                )
    return report


@dataclass
class NewGame:
    """A new game of a batch, made and checked in memory, to be written with the others."""

    item: ReadRecord
    data: GameData
    outcome: RecordOutcome
    game: Game
    values: dict
    languages: list[Language]
    credits: list[GameAuthor]
    copies: list[Copy]
    contents: list[ContentItem] = field(default_factory=list)  # its checklist, once written


class NewGames:
    """The new games of a batch waiting to be written, and the publishers, people and
    languages they name that the catalogue does not have yet."""

    def __init__(self):
        self.games: list[NewGame] = []
        self.rows: list = []  # new publishers, people and languages, in the order made
        self.mark = 0  # the vocabulary's mark before the first of them


def import_batch(
    records: list[ReadRecord],
    options: ImportOptions,
    mapping,
    *,
    user,
    vocabulary: Vocabulary,
    step: Callable[[RecordOutcome], None],
) -> list[RecordOutcome]:
    """The outcomes of a batch's records, in their order. A record that is a new game is
    made and checked in memory (``prepare_new``) and written with the batch's other new
    games, a statement per table (``write_new``); a record that may update a game, or
    that the catalogue must be asked about, goes in on its own (``import_mapped``), once
    the new games before it are written."""
    outcomes: list[RecordOutcome] = []
    mapped = [(item, map_read(item, mapping)) for item in records]
    # The barcodes of the batch's copies that the catalogue has: one query, not one a record.
    barcodes = [copy.barcode for _item, data in mapped if isinstance(data, GameData)
                for copy in data.copies if copy.barcode]  # fmt: skip
    vocabulary.barcodes = dict(
        Copy.objects.filter(barcode__in=barcodes).values_list("barcode", "game_id")
    )
    pending = NewGames()

    def flush():
        nonlocal pending
        if pending.games:
            write_pending(pending, outcomes, options, user=user, vocabulary=vocabulary)
        pending = NewGames()

    for item, data in mapped:
        mark = vocabulary.mark()
        if isinstance(data, RecordOutcome):
            sorted_out = data
        else:
            sorted_out = sort_record(
                item, data, options, user=user, vocabulary=vocabulary, pending=pending
            )
        if isinstance(sorted_out, NewGame):
            if not pending.games:
                pending.mark = mark  # what a failed write of them forgets
            pending.games.append(sorted_out)
            outcomes.append(sorted_out.outcome)
        elif sorted_out is not None:
            outcomes.append(sorted_out)
        else:
            flush()
            outcomes.append(import_mapped(item, data, options, user=user, vocabulary=vocabulary))
            copies_written(data, vocabulary)
        step(outcomes[-1])
    flush()
    return outcomes


def copies_written(data: GameData, vocabulary: Vocabulary) -> None:
    """A record went in on its own: the batch's later records see the copies it wrote."""
    codes = [copy.barcode for copy in data.copies if copy.barcode]
    if codes:
        vocabulary.barcodes.update(
            Copy.objects.filter(barcode__in=codes).values_list("barcode", "game_id")
        )


def sort_record(
    item: ReadRecord,
    data: GameData,
    options: ImportOptions,
    *,
    user,
    vocabulary: Vocabulary,
    pending: NewGames,
) -> NewGame | RecordOutcome | None:
    """A new game to write with the batch, an outcome already known (skipped, refused),
    or None: the record goes in on its own (it may be a game of the catalogue)."""
    mark, rows = vocabulary.mark(), len(pending.rows)
    try:
        outcome, values = screen(data, options)
        if values is None:
            outcome.encoding = item.encoding_note
            return outcome
        if duplicate_of(data, vocabulary)[0] is not None:
            return None
        return prepare_new(
            item, data, outcome, values, user=user, vocabulary=vocabulary, pending=pending,
            dry_run=options.dry_run,
        )  # fmt: skip
    except RecordRefused as refusal:
        vocabulary.forget_since(mark)
        del pending.rows[rows:]  # the publishers and people it made are not written
        return refused(item, data, refusal)
    except (ValueError, TypeError):
        # What only the database would say why: on its own, it is reported as it does.
        vocabulary.forget_since(mark)
        del pending.rows[rows:]
        return None


def prepare_new(
    item: ReadRecord,
    data: GameData,
    outcome: RecordOutcome,
    values: dict,
    *,
    user,
    vocabulary: Vocabulary,
    pending: NewGames,
    dry_run: bool,
) -> NewGame:
    """A record that is no game of the catalogue, made into a new game in memory with
    the same checks, in the same order, as ``import_one`` (RecordRefused otherwise)."""
    require(user, "add_game", data.title)
    game = Game()
    set_fields(game, values, FIELDS, user=user, vocabulary=vocabulary, new=pending.rows)
    # As Game.save() does; bulk_create does not call it.
    game.search_title = fold(game.title)
    game.fill_sort_title()
    languages = languages_named(
        values["languages"], user=user, vocabulary=vocabulary, new=pending.rows
    )
    credits = credit_rows(
        game, values["authors"], user=user, vocabulary=vocabulary, new=pending.rows
    )
    copies = copies_to_add(game, data, outcome, vocabulary.barcodes)
    if copies:
        require(user, "lending.add_copy", ", ".join(c.barcode for c in copies))
    if not dry_run:
        # A dry run rolls every record back: the next ones must not find this one
        # (as ``import_mapped`` forgets a record it rolled back).
        vocabulary.add_game(game, data.source_id, publisher=values["publisher"])
        for copy in copies:
            vocabulary.remember(vocabulary.barcodes, copy.barcode, game)
    outcome.encoding = item.encoding_note
    return NewGame(item, data, outcome, game, values, languages, credits, copies)


def write_new(pending: NewGames, *, dry_run: bool) -> None:
    """The batch's new games with everything they hold: a statement per table, no
    per-row signals (``catalogue_changed`` is told of them all at once)."""
    for model in (Publisher, Person, Language):
        model.objects.bulk_create([row for row in pending.rows if type(row) is model])
    news = pending.games
    Game.objects.bulk_create([new.game for new in news])
    through = Game.languages.through
    through.objects.bulk_create(
        [
            through(game_id=new.game.pk, language_id=language.pk)
            for new in news
            for language in new.languages
        ]
    )
    GameAuthor.objects.bulk_create([credit for new in news for credit in new.credits])
    ImportedRecord.objects.bulk_create(
        [
            ImportedRecord(
                game=new.game,
                source_id=new.data.source_id,
                imported_values=new.values,
                picture_url=new.data.picture_url,
            )
            for new in news
        ]
    )
    Copy.objects.bulk_create([copy for new in news for copy in new.copies])
    for new in news:
        new.contents = [
            ContentItem(game=new.game, name_fr=name, count=count, order=order)
            for order, (count, name) in enumerate(parse_contents(new.game.contents))
        ]
    ContentItem.objects.bulk_create([item for new in news for item in new.contents])
    if not dry_run:
        catalogue_changed([new.game.pk for new in news])


def write_pending(
    pending: NewGames, outcomes: list, options: ImportOptions, *, user, vocabulary: Vocabulary
) -> None:
    """Write the pending new games (``write_new``) and version each, with its credits,
    contents and copies. If the database refuses the lot (a value too long for a
    PostgreSQL column, two names that are one person once cut to 200 characters…), they
    go in one at a time, each on its own, so that the one it refuses is reported with its
    reason and the others go in."""
    try:
        with transaction.atomic():
            write_new(pending, dry_run=options.dry_run)
            if options.dry_run:
                raise DryRunRollback
    except DryRunRollback:
        vocabulary.forget_since(pending.mark)
        return
    except DatabaseError:
        vocabulary.forget_since(pending.mark)
        places = {id(outcome): n for n, outcome in enumerate(outcomes)}
        for new in pending.games:
            outcome = import_mapped(new.item, new.data, options, user=user, vocabulary=vocabulary)
            outcomes[places[id(new.outcome)]] = outcome
            copies_written(new.data, vocabulary)
        return
    for new in pending.games:
        new.outcome.game_id = new.game.pk
    write_history(pending)


def write_history(pending: NewGames) -> None:
    """Each new game into the batch's revision (``import_unimarc`` names who imported
    and why), with what django-reversion follows from it: what its admin page edits with
    it (credits, contents, copies). Read in one query per relation first, so that
    following them costs no query a game."""
    games = [new.game for new in pending.games]
    prefetch_related_objects(
        games, "languages", "credits__person", "content_items", "copies", "summaries"
    )
    for game in games:
        reversion.add_to_revision(game)


def map_read(item: ReadRecord, mapping) -> GameData | RecordOutcome:
    """The record mapped, or its failure."""
    if item.record is None:
        return RecordOutcome(number=item.number, action="failed", reason=item.error)
    try:
        return map_record(item.record, number=item.number, custom_fields=mapping)
    except Exception as error:  # noqa: BLE001 - a record pymarc accepted but nobody can read
        return RecordOutcome(
            number=item.number,
            action="failed",
            reason=_("Unreadable: %(error)s") % {"error": error},
        )


def refused(item: ReadRecord, data: GameData, refusal: RecordRefused) -> RecordOutcome:
    return RecordOutcome(
        number=item.number,
        action="failed",
        title=data.title,
        reason=str(refusal),
        mapped=data.mapped,
        unmapped=data.unmapped,
        notes=data.notes,
        encoding=item.encoding_note,
    )


def import_mapped(
    item: ReadRecord, data: GameData, options: ImportOptions, *, user, vocabulary: Vocabulary
) -> RecordOutcome:
    """One record on its own, in its own savepoint: all of it goes in, or nothing."""
    mark = vocabulary.mark()
    try:
        with transaction.atomic():
            outcome = import_one(data, options, user=user, vocabulary=vocabulary)
            if options.dry_run:
                raise DryRunRollback
    except DryRunRollback:
        vocabulary.forget_since(mark)
    except RecordRefused as refusal:
        vocabulary.forget_since(mark)
        outcome = refused(item, data, refusal)
    except (DatabaseError, ValueError, TypeError) as error:
        vocabulary.forget_since(mark)
        outcome = RecordOutcome(
            number=item.number,
            action="failed",
            title=data.title,
            reason=_("The database refused it: %(error)s") % {"error": error},
        )
    outcome.encoding = item.encoding_note
    return outcome
