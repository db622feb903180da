"""Fixtures shared by every test module."""

import pytest
from django.core.management import call_command

SEED_FIXTURES = ["fixtures/esar.json", "fixtures/games.json"]


@pytest.fixture
def seed(db):
    """The three seed games with their ESAR categories and people."""
    call_command("loaddata", *SEED_FIXTURES, verbosity=0)
