"""A file of more records than a request has time for is imported in the background by
the task worker (django-tasks' database backend), with a page that follows it."""

import re

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import search
from games.esar import ensure_facet_a
from games.models import Game
from games.unimarc.models import ImportJob
from games.unimarc.tests import corpus


@pytest.fixture
def volunteer(db, monkeypatch):
    ensure_facet_a()
    monkeypatch.setattr("games.unimarc.admin.MAX_UPLOAD_RECORDS", 2)
    user = User.objects.create_user("vol", is_staff=True)
    user.groups.add(Group.objects.get(name="Ludothécaire"))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def boss(transactional_db, monkeypatch):
    """A superuser: a transactional test's database has no groups (it is flushed)."""
    ensure_facet_a()
    monkeypatch.setattr("games.unimarc.admin.MAX_UPLOAD_RECORDS", 2)
    client = Client()
    client.force_login(User.objects.create_superuser("boss"))
    return client


def upload(client, content, **fields):
    with translation.override("en"):
        return client.post(
            reverse("admin:games_game_import_unimarc"),
            {"file": SimpleUploadedFile("catalogue.iso", content), **fields},
        )


def page(client, job):
    with translation.override("en"):
        url = reverse("admin:games_game_import_unimarc_job", kwargs={"pk": job.pk})
        return client.get(url).content.decode()


def run_worker():
    """The worker as ``make run`` starts it, until the queue is empty."""
    call_command("db_worker", "--batch", "--no-startup-delay", "--interval", "0", verbosity=0)


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_a_large_upload_goes_to_the_worker_and_every_record_is_indexed(boss):
    volunteer = boss
    response = upload(volunteer, corpus.iso(corpus.seeds()), default_esar="A 400")
    job = ImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"].endswith(f"/import-unimarc/{job.pk}/")
    assert not Game.objects.exists()  # the request imported nothing itself
    waiting = page(volunteer, job)
    assert "waiting for the worker" in waiting and 'http-equiv="refresh"' in waiting
    assert "0 of 3 records read." in waiting
    run_worker()
    job.refresh_from_db()
    assert (job.status, job.done, job.records, job.content) == ("done", 3, 3, b"")
    assert Game.objects.count() == 3
    for game in Game.objects.all():  # each one found by a word of its title
        word = max(re.findall(r"\w+", game.title), key=len)
        assert game.slug in search.search(Game.objects.all(), word, rank=False).values_list(
            "slug", flat=True
        )
    finished = page(volunteer, job)
    assert "Done: 3 created." in finished and "3 of 3 records read." in finished
    assert 'http-equiv="refresh"' not in finished


def test_records_are_counted_as_the_parser_reads_them_under_any_namespace_prefix(volunteer):
    content = corpus.xml(corpus.seeds()).decode("utf-8")
    prefix = re.search(r"<(\w+):record", content)
    renamed = content if prefix is None else content.replace(f"{prefix.group(1)}:", "złoty:")
    if prefix is None:  # records in no namespace: give them a non-ASCII prefix
        renamed = re.sub(r"<(/?)(\w+)([ >/])", r"<\1złoty:\2\3", content)
        renamed = renamed.replace("<złoty:collection", '<złoty:collection xmlns:złoty="x"', 1)
    response = upload(volunteer, renamed.encode("utf-8"), default_esar="A 400")
    assert response.status_code == 302  # 3 records: more than the request's 2
    assert ImportJob.objects.get().records == 3


@pytest.mark.django_db(transaction=True)  # the worker closes its connections
def test_a_background_dry_run_changes_nothing_and_reports(boss):
    volunteer = boss
    upload(volunteer, corpus.iso(corpus.seeds()), default_esar="A 400", dry_run="on")
    run_worker()
    job = ImportJob.objects.get()
    assert not Game.objects.exists()
    assert "Dry run, nothing changed: 3 created." in page(volunteer, job)


def test_a_small_upload_is_still_imported_within_the_request(volunteer):
    response = upload(volunteer, corpus.iso(corpus.seeds()[:2]), default_esar="A 400")
    assert response.status_code == 200 and "Done: 2 created." in response.content.decode()
    assert not ImportJob.objects.exists()


def test_a_job_is_its_uploaders_to_follow(volunteer):
    upload(volunteer, corpus.iso(corpus.seeds()), default_esar="A 400")
    job = ImportJob.objects.get()
    other = User.objects.create_user("other", is_staff=True)
    other.groups.add(Group.objects.get(name="Ludothécaire"))
    client = Client()
    client.force_login(other)
    url = reverse("admin:games_game_import_unimarc_job", kwargs={"pk": job.pk})
    assert client.get(url).status_code == 403
    missing = reverse("admin:games_game_import_unimarc_job", kwargs={"pk": job.pk + 1})
    assert volunteer.get(missing).status_code == 404
