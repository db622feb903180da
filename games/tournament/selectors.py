"""What the tournament's pages read: the current round, the standings, the big screen's
data and a player's own view."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils import timezone

from . import standings as scoring
from .models import Bye, Player, ResultStatus, Round, Seat, Table, Tournament


@dataclass(frozen=True)
class Row:
    """A line of the standings: the player and their standing."""

    player: Player
    standing: scoring.Standing


def current_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def rounds_with_tables(tournament: Tournament):
    """Every round, newest first, with its tables, their seats and players, and its byes."""
    seats = Seat.objects.select_related("player").order_by("position")
    tables = Table.objects.prefetch_related(Prefetch("seats", queryset=seats)).order_by("number")
    return tournament.round_set.order_by("-number").prefetch_related(
        Prefetch("tables", queryset=tables),
        Prefetch("byes", queryset=Bye.objects.select_related("player")),
    )


def table_result(table: Table) -> scoring.TableResult:
    """A confirmed table's result in the scoring module's terms (player ids): each
    seat's place, and its game points where the game counts them."""
    seats = list(table.seats.all())
    return scoring.TableResult(
        players=tuple(seat.player_id for seat in seats),
        places={seat.player_id: seat.place for seat in seats},
        game_points={seat.player_id: seat.points or 0 for seat in seats},
    )


def standings(tournament: Tournament) -> list[Row]:
    """The standings from the confirmed results and the byes, best first; once the final
    table has its confirmed result, its players first, in its order (standings.with_final)."""
    players = list(tournament.players.all())
    confirmed = (
        Table.objects.filter(round__tournament=tournament, status=ResultStatus.CONFIRMED)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.order_by("position")))
        .order_by("round__number", "number")
        .select_related("round")
    )
    confirmed = list(confirmed)
    final = [t for t in confirmed if t.round.final]
    confirmed = [t for t in confirmed if not t.round.final]
    byes = Bye.objects.filter(round__tournament=tournament).values_list("player_id", flat=True)
    rows = scoring.standings(
        [p.pk for p in players],
        [table_result(t) for t in confirmed],
        byes=list(byes),
        table=tournament.points_table(),
        bye_points=tournament.bye_points,
    )
    if final:
        rows = scoring.with_final(rows, {s.player_id: s.place for s in final[0].seats.all()})
    by_id = {p.pk: p for p in players}
    return [Row(player=by_id[s.player], standing=s) for s in rows]


def met(tournament: Tournament) -> dict[frozenset, int]:
    """How often each pair of players has sat at one table so far."""
    pairs: dict[frozenset, int] = {}
    seats = Seat.objects.filter(round__tournament=tournament).values_list("table_id", "player_id")
    by_table: dict[int, list[int]] = {}
    for table_id, player_id in seats:
        by_table.setdefault(table_id, []).append(player_id)
    for players in by_table.values():
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                key = frozenset((a, b))
                pairs[key] = pairs.get(key, 0) + 1
    return pairs


def round_complete(round_: Round | None) -> bool:
    return round_ is None or not round_.tables.exclude(status=ResultStatus.CONFIRMED).exists()


def seat_of(player: Player, round_: Round | None) -> Seat | None:
    if round_ is None:
        return None
    return (
        Seat.objects.filter(round=round_, player=player)
        .select_related("table", "table__round")
        .first()
    )


def colours_text(tournament: Tournament, colours) -> str:
    """A seat's colours as the game's rules name them ("white + black")."""
    name = tournament.table_rules.colour_name
    return " + ".join(name(c) for c in colours)


def screen(tournament: Tournament) -> dict:
    """The big screen's data: the round, its tables and results, the standings."""
    round_ = current_round(tournament)
    data = {
        "name": tournament.name,
        "rounds": tournament.rounds,
        "round": round_.number if round_ else 0,
        "final": bool(round_ and round_.final),
        "finished": tournament.finished,
        "registration_open": tournament.registration_open,
        "players": tournament.players.count(),
        "now": timezone.now().isoformat(),
        "ends_at": round_.ends_at.isoformat() if round_ else None,
        "tables": [],
        "byes": [],
        "standings": [],
    }
    if round_ is not None:
        seats = Seat.objects.select_related("player").order_by("position")
        tables = round_.tables.prefetch_related(Prefetch("seats", queryset=seats))
        rules = tournament.table_rules
        for table in tables:
            names = {seat.pk: seat.player.name for seat in table.seats.all()}
            result = table.status != ResultStatus.OPEN
            on_site = rules.watch(table) if table.digital else None
            data["tables"].append(
                {
                    "number": table.number,
                    "status": table.status,
                    # Those placed first: one winner, or several sharing the win.
                    "winners": [
                        seat.player.name for seat in table.seats.all() if result and seat.place == 1
                    ],
                    "brought_down": names.get(table.brought_down_id, ""),
                    # A match on the site: the spectators' link and where it stands.
                    "on_site": None
                    if on_site is None
                    else {"url": on_site.watch_url, "status": on_site.status, "over": on_site.over},
                    "seats": [
                        {
                            "position": seat.position,
                            "name": seat.player.name,
                            "colours": colours_text(tournament, seat.colours),
                            "points": seat.points if result else None,
                            "place": seat.place if result else None,
                        }
                        for seat in table.seats.all()
                    ],
                }
            )
        data["byes"] = [bye.player.name for bye in round_.byes.select_related("player")]
    data["standings"] = [
        {
            "rank": row.standing.rank,
            "name": row.player.name,
            "points": row.standing.points,
            "game_points": row.standing.game_points,
            "opponents_points": row.standing.opponents_points,
            "games": row.standing.games,
            "present": row.player.present,
        }
        for row in standings(tournament)
    ]
    return data


def player_version(player: Player) -> str:
    """Changes whenever what the player's page shows may have changed: a new round, the
    table's result, its match on the site, the player's presence, the end."""
    tournament = player.tournament
    round_ = current_round(tournament)
    seat = seat_of(player, round_)
    table = seat.table if seat else None
    parts = [
        round_.number if round_ else 0,
        table.status if table else "-",
        table.entry if table else 0,
        int(table.digital) if table else 0,
        int(player.present),
        int(tournament.finished),
    ]
    return "-".join(str(p) for p in parts)
