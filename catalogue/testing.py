"""What the test suite asks of itself: which tests reach the database (CI runs those again
on PostgreSQL, ``pytest --database-tests-only``)."""

# Fixtures through which a test reaches the database (pytest-django's own names; a fixture
# that needs one of them, like `seed`, lists it among the test's fixtures too).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def reaches_the_database(item) -> bool:
    from django.test import TransactionTestCase

    if item.get_closest_marker("django_db") is not None:
        return True
    if DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    cls = getattr(item, "cls", None)
    return cls is not None and issubclass(cls, TransactionTestCase)
