"""Shared helpers for the engine tests: short scripted turns on real physics."""

import math

import pytest

from paletti.engine import apply_action, legal_actions, new_match, state_to_json


class Table:
    """Plays scripted actions on a match and keeps the last result's frames and events."""

    def __init__(self, state):
        self.state = state
        self.events = []
        self.frames = []

    @property
    def rules(self):
        return self.state.rules

    def act(self, **action):
        result = apply_action(self.state, action)
        self.state, self.events, self.frames = result.state, result.events, result.frames
        return result

    def codes(self):
        return [e["code"] for e in self.events]

    def legal(self, kind=None):
        actions = legal_actions(self.state)
        return [a for a in actions if kind is None or a["type"] == kind]

    def spots(self):
        """The listed placement's area as the page samples it: (place action, row) pairs."""
        view = {
            "legal_actions": self.legal(),
            "dimensions": state_to_json(self.state)["dimensions"],
        }
        return place_spots(view)

    def touchable(self):
        return [a["column"] for a in self.legal("touch")]

    def outer_touchable(self):
        """The touchable column farthest from the middle: an edge column bears least."""
        columns = self.rules.columns
        return max(self.touchable(), key=lambda c: abs(columns[c].pose[0]))

    def three_on_blue(self):
        """Three builds, so blue carries three columns spread over it (enough for green)."""
        for x, lane in ((-40.0, 0), (0.0, 1), (40.0, 2)):
            self.move(x=x, lane=lane)

    def with_rules(self, **changes):
        """Replace parts of the rules state (a position the tests could not reach by play):
        each given as records or as their plain values, read back as records."""
        from paletti.engine import Rules, State

        plain = {key: _plain(value) for key, value in changes.items()}
        self.state = State(Rules.from_json({**self.rules.to_json(), **plain}))

    def move(self, x, lane=None, column=None, z=None):
        """A whole build: touch, pull and place a column (the outermost one by default) at
        x, in one of the three rows (`lane`) or at a depth `z` (mm from the platform's
        centre)."""
        if self.rules.phase == "choose_colour":
            self.act(type="choose_colour", colour=self.legal("choose_colour")[0]["colour"])
        column = self.outer_touchable() if column is None else column
        self.act(type="touch", column=column)
        self.act(type="pull", column=column)
        assert self.rules.phase == "holding", self.events
        depth = {"lane": lane} if z is None else {"z": z}
        self.act(type="place", column=column, x=x, **depth)
        return column

    def three_behind_on_blue(self):
        """Three builds on blue, every column well behind its middle (40 to 50 mm): green
        can rest on them only offset in depth, towards the back."""
        for x, z in ((-40.0, 40.0), (0.0, 50.0), (40.0, 40.0)):
            self.move(x=x, z=z)


def _plain(value):
    """A record, or a list of records or plain values, as plain values."""
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value.to_json() if hasattr(value, "to_json") else value


@pytest.fixture
def table():
    """A 4-player match, seed 7, its columns set up in the page's three depth rows
    (setups.rows_setup: the scripted turns of these tests were written on them)."""
    from paletti.tests.setups import rows_setup

    return Table(new_match(7, 4, {"setup": rows_setup()}))


@pytest.fixture
def make_table():
    """Build a Table from new_match arguments."""

    def make(seed=7, players=4, options=None):
        return Table(new_match(seed, players, options))

    return make


def in_area(area, x, z):
    """Whether (x, z) lies in a listed placement's area (legal_actions)."""
    (low, high), (z_low, z_high) = area["x"], area["z"]
    return (
        low <= x <= high
        and z_low <= z <= z_high
        and all((d["x"] - x) ** 2 + (d["z"] - z) ** 2 >= d["r"] ** 2 for d in area["outside"])
    )


def place_spots(view):
    """The listed placement's area sampled as the page samples it (every `grid` mm across,
    in the three depth rows), as (postable place action, row) pairs; `view` holds
    "legal_actions" and "dimensions", as the API's state does."""
    spots = []
    for listed in (a for a in view["legal_actions"] if a["type"] == "place"):
        area = listed["area"]
        aim = {k: v for k, v in listed.items() if k != "area"}
        (low, high), (z_low, z_high), grid = area["x"], area["z"], area["grid"]
        for lane, depth in enumerate(view["dimensions"]["lane_depths"]):
            z = max(z_low, min(z_high, depth))
            for k in range(math.ceil(low / grid), math.floor(high / grid) + 1):
                if in_area(area, float(k * grid), z):
                    spots.append(({**aim, "x": float(k * grid), "z": z}, lane))
    return spots
