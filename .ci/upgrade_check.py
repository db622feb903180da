"""Populate a database with one release, then check every page with the next one.

    python .ci/upgrade_check.py populate   # run from the previous release's tree
    python .ci/upgrade_check.py check      # run from this tree, after `migrate`

`populate` uses only what the previous release offers (its models and services): games
edited, a rule summary added and one changed, matches in play and finished, and, when that
release has copies, copies with a check and a volunteer of the Ludothécaire group. `check`
asks for every page and API answer a visitor can reach over that data, each language, every
match (read, and an action posted in each match still in play), the desk's pages as that
volunteer (the copies and the group's permissions must have survived), and fails on any 5xx.
"""

import os
import random
import sys

sys.path.insert(0, os.getcwd())  # the release whose code runs: the current directory's
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catalogue.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

MATCHES_IN_PLAY = 6
MATCHES_FINISHED = 2
# The copies `populate` writes when the previous release has them: barcode → status.
COPIES = {"UPG001": "available", "UPG002": "incomplete", "UPG/003": "on_loan"}
VOLUNTEER = "upgrade-desk"


def populate():
    from games.models import Game, RuleSummary
    from paletti import engine, services

    call_command("seed", verbosity=0)
    for game in Game.objects.all():
        game.principle = f"{game.principle}\n\nNotice revue par la ludothèque."
        game.save()
    alhambra = Game.objects.get(slug="alhambra")
    RuleSummary.objects.update_or_create(
        game=alhambra, language="en", defaults={"text": "## Goal\n\nBuild the finest palace."}
    )
    summary = RuleSummary.objects.filter(game__slug="villa-paletti").first()
    summary.text += "\n\nRelu en décembre."
    summary.save()
    rng = random.Random(1)  # noqa: S311
    seats = [services.SeatSpec("Ada"), services.SeatSpec("Robot", "bot", "easy")]
    for n in range(MATCHES_IN_PLAY):
        outcome = services.create_match(seats=seats, seed=100 + n)
        for _ in range(n):  # some fresh, some a few turns in
            outcome = _play_once(services, engine, outcome.match, rng)
    people = [services.SeatSpec("Ada"), services.SeatSpec("Bo")]
    finished = 0
    for n in range(40):
        outcome = services.create_match(seats=people, seed=200 + n)
        for _ in range(400):
            if _phase(outcome.state.rules) == "over":
                finished += 1
                break
            outcome = _play_once(services, engine, outcome.match, rng)
        if finished == MATCHES_FINISHED:
            break
    copies = _populate_copies()
    records = _populate_imported_record()
    print(
        f"populated: {Game.objects.count()} games, {MATCHES_IN_PLAY} matches in play, "
        f"{finished} finished, {copies} copies, {records} imported record"
    )
    if finished < MATCHES_FINISHED:
        sys.exit("could not finish the matches to upgrade")


def _phase(rules) -> str:
    """The rules' phase: a dict in earlier engines, an object in later ones."""
    return rules["phase"] if isinstance(rules, dict) else rules.phase


