"""CI runs the suite on SQLite, then again on PostgreSQL with ``--database-tests-only``:
a test that reaches the database must never be left out of that second run."""

import pytest
from django.test import TestCase

from catalogue.testing import reaches_the_database


@pytest.mark.django_db
def test_a_test_marked_for_the_database_runs_again_on_postgresql(request):
    assert reaches_the_database(request.node)


def test_a_test_asking_for_the_database_through_a_fixture_runs_again(request, seed):
    assert reaches_the_database(request.node)


def test_a_test_with_a_live_server_runs_again(request, live_server):
    assert reaches_the_database(request.node)


def test_a_pure_test_runs_once(request):
    assert not reaches_the_database(request.node)


class TestADjangoTestCase(TestCase):
    def test_runs_again_on_postgresql(self):
        # unittest cases have no `request`; the selection looks at the class.
        from types import SimpleNamespace

        item = SimpleNamespace(
            get_closest_marker=lambda name: None, fixturenames=(), cls=type(self)
        )
        assert reaches_the_database(item)
