"""What the play page reads from the server, said truthfully: one
rounding of the load, which way the villa fell, who won and why in one sentence, and the
opening a new match's first bot actions are animated from."""

import re

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from paletti import messages

pytestmark = pytest.mark.django_db

NAMES = ["Ada", "Ola"]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def told(events):
    return [e["text"] for e in messages.translate_events(events, NAMES)]


@pytest.mark.parametrize(("load", "grams"), [(44.5, 45), (43.5, 44), (44.49, 44), (0.5, 1)])
def test_a_load_is_rounded_once_half_up(load, grams):
    # Python's round() gives 44 for 44.5 where the page's Math.round gives 45.
    assert messages.grams(load) == grams
    [event] = messages.translate_events([{"code": "touched", "column": 9, "load": load}], NAMES)
    assert event["grams"] == grams
    assert event["text"] == f"The black thick round column bears {grams} g."


def test_the_collapse_says_which_way_the_villa_fell():
    base = {"code": "collapse", "reason": "column_fell", "by": 0, "level": 1}
    across, deep = told([{**base, "view": "front"}, {**base, "view": "side"}])
    assert "across the width, to the left or to the right" in across
    assert "in depth, towards the front or the back" in deep
    rules = {"end_reason": "collapse", "collapse": {"view": "side"}, "outcome": "race_not_begun"}
    assert messages.end_reason(rules, NAMES).startswith(
        "The villa collapsed in depth, towards the front or the back."
    )
    # The game-over panel names the way it fell, as the narration does.
    rules["collapse"] = {"view": "side", "direction": "back"}
    assert messages.end_reason(rules, NAMES).startswith(
        "The villa collapsed. It fell towards the back."
    )
    with translation.override("fr"):
        assert "arrière" in messages.end_reason(rules, NAMES)


def test_the_winner_and_the_reason_are_one_sentence():
    [line] = told([{"code": "game_over", "winner": 1, "outcome": "seal_holder"}])
    assert line == "The game is over. Ola wins, holding the master builder's seal at the end."
    rules = {"end_reason": "collapse", "collapse": {"view": "front"}, "winner": 0}
    rules["outcome"] = "previous_holder"
    assert messages.end_reason(rules, NAMES).endswith(
        "Ada wins as the seal's previous holder, since its holder brought the villa down."
    )


def test_polish_names_a_laid_platform_in_the_accusative():
    step = {"seat": 1, "by_bot": True, "type": "lay_platform", "events": [0, 1]}
    events = messages.translate_events([{"code": "platform_laid", "platform": "green"}], NAMES)
    with translation.override("pl"):
        [line, *_] = messages.step_lines(step, events, NAMES)
    assert "zieloną platformę" in line, line


def test_a_match_whose_bot_plays_first_sends_where_the_pieces_stood_before():
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    players = [{"name": "Ada", "kind": "human"}, {"name": "Bob", "kind": "bot", "level": "easy"}]
    response = api.post(
        reverse("api:paletti-match-list"), {"players": players, "seed": 42}, format="json"
    )
    body = response.json()
    assert body["steps"] and body["steps"][0]["by_bot"]
    moved = next(s["column"] for s in body["steps"] if "column" in s)
    before = {c["id"]: c for c in body["opening"]["columns"]}
    after = {c["id"]: c for c in body["state"]["columns"]}
    # The bot's column stood on the base in the opening and stands higher now.
    assert before[moved]["y"] < after[moved]["y"]
    assert before[moved]["side"] is not None
    alone = [{"name": "Ada", "kind": "human"}, {"name": "Bo", "kind": "human"}]
    response = api.post(
        reverse("api:paletti-match-list"), {"players": alone, "seed": 42}, format="json"
    )
    assert response.json()["opening"] is None


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda s: s["columns"][0].update(x=0.0), "The white thin round column (x 0 mm, "),
        (lambda s: s["columns"][3].update(x=-119.0), "The white hexagonal column (x -119 mm, "),
        (
            lambda s: s["columns"][1].update(x=s["columns"][0]["x"], lane=s["columns"][0]["lane"]),
            " and the white thin round column (x ",
        ),
        # Given by their depth, as the set-up page sends them: named by the nearest row.
        (
            lambda s: s["columns"][1].update(x=s["columns"][0]["x"] - 5, z=-28.0, lane=None),
            "(x -33.5 mm) and the white thin round column (x -38.5 mm) touch or overlap",
        ),
        (
            lambda s: s["columns"][4].update(x=-82.2, z=125.0, lane=None),
            "The white thick round column (x -82.2 mm, back lane)",
        ),
    ],
)
def test_a_refused_arrangement_names_the_column_and_the_reason(change, named):
    from paletti.tests.setups import rows_setup

    setup = rows_setup()
    change(setup)
    for column in setup["columns"]:
        if column.get("lane", 0) is None:
            del column["lane"]
    body = {"players": [{"name": "Ada"}, {"name": "Bo"}], "options": {"setup": setup}}
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    response = api.post(reverse("api:paletti-match-list"), body, format="json")
    assert response.status_code == 400
    [message] = response.json()["options"]["setup"]
    assert named in message, message
    assert re.search(r"forbidden zone|not entirely on the base|touch or overlap", message)


def test_the_pages_read_every_piece_name_from_the_server_in_each_form(client):
    with translation.override("pl"):
        names = messages.piece_names()
    pink = next(c for c in names["columns"] if c["id"] == 15)
    assert pink["touched"] == "różowej małej okrągłej kolumny"
    assert pink["object"] == "różową małą okrągłą kolumnę"
    assert names["platforms"]["green"]["object"] == "zieloną"
    with translation.override("da"):
        names = messages.piece_names()
    assert (names["columns"][0]["table_colour"], names["columns"][0]["table_kind"]) == (
        "hvid",
        "tynd rund søjle",
    )
    with translation.override("fr"):
        page = client.get(reverse("paletti:setup")).content.decode()
    assert 'id="paletti-names"' in page and "fine colonne ronde" in page