def _populate_copies() -> int:
    """Copies, a check that found a piece short, and a volunteer: if the release has them."""
    from django.contrib.auth.models import Group, User

    from games import models

    if not hasattr(models, "Copy"):  # copies came later, or live in their own app
        return 0
    villa = models.Game.objects.get(slug="villa-paletti")
    for barcode, status in COPIES.items():
        models.Copy.objects.create(game=villa, barcode=barcode, status=status)
    check = models.CopyCheck.objects.create(
        copy=models.Copy.objects.get(barcode="UPG002"), complete=False
    )
    for item in villa.content_items.all():
        found = item.count - 1 if item.count > 1 else item.count
        models.CopyCheckLine.objects.create(
            copy_check=check, item=item, expected=item.count, found=found
        )
    user = User.objects.create_user(VOLUNTEER, is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    return len(COPIES)


IMPORTED = {"source_id": "PMB-UPG-1", "imported_values": {"200$a": "Alhambra"}}


def _populate_imported_record() -> int:
    """A record imported from PMB, where the release keeps it in the catalogue's app."""
    from games import models

    if not hasattr(models, "ImportedRecord"):  # earlier, or in the exchange's own app
        return 0
    alhambra = models.Game.objects.get(slug="alhambra")
    models.ImportedRecord.objects.create(game=alhambra, **IMPORTED)
    return 1


def _check_imported_record() -> str:
    """The imported record the previous release held, still tied to its game."""
    from games.unimarc.models import ImportedRecord

    kept = list(ImportedRecord.objects.values("game__slug", "source_id", "imported_values"))
    if not kept:
        return "no imported record in the previous release"
    wanted = [{"game__slug": "alhambra", **IMPORTED}]
    if kept != wanted:
        sys.exit(f"imported records lost or changed by the upgrade: {kept}")
    return "1 imported record kept"


def _play_once(services, engine, match, rng):
    match = services.get_match(match.pk)
    state = services.load_state(match)
    action = engine.choose_action(state, "easy", rng)
    return services.play(match=match, version=match.version, action=action)


def check():
    from django.conf import settings
    from django.test import Client
    from django.urls import reverse
    from django.utils import translation

    from games.models import Game
    from paletti.models import Match, MatchStatus

    client = Client(raise_request_exception=False)
    answers = []

    def ask(url, method="get", **kwargs):
        response = getattr(client, method)(url, **kwargs)
        answers.append((response.status_code, method.upper(), url))
        return response

    games = list(Game.objects.prefetch_related("summaries"))
    matches = list(Match.objects.all())
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            ask(reverse("games:home"))
            ask(reverse("games:game-list"))
            ask(reverse("games:game-list"), data={"q": "palais"})
            ask(reverse("paletti:setup"))
            ask(reverse("admin:login"))
            for game in games:
                ask(reverse("games:game-detail", kwargs={"slug": game.slug}))
                ask(reverse("games:game-rules-compare", kwargs={"slug": game.slug}))
                for summary in game.summaries.all():
                    kwargs = {"slug": game.slug, "language": summary.language}
                    ask(reverse("games:game-rules", kwargs=kwargs))
            for match in matches:
                ask(reverse("paletti:match", kwargs={"match_id": match.pk}))
    ask(reverse("healthz"))
    ask(reverse("api:game-list"))
    ask(reverse("api:game-list"), data={"q": "palais"})
    ask(reverse("api:game-suggest"), data={"q": "pal"})
    ask(reverse("api:esar-list"))
    for game in games:
        ask(reverse("api:game-detail", kwargs={"slug": game.slug}))
        ask(reverse("api:game-rules", kwargs={"slug": game.slug}))
    desk = f"{_check_desk(client, ask)}; {_check_imported_record()}"
    played = 0
    outdated = 0
    for match in matches:
        state = ask(reverse("api:paletti-match-detail", kwargs={"match_id": match.pk}))
        # A match an earlier engine stored says so (410), never a 500.
        outdated += state.status_code == 410 and state.json().get("code") == "outdated_match"
        if match.status != MatchStatus.PLAYING or state.status_code != 200:
            continue
        body = state.json()
        if body.get("legal_actions"):
            url = reverse("api:paletti-match-actions", kwargs={"match_id": match.pk})
            action = {"version": body["version"], "action": body["legal_actions"][0]}
            ask(url, "post", data=action, content_type="application/json")
            played += 1
    errors = [answer for answer in answers if answer[0] >= 500]
    unhealthy = [answer for answer in answers if answer[2] == reverse("healthz")][0][0] != 200
    counts = {}
    for code, _method, _url in answers:
        counts[code] = counts.get(code, 0) + 1
    print(
        f"checked {len(answers)} answers after the upgrade: {dict(sorted(counts.items()))}; "
        f"{len(matches)} matches read, an action posted in {played}, "
        f"{outdated} said to be no longer playable (stored by an earlier engine); {desk}"
    )
    match_pages = [a for a in answers if "/paletti/" in a[2] and a[1] == "GET"]
    wrong = [a for a in match_pages if a[0] not in (200, 410)]
    for answer in wrong:
        print("  a match answered neither 200 nor 410:", *answer)
    errors += wrong
    wrong_desk = [a for a in answers if "/desk/" in a[2] and a[0] != 200]
    for answer in wrong_desk:
        print("  a desk page answered the volunteer other than 200:", *answer)
    errors += wrong_desk
    for answer in errors:
        print("  5xx:", *answer)
    if errors or unhealthy:
        sys.exit("the upgraded site answers errors" if errors else "/healthz is not 200")


def _check_desk(client, ask) -> str:
    """The copies the previous release held, each on the desk as its volunteer sees it."""
    from django.contrib.auth.models import User
    from django.urls import reverse
    from django.utils import translation

    from games.lending.models import Copy, CopyCheck

    volunteer = User.objects.filter(username=VOLUNTEER).first()
    if volunteer is None:
        return "no copies in the previous release"
    held = dict(Copy.objects.filter(barcode__in=COPIES).values_list("barcode", "status"))
    if held != COPIES:
        sys.exit(f"copies lost or changed by the upgrade: {held} instead of {COPIES}")
    if not CopyCheck.objects.get(copy__barcode="UPG002").missing():
        sys.exit("the check of UPG002 lost its lines")
    client.force_login(volunteer)  # what it may do: its group's permissions
    with translation.override("fr"):
        ask(reverse("lending:desk"))
        for barcode in COPIES:
            ask(reverse("lending:desk-copy", kwargs={"barcode": barcode}))
    client.logout()
    return f"{len(held)} copies kept, their desk pages read by a volunteer"


if __name__ == "__main__":
    {"populate": populate, "check": check}[sys.argv[1]]()
