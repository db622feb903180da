import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def selfplay(*args):
    out = StringIO()
    call_command("paletti_selfplay", *args, stdout=out)
    return out.getvalue()


def test_selfplay_reports_each_match_and_totals_and_replays_exactly():
    args = ["--matches", "1", "--seed", "3", "--players", "3", "--level", "easy", "--json"]
    lines = [json.loads(line) for line in selfplay(*args).splitlines()]
    match, totals = lines[0], lines[-1]["totals"]
    for key in ("actions", "highest_platform", "collapsed", "winner", "hash"):
        assert key in match
    assert match["actions"] > 10
    assert totals["matches"] == 1
    again = json.loads(selfplay(*args).splitlines()[0])
    assert again["hash"] == match["hash"]


def test_selfplay_prints_readable_lines():
    text = selfplay("--matches", "1", "--seed", "4", "--players", "2", "--level", "easy")
    assert text.splitlines()[0].startswith("seed 4: ")
    assert text.splitlines()[-1].startswith("totals: 1 matches")


def test_selfplay_refuses_zero_matches():
    with pytest.raises(CommandError):
        selfplay("--matches", "0")


def test_selfplay_with_the_reload_check_prints_its_figures():
    text = selfplay("--matches", "1", "--seed", "4", "--players", "2", "--check-reload")
    totals = text.splitlines()[-1]
    assert "reload check: 0 of " in totals
    assert "outside its supports" in totals and "towards the front or back" in totals
