"""The two statements every action request runs, written out once.

Reading a match with its seats, and storing a turn (the new snapshot under the version
condition, plus the log rows), happen on every move. Built through the ORM (one
select_related query; a conditional update and a bulk_create in a transaction) they made an
action request 5 to 17 ms slower at the median on PostgreSQL, more than the 3 ms this code
has to save to be kept: 2 to 4 ms more Python, and three more round trips (BEGIN, a
separate INSERT, COMMIT). `bench/api_bench.py --compare-orm` times both, request by
request. So the SQL is composed once per database from the models' own table and column
names, and values go through each field's own conversion: the rows are exactly what the
ORM would read and write, on SQLite and on PostgreSQL alike.
"""

import functools

from django.db import connection, connections, transaction

from .models import Match, MatchAction, Seat

MATCH_FIELDS = ("id", "seed", "options", "status", "version", "snapshot", "state_hash")
SEAT_FIELDS = ("id", "index", "name", "kind", "level")
TURN_FIELDS = ("version", "snapshot", "state_hash", "status", "updated_at")
ACTION_FIELDS = ("match", "number", "seat", "action", "by_bot", "created_at")


def _column(model, name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)


# The statements below are composed from the models' metadata only; every value travels as
# a query parameter (hence the noqa: S608).


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


@functools.cache
def _read_sql(vendor: str) -> str:
    selected = [f"m.{_column(Match, f)}" for f in MATCH_FIELDS]
    selected += [f"s.{_column(Seat, f)}" for f in SEAT_FIELDS]
    match_id, seat_match = _column(Match, "id"), _column(Seat, "match")
    return (
        f"SELECT {', '.join(selected)} FROM {_table(Match)} m"  # noqa: S608
        f" JOIN {_table(Seat)} s ON s.{seat_match} = m.{match_id}"
        f" WHERE m.{match_id} = %s ORDER BY s.{_column(Seat, 'index')}"
    )


@functools.cache
def _update_sql(vendor: str) -> str:
    assignments = ", ".join(f"{_column(Match, f)} = %s" for f in TURN_FIELDS)
    return (
        f"UPDATE {_table(Match)} SET {assignments}"  # noqa: S608
        f" WHERE {_column(Match, 'id')} = %s AND {_column(Match, 'version')} = %s"
    )


@functools.cache
def _insert_sql(vendor: str, rows: int) -> str:
    columns = ", ".join(_column(MatchAction, f) for f in ACTION_FIELDS)
    row = "(" + ", ".join(["%s"] * len(ACTION_FIELDS)) + ")"
    return (
        f"INSERT INTO {_table(MatchAction)} ({columns})"  # noqa: S608
        f" VALUES {', '.join([row] * rows)}"
    )


@functools.cache
def _update_and_insert_sql(vendor: str, rows: int) -> str:
    """PostgreSQL: the update and the log rows in one statement, the rows inserted only if
    the update matched (one round trip instead of BEGIN, UPDATE, INSERT, COMMIT)."""
    columns = ", ".join(_column(MatchAction, f) for f in ACTION_FIELDS)
    given = ", ".join(f"given_{name}" for name in ACTION_FIELDS[1:])
    row = "(" + ", ".join(["%s"] * (len(ACTION_FIELDS) - 1)) + ")"
    match_id = _column(Match, "id")
    return (
        f"WITH moved AS ({_update_sql(vendor)} RETURNING {match_id})"  # noqa: S608
        f" INSERT INTO {_table(MatchAction)} ({columns})"
        f" SELECT moved.{match_id}, {given} FROM moved"
        f" CROSS JOIN (VALUES {', '.join([row] * rows)}) AS given ({given})"
    )


def read_match(match_id) -> tuple[Match, list[Seat]]:
    """The match and its seats in order, in one statement.

    Raises Match.DoesNotExist for an unknown id. The match is loaded with the fields an
    action needs; any other field is read on first access, as with `.only()`.
    """
    id_field = Match._meta.get_field("id")
    with connection.cursor() as cursor:
        cursor.execute(
            _read_sql(connection.vendor), [id_field.get_db_prep_value(match_id, connection)]
        )
        rows = cursor.fetchall()
    if not rows:
        raise Match.DoesNotExist(match_id)
    width = len(MATCH_FIELDS)
    match = Match.from_db(
        connection.alias, MATCH_FIELDS, _converted(Match, MATCH_FIELDS, rows[0][:width])
    )
    seats = []
    for row in rows:
        values = _converted(Seat, SEAT_FIELDS, row[width:])
        seat = Seat.from_db(connection.alias, ("match_id", *SEAT_FIELDS), (match.pk, *values))
        seat.match = match
        seats.append(seat)
    return match, seats


def _converted(model, names, values) -> list:
    """Database values as the ORM hands them over (UUIDs, JSON, bytes…)."""
    converted = []
    for (column, steps), value in zip(
        _converters(connections[connection.alias], model, names), values, strict=True
    ):
        for convert in steps:
            value = convert(value, column, connection)
        converted.append(value)
    return converted


@functools.lru_cache(maxsize=64)
def _converters(database, model, names) -> list:
    """Each column with its converters, found as the ORM's compiler finds them; kept per
    database connection object (one per thread)."""
    found = []
    for name in names:
        column = model._meta.get_field(name).get_col(model._meta.db_table)
        found.append(
            (column, (*database.ops.get_db_converters(column), *column.get_db_converters(database)))
        )
    return found


def store_turn(match_id, version: int, values: dict, log: list[MatchAction]) -> bool:
    """Write the turn if the match is still at `version`: the match's new `values` (every
    name in TURN_FIELDS) and the new log entries, in one transaction. False, with nothing
    written, when another request has moved the match on."""
    match_meta, action_meta = Match._meta, MatchAction._meta
    params = [
        match_meta.get_field(name).get_db_prep_save(values[name], connection)
        for name in TURN_FIELDS
    ]
    params += [match_meta.get_field("id").get_db_prep_value(match_id, connection), version]
    rows = [
        # pre_save fills what the ORM fills on insert, such as created_at.
        [
            field.get_db_prep_save(field.pre_save(entry, add=True), connection)
            for field in map(action_meta.get_field, ACTION_FIELDS)
        ]
        for entry in log
    ]
    if connection.vendor == "postgresql" and log:
        given = [value for row in rows for value in row[1:]]  # the match id comes from the update
        with connection.cursor() as cursor:
            cursor.execute(_update_and_insert_sql(connection.vendor, len(log)), params + given)
            return cursor.rowcount == len(log)
    inserted = [value for row in rows for value in row]
    with transaction.atomic(), connection.cursor() as cursor:
        # The version is the condition: of two posts chosen at the same version, the
        # second finds nothing to update.
        cursor.execute(_update_sql(connection.vendor), params)
        if cursor.rowcount != 1:
            return False
        if log:
            cursor.execute(_insert_sql(connection.vendor, len(log)), inserted)
    return True
