"""What the engine says (English, with machine codes) in the reader's language.

The engine stays free of Django; its events and refusals carry a `code` and parameters,
and this module turns them into translated sentences for the API and the page.
"""

from decimal import ROUND_HALF_UP, Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from .engine import COLUMNS, PLATFORM_COLOURS

COLOURS = {
    "white": gettext_lazy("white"),
    "black": gettext_lazy("black"),
    "purple": gettext_lazy("purple"),
    "pink": gettext_lazy("pink"),
    "blue": gettext_lazy("blue"),
    "green": gettext_lazy("green"),
    "yellow": gettext_lazy("yellow"),
    "orange": gettext_lazy("orange"),
    "red": gettext_lazy("red"),
}
# A seat's colour named on its own: French "blanc", Polish "biały" (agreeing with
# "kolor"), where COLOURS agree with "column" (blanche, biała).
PLAYER_COLOURS = {
    "white": pgettext_lazy("a player's colour, on its own", "white"),
    "black": pgettext_lazy("a player's colour, on its own", "black"),
    "purple": pgettext_lazy("a player's colour, on its own", "purple"),
    "pink": pgettext_lazy("a player's colour, on its own", "pink"),
}

COLUMN_KINDS = {
    "thin": gettext_lazy("thin round column"),
    "hex": gettext_lazy("hexagonal column"),
    "thick": gettext_lazy("thick round column"),
}

ACTION_OUTCOME_UNKNOWN = gettext_lazy(
    "The database stopped answering while this action was being saved: it may have been "
    "played. Read the match again before playing on."
)
CREATION_OUTCOME_UNKNOWN = gettext_lazy(
    "The database stopped answering while this match was being saved: it may exist. Read it "
    "at its address before starting another."
)
ENGINE_BUSY = gettext_lazy("Another move from your address is being played; try again in a moment.")
ENGINE_BUDGET = gettext_lazy(
    "The moves from your address have used their share of the game engine for this "
    "minute; try again shortly."
)
MATCH_GONE = gettext_lazy("This match no longer exists.")
STALE_VERSION = gettext_lazy("The match has moved on since this action was chosen; reload it.")
OUTDATED_MATCH = gettext_lazy(
    "This match was played with an earlier version of the game and can no longer be "
    "continued. Start a new one."
)
PLAYER_COUNT = gettext_lazy("Villa Paletti is played by 2 to 4 players.")
NEED_A_PERSON = gettext_lazy("At least one player must be a person.")
PERSON_HAS_NO_LEVEL = gettext_lazy("Only a bot has a level.")

# An action whose shape is wrong (see engine/rules/shape.py), before the rules are asked.
ACTION_SHAPE = {
    "unknown_key": gettext_lazy("This action does not take the key “%(key)s”."),
    "missing_key": gettext_lazy("This action needs the key “%(key)s”."),
    "integer": gettext_lazy("“%(key)s” must be a whole number from %(low)s to %(high)s."),
    "number": gettext_lazy("“%(key)s” must be a number from %(low)s to %(high)s."),
    "choice": gettext_lazy("“%(key)s” must be one of: %(choices)s."),
}

REFUSALS = {
    "stale_version": STALE_VERSION,
    "no_skip": gettext_lazy(
        "This turn cannot be skipped now (a choice only its player can make): hand the "
        "seat to a bot instead."
    ),
    "skip_by_clock": gettext_lazy(
        "A turn is skipped only when its player is out of time, by another player's choice."
    ),
    "bot_to_act": gettext_lazy("A bot is playing now; wait for it."),
    "bad_parameter": gettext_lazy("The action lacks a number it needs, or one is out of range."),
    "bad_lane": gettext_lazy("There is no such lane."),
    "cannot_protest": gettext_lazy("You have no column you could move to prove your protest."),
    "colour_blocked": gettext_lazy("None of the columns of that colour can be moved."),
    "colour_taken": gettext_lazy("That colour is already taken."),
    "column_out": gettext_lazy("That column is out of the game."),
    "game_over": gettext_lazy("The game is over; no action is accepted."),
    "last_neutral": gettext_lazy("The last neutral column of a level may not be moved."),
    "locked": gettext_lazy("That column was touched and put back: it is locked for the game."),
    "malformed": gettext_lazy("An action is an object with a type."),
    "must_act": gettext_lazy("You can still move a column; passing is not allowed."),
    "neutral_first": gettext_lazy("Move a neutral column first."),
    "no_platform_left": gettext_lazy("All five platforms are already laid."),
    "no_such_column": gettext_lazy("There is no such column."),
    "not_holding": gettext_lazy("You can only place the column you hold."),
    "not_protesters_column": gettext_lazy("Remove one of the protester's columns still in play."),
    "not_touched": gettext_lazy("Only the column you touched can be pulled or put back."),
    "not_your_colour": gettext_lazy("That column is not of a colour you may move now."),
    "not_your_turn": gettext_lazy("It is not this player's turn."),
    "off_platform": gettext_lazy("No column may stand half off the platform."),
    "on_column": gettext_lazy("A column may stand on another column only on the red platform."),
    "own_platform": gettext_lazy("You may not place a column on the platform you laid."),
    "platform_off_base": gettext_lazy("Every platform must stay within the base."),
    "top_level": gettext_lazy("Columns on the top platform may not be moved."),
    "too_few_supports": gettext_lazy("A new platform must rest on at least 3 columns."),
    "unknown_action": gettext_lazy("Unknown action."),
    "wrong_phase": gettext_lazy("That action is not possible now."),
}

SETUP_ERRORS = {
    "unknown_setup": gettext_lazy("A set-up is 'default', 'random' or the columns' places."),
    "malformed": gettext_lazy(
        "A set-up lists the 20 columns, each with its id, x and lane, and blue's x."
    ),
    "columns_missing": gettext_lazy("All 20 columns must stand on the base, once each."),
    "bad_lane": gettext_lazy("A column is in a lane that does not exist."),
    "off_site": gettext_lazy("A column is not entirely on the base."),
    "forbidden_zone": gettext_lazy("A column stands in the forbidden zone."),
    "columns_overlap": gettext_lazy("Two columns of one lane touch or overlap."),
    "blue_off_base": gettext_lazy("The blue platform sticks out beyond the base."),
    "too_few_supports": gettext_lazy("The blue platform must rest on at least 3 columns."),
    "blue_unstable": gettext_lazy("The blue platform would not rest stably."),
    "not_under_blue": gettext_lazy(
        "Every column must stand under the blue platform: it rests on all of them."
    ),
    "unstable": gettext_lazy("The blue platform would not rest stably."),
}

# The same refusals, naming the column at fault and where it stands (see arrangement.py).
SETUP_COLUMN_ERRORS = {
    "bad_lane": gettext_lazy("%(column)s (x %(x)s mm) is in a lane that does not exist."),
    "off_site": gettext_lazy(
        "%(column)s (x %(x)s mm, %(lane)s) is not entirely on the base: move it towards the middle."
    ),
    "forbidden_zone": gettext_lazy(
        "%(column)s (x %(x)s mm, %(lane)s) stands in the forbidden zone in the middle of the "
        "base: move it outwards."
    ),
    "columns_overlap": gettext_lazy(
        "%(column)s (x %(x)s mm) and %(other)s (x %(other_x)s mm) touch or overlap in the "
        "%(lane)s: move one of them."
    ),
}
LANES = {
    0: gettext_lazy("front lane"),
    1: gettext_lazy("middle lane"),
    2: gettext_lazy("back lane"),
}


def setup_error(code: str, english: str, named: list[dict]) -> str:
    """Why an arrangement is refused, naming the column (or the two columns) at fault."""
    if code in SETUP_COLUMN_ERRORS and named:
        first = named[0]
        params = {
            "column": describe_column(first["id"]).capitalize(),
            "x": f"{first['x']:g}",
            "lane": str(LANES.get(first["lane"], "")),
        }
        if len(named) > 1:
            params.update(other=describe_column(named[1]["id"]), other_x=f"{named[1]['x']:g}")
        return str(SETUP_COLUMN_ERRORS[code]) % params
    message = SETUP_ERRORS.get(code)
    return str(message) if message is not None else english


END_REASONS = {
    "collapse": gettext_lazy("The villa collapsed."),
    "no_moves": gettext_lazy("Nobody can place a column or a platform any more."),
}
# Which way the villa fell: the engine records the view that showed the collapse first, the
# front view (across the width) or the side view (in depth).
COLLAPSE_WAYS = {
    "front": gettext_lazy("The villa collapsed across its width, to the left or to the right."),
    "side": gettext_lazy("The villa collapsed in depth, towards the front or the back."),
}
FELL_WAYS = {
    "front": gettext_lazy("It fell across the width, to the left or to the right."),
    "side": gettext_lazy(
        "It fell in depth, towards the front or the back: the drawing seen from the side shows it."
    ),
}

COLLAPSE_REASONS = {
    "left_base": gettext_lazy("a piece fell off the base"),
    "platform_tilted": gettext_lazy("a platform tilted too far"),
    "platform_dropped": gettext_lazy("a platform dropped"),
    "column_fell": gettext_lazy("a column fell over"),
    "tipped": gettext_lazy("its load passed the edge of what held it"),
    "rocked": gettext_lazy("it rocked past its balance"),
}

# Which way a collapse went, as a player sees the villa (the engine's "direction").
COLLAPSE_DIRECTIONS = {
    "left": gettext_lazy("It fell to the left."),
    "right": gettext_lazy("It fell to the right."),
    "front": gettext_lazy("It fell towards the front."),
    "back": gettext_lazy("It fell towards the back."),
}


def grams(load) -> int:
    """The load a touched column bears, in whole grams: rounded once, here, half up, so that
    the page and its narration show the same figure."""
    try:
        return int(Decimal(str(float(load or 0))).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    except (TypeError, ValueError, ArithmeticError):
        return 0


def refusal(code: str, english: str) -> str:
    """A refusal in the active language; the engine's own sentence for a new code."""
    message = REFUSALS.get(code)
    return str(message) if message is not None else english


def bad_action(error) -> str:
    """Why an action's shape is refused (a shape.BadAction), in the active language."""
    if error.problem == "unknown_type":
        return str(REFUSALS["unknown_action"])
    params = dict(error.params)
    problem = error.problem
    spec = params.pop("spec", None)
    if spec is not None:
        problem = type(spec).__name__.lower()
        if hasattr(spec, "values"):
            params["choices"] = ", ".join(spec.values)
        else:
            params.update(low=f"{spec.low:g}", high=f"{spec.high:g}")
    return str(ACTION_SHAPE[problem]) % params


def colour(name: str | None) -> str:
    return str(COLOURS.get(name, name or ""))


def player_colour(name: str | None) -> str:
    """A player's colour named on its own ("le blanc", "hvid", "biały"), not in the form
    that agrees with "column"."""
    return str(PLAYER_COLOURS.get(name) or colour(name))


def describe_column(column_id) -> str:
    """ "the pink thick round column" in the active language."""
    try:
        spec = COLUMNS[int(column_id)]
    except (TypeError, ValueError, IndexError):
        return _("a column")
    return _("the %(colour)s %(kind)s") % {
        "colour": colour(spec.colour),
        "kind": COLUMN_KINDS[spec.kind],
    }


def platform(index_or_colour) -> str:
    """A platform's colour, given as its index (0 = blue) or its colour name."""
    if index_or_colour in PLATFORM_COLOURS:
        return colour(index_or_colour)
    try:
        return colour(PLATFORM_COLOURS[int(index_or_colour)])
    except (TypeError, ValueError, IndexError):
        return ""


# Why the winner won, one sentence that names them (the engine's `outcome`).
WINS = {
    "seal_holder": gettext_lazy("%(name)s wins, holding the master builder's seal at the end."),
    "previous_holder": gettext_lazy(
        "%(name)s wins as the seal's previous holder, since its holder brought the villa down."
    ),
    # Our reading where the seal names nobody (docs/paletti.md, "Readings").
    "highest_builder": gettext_lazy(
        "%(name)s wins for the columns placed highest: the seal named no winner, and whoever "
        "brings the villa down cannot win."
    ),
    "highest_builder_in_turn": gettext_lazy(
        "%(name)s wins: the seal named no winner, whoever brings the villa down cannot win, "
        "and of those who built equally high, %(name)s comes first in turn after the last "
        "player."
    ),
}
# Why nobody won, in matches that ended before every end named a winner.
OUTCOMES = {
    "no_previous_holder": gettext_lazy(
        "The holder of the seal brought the villa down, and nobody held the seal before: "
        "nobody wins."
    ),
    "no_seal_holder": gettext_lazy(
        "The race for the seal had begun, but nobody had taken it yet: nobody wins."
    ),
    "race_not_begun": gettext_lazy("The race for the seal had not begun: nobody wins."),
}


def outcome_sentence(outcome, names: list[str], winner) -> str:
    """Who won and why, or why nobody did, in one sentence."""
    if outcome in WINS and isinstance(winner, int):
        return str(WINS[outcome]) % {"name": _seat_name(names, winner)}
    return str(OUTCOMES.get(outcome, ""))


def end_reason(rules: dict, names: list[str] | None = None) -> str:
    """How the game ended (for a collapse, which way the villa fell) and why the winner
    won, in the active language; `rules` as the engine's state_to_json shows it."""
    reason = rules.get("end_reason")
    if not reason:
        return ""
    how = END_REASONS.get(reason, "")
    collapse = rules.get("collapse") or {}
    if reason == "collapse" and collapse.get("direction") in COLLAPSE_DIRECTIONS:
        how = f"{END_REASONS['collapse']} {COLLAPSE_DIRECTIONS[collapse['direction']]}"
    elif reason == "collapse" and collapse.get("view") in COLLAPSE_WAYS:
        how = COLLAPSE_WAYS[collapse["view"]]
    why = outcome_sentence(rules.get("outcome"), names or [], rules.get("winner"))
    return " ".join(str(text) for text in (how, why) if text)


def _seat_name(names, seat):
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return _("nobody")


# Each engine event code → its sentence, from the event `p`, the acting seat's name `who`
# and every seat's `names`.
EVENT_TEXTS = {
    "touched": lambda p, who, names: _("%(column)s bears %(load)s g.")
    % {"column": describe_column(p.get("column")).capitalize(), "load": grams(p.get("load"))},
    "pulled": lambda p, who, names: _("%(column)s is out and the villa still stands.")
    % {"column": describe_column(p.get("column")).capitalize()},
    "aborted": lambda p, who, names: (
        _("%(column)s goes back and is locked for the rest of the game.")
        if p.get("locked", True)
        else _("%(column)s goes back.")
    )
    % {"column": describe_column(p.get("column")).capitalize()},
    "placement_failed": lambda p, who, names: (
        _("%(column)s came to rest half off the platform: the build is given up.")
        if p.get("problem") == "off_platform"
        else _("%(column)s fell over: the build has failed and it goes back.")
        if p.get("problem") == "fell_over"
        else _("%(column)s came to rest on another column: the build is given up.")
    )
    % {"column": describe_column(p.get("column")).capitalize()},
    "pull_failed": lambda p, who, names: (
        _(
            "%(column)s came clear, but the platform above settled onto the hand steadying "
            "it: the build is interrupted and it goes back."
        )
        if p.get("problem") == "caught"
        else _(
            "%(column)s pushed another column on its way out, and the builder stopped: the "
            "build is interrupted and it goes back; the other column stays where it went."
        )
    )
    % {"column": describe_column(p.get("column")).capitalize()},
    "knocked": lambda p, who, names: _(
        "%(column)s moved another column on its way out; nobody may set that one right, so "
        "it stays where it went."
    )
    % {"column": describe_column(p.get("column")).capitalize()},
    "turn_skipped": lambda p, who, names: _("%(name)s is out of time: the turn is skipped.")
    % {"name": who},
    "passed": lambda p, who, names: _("%(name)s passes rather than ask for a new platform.")
    % {"name": who},
    "penalty_waived": lambda p, who, names: _("%(name)s removes none of the protester's columns.")
    % {"name": who},
    "platform_declined": lambda p, who, names: _("%(name)s decides not to lay the platform.")
    % {"name": who},
    "protest_rewarded": lambda p, who, names: _(
        "The protest succeeds: no platform is laid, and %(name)s may remove any column "
        "from the game."
    )
    % {"name": who},
    "reward_waived": lambda p, who, names: _("%(name)s removes no column from the game.")
    % {"name": who},
    "placed": lambda p, who, names: _("%(column)s stands on the %(platform)s platform.")
    % {
        "column": describe_column(p.get("column")).capitalize(),
        "platform": platform(p.get("platform")),
    },
    "colour_chosen": lambda p, who, names: _("Playing %(colour)s this turn.")
    % {"colour": player_colour(p.get("colour"))},
    "colour_taken": lambda p, who, names: _("%(name)s takes %(colour)s.")
    % {"name": who, "colour": player_colour(p.get("colour"))},
    "colour_left_over": lambda p, who, names: _("%(name)s gets the last colour, %(colour)s.")
    % {"name": who, "colour": player_colour(p.get("colour"))},
    "platform_asked": lambda p, who, names: _("%(name)s asks to lay a new platform.")
    % {"name": who},
    "protest": lambda p, who, names: _("%(name)s protests.") % {"name": who},
    "claim_unchallenged": lambda p, who, names: _("Nobody protests: the new platform may be laid."),
    "protest_succeeded": lambda p, who, names: _(
        "The protest succeeds: the column leaves the game and no platform is laid."
    ),
    "protest_failed": lambda p, who, names: _(
        "The protest fails: the claimant may remove a column belonging to %(name)s."
    )
    % {"name": _seat_name(names, p.get("protester"))},
    "column_removed": lambda p, who, names: _("%(column)s is removed from the game.")
    % {"column": describe_column(p.get("column")).capitalize()},
    "platform_laid": lambda p, who, names: _(
        "The %(platform)s platform is laid; the count for the seal starts again."
    )
    % {"platform": platform(p.get("platform"))},
    "platform_impossible": lambda p, who, names: _(
        "The platform cannot rest on 3 columns: the turn passes."
    ),
    "player_skipped": lambda p, who, names: _(
        "%(name)s can neither move a column nor lay a platform, and passes."
    )
    % {"name": who},
    "seal_race_started": lambda p, who, names: _(
        "The race for the master builder's seal has begun."
    ),
    "seal_taken": lambda p, who, names: _("%(name)s takes the master builder's seal.")
    % {"name": who},
    "neutral_unchallenged": lambda p, who, names: _(
        "Nobody protests: the builder moves their own column."
    ),
    "neutral_protest_failed": lambda p, who, names: _(
        "The protest fails: the builder moves their own column."
    ),
    "neutral_protest_upheld": lambda p, who, names: _(
        "The protest is upheld: the builder loses their own move."
    ),
    "collapse": lambda p, who, names: _("The villa collapses (%(reason)s); %(name)s caused it.")
    % {
        "reason": COLLAPSE_REASONS.get(p.get("reason"), p.get("reason") or ""),
        "name": _seat_name(names, p.get("by")),
    }
    + (
        # The way it fell (engine 3 says which side); else which drawing shows it.
        " " + str(COLLAPSE_DIRECTIONS[p["direction"]])
        if p.get("direction") in COLLAPSE_DIRECTIONS
        else " " + str(FELL_WAYS[p["view"]])
        if p.get("view") in FELL_WAYS
        else ""
    ),
    "game_over": lambda p, who, names: " ".join(
        text
        for text in (
            _("The game is over."),
            outcome_sentence(p.get("outcome"), names, p.get("winner")),
        )
        if text
    ),
}


def event_text(event: dict, names: list[str]) -> str:
    """One engine event as a sentence in the active language."""
    make = EVENT_TEXTS.get(event.get("code"))
    if make is None:
        return str(event.get("text", ""))
    return str(make(event, _seat_name(names, event.get("seat")), names))


def translate_events(events: list[dict], names: list[str] | None = None) -> list[dict]:
    """Events with their `text` in the active language (the engine's English kept)."""
    names = names or []
    return [
        {
            **event,
            "english": event.get("text", ""),
            "text": event_text(event, names),
            **({"grams": grams(event.get("load"))} if event.get("code") == "touched" else {}),
        }
        for event in events
    ]


def describe_column_as_object(column_id) -> str:
    """ "the pink thick round column" as the object of a verb, in its own forms so that a
    language with cases can decline it (Polish: "białą małą okrągłą kolumnę")."""
    try:
        spec = COLUMNS[int(column_id)]
    except (TypeError, ValueError, IndexError):
        return _("a column")
    return pgettext("a column named as the object of a verb", "the %(colour)s %(kind)s") % {
        "colour": OBJECT_COLOURS.get(spec.colour, COLOURS.get(spec.colour, spec.colour)),
        "kind": OBJECT_KINDS[spec.kind],
    }


# A column named on its own in a row of the set-up table: indefinite forms (Danish "hvid",
# "tynd rund søjle").
TABLE_COLOURS = {
    "white": pgettext_lazy("a column in the set-up table", "white"),
    "black": pgettext_lazy("a column in the set-up table", "black"),
    "purple": pgettext_lazy("a column in the set-up table", "purple"),
    "pink": pgettext_lazy("a column in the set-up table", "pink"),
}
TABLE_KINDS = {
    "thin": pgettext_lazy("a column in the set-up table", "thin round column"),
    "hex": pgettext_lazy("a column in the set-up table", "hexagonal column"),
    "thick": pgettext_lazy("a column in the set-up table", "thick round column"),
}


def piece_names() -> dict:
    """Every name the play and set-up pages give a piece, in the active language: each
    column in each form its sentences need, the colours, the platforms, the lanes. The
    pages read them from here, once (no name is translated in the browser)."""
    columns = []
    for spec in COLUMNS:
        columns.append(
            {
                "id": spec.id,
                "name": _("%(colour)s %(kind)s")
                % {"colour": colour(spec.colour), "kind": COLUMN_KINDS[spec.kind]},
                "object": describe_column_as_object(spec.id),
                "touched": describe_column_touched(spec.id),
                "table_colour": str(TABLE_COLOURS[spec.colour]),
                "table_kind": str(TABLE_KINDS[spec.kind]),
            }
        )
    return {
        "columns": columns,
        "colours": {name: str(text) for name, text in COLOURS.items()},
        "player_colours": {name: player_colour(name) for name in PLAYER_COLOURS},
        "platforms": {
            name: {"name": colour(name), "object": platform_as_object(name)}
            for name in PLATFORM_COLOURS
        },
        "lanes": [str(LANES[lane]) for lane in sorted(LANES)],
    }


def describe_column_touched(column_id) -> str:
    """ "the pink thick round column" as what is touched: Polish "dotyka" takes the genitive
    (dotyka różowej dużej okrągłej kolumny)."""
    try:
        spec = COLUMNS[int(column_id)]
    except (TypeError, ValueError, IndexError):
        return _("a column")
    return pgettext("a column named as what is touched", "the %(colour)s %(kind)s") % {
        "colour": TOUCHED_COLOURS.get(spec.colour, COLOURS.get(spec.colour, spec.colour)),
        "kind": TOUCHED_KINDS[spec.kind],
    }


TOUCHED_COLOURS = {
    "white": pgettext_lazy("a column named as what is touched", "white"),
    "black": pgettext_lazy("a column named as what is touched", "black"),
    "purple": pgettext_lazy("a column named as what is touched", "purple"),
    "pink": pgettext_lazy("a column named as what is touched", "pink"),
}
TOUCHED_KINDS = {
    "thin": pgettext_lazy("a column named as what is touched", "thin round column"),
    "hex": pgettext_lazy("a column named as what is touched", "hexagonal column"),
    "thick": pgettext_lazy("a column named as what is touched", "thick round column"),
}
OBJECT_COLOURS = {
    "white": pgettext_lazy("a column named as the object of a verb", "white"),
    "black": pgettext_lazy("a column named as the object of a verb", "black"),
    "purple": pgettext_lazy("a column named as the object of a verb", "purple"),
    "pink": pgettext_lazy("a column named as the object of a verb", "pink"),
}
# A platform named as the object of a verb ("lays the green platform"): Polish declines it
# (zieloną platformę); elsewhere it is the colour's own name.
OBJECT_PLATFORMS = {
    "blue": pgettext_lazy("a platform named as the object of a verb", "blue"),
    "green": pgettext_lazy("a platform named as the object of a verb", "green"),
    "yellow": pgettext_lazy("a platform named as the object of a verb", "yellow"),
    "orange": pgettext_lazy("a platform named as the object of a verb", "orange"),
    "red": pgettext_lazy("a platform named as the object of a verb", "red"),
}


def platform_as_object(index_or_colour) -> str:
    """A platform's colour in the form that fits "lays the … platform"."""
    name = index_or_colour if index_or_colour in PLATFORM_COLOURS else None
    if name is None:
        try:
            name = PLATFORM_COLOURS[int(index_or_colour)]
        except (TypeError, ValueError, IndexError):
            return ""
    return str(OBJECT_PLATFORMS[name])


OBJECT_KINDS = {
    "thin": pgettext_lazy("a column named as the object of a verb", "thin round column"),
    "hex": pgettext_lazy("a column named as the object of a verb", "hexagonal column"),
    "thick": pgettext_lazy("a column named as the object of a verb", "thick round column"),
}


def _pass_line(step, who, event):
    if event is not None and event["code"] != "passed":
        return None  # a waived penalty or reward, a platform not laid: the event says who
    if step.get("held_seal"):
        return _(
            "%(name)s passes and keeps the seal: none of their columns can go up to the top "
            "platform, and a new platform would start the count for the seal again."
        ) % {"name": who}
    return _(
        "%(name)s passes: none of their columns can go up to the top platform, and they "
        "choose not to ask for a new platform."
    ) % {"name": who}


# A bot's action told as one sentence that names it: (the event it replaces, the sentence
# from the step, the acting seat's name and that event or None). None keeps the events.
_ACTION_LINES = {
    "take_colour": (
        "colour_taken",
        lambda s, who, e: _("%(name)s takes %(colour)s.")
        % {"name": who, "colour": player_colour(s.get("colour"))},
    ),
    "choose_colour": (
        "colour_chosen",
        lambda s, who, e: _("%(name)s plays %(colour)s this turn.")
        % {"name": who, "colour": player_colour(s.get("colour"))},
    ),
    "touch": (
        "touched",
        lambda s, who, e: _("%(name)s touches %(column)s: it bears %(load)s g.")
        % {
            "name": who,
            "column": describe_column_touched(s.get("column")),
            "load": grams((e or {}).get("load")),
        },
    ),
    "pull": (
        "pulled",
        lambda s, who, e: (
            _("%(name)s pulls out %(column)s, and the villa still stands.")
            if e
            else _("%(name)s pulls out %(column)s.")
        )
        % {"name": who, "column": describe_column_as_object(s.get("column"))},
    ),
    "place": (
        "placed",
        lambda s, who, e: (
            _("%(name)s stands %(column)s on the %(platform)s platform.")
            % {
                "name": who,
                "column": describe_column_as_object(s.get("column")),
                "platform": platform(e.get("platform")),
            }
            if e
            else _("%(name)s sets %(column)s down.")
            % {"name": who, "column": describe_column_as_object(s.get("column"))}
        ),
    ),
    "abort": (
        "aborted",
        lambda s, who, e: (
            _("%(name)s puts %(column)s back: it is locked for the rest of the game.")
            if (e or {}).get("locked", True)
            else _("%(name)s puts %(column)s back.")
        )
        % {"name": who, "column": describe_column_as_object(s.get("column"))},
    ),
    "ask_platform": (
        "platform_asked",
        lambda s, who, e: _(
            "%(name)s asks for a new platform, claiming that no column can be moved to the "
            "top any more."
        )
        % {"name": who},
    ),
    "protest": (
        "protest",
        lambda s, who, e: _(
            "%(name)s protests and will try to prove that a column can still go up."
        )
        % {"name": who},
    ),
    "decline": (None, lambda s, who, e: _("%(name)s does not protest.") % {"name": who}),
    "remove_column": (
        "column_removed",
        lambda s, who, e: _("%(name)s removes %(column)s from the game.")
        % {"name": who, "column": describe_column_as_object(s.get("column"))},
    ),
    "lay_platform": (
        "platform_laid",
        lambda s, who, e: (
            _("%(name)s lays the %(platform)s platform: the count for the seal starts again.")
            % {"name": who, "platform": platform_as_object(e.get("platform"))}
            if e
            else _("%(name)s lays the next platform.") % {"name": who}
        ),
    ),
    # A skip is told by its own event ("out of time: the turn is skipped") and the ones
    # that follow it.
    "skip": (None, lambda s, who, e: None),
    "pass": (
        ("passed", "penalty_waived", "reward_waived", "platform_declined", "platform_impossible"),
        _pass_line,
    ),
}


def step_lines(
    step: dict, events: list[dict], names: list[str], *, named: bool = False
) -> list[str]:
    """What one action of a request did, as sentences in the active language. A bot's
    action opens with a sentence naming the bot; a person's is told by its events, unless
    `named` (a device that follows the match is told who did what, a person too)."""
    own = events[step["events"][0] : step["events"][1]]
    texts = [event["text"] for event in own]
    if not (step.get("by_bot") or named) or step.get("type") not in _ACTION_LINES:
        return texts
    codes, sentence = _ACTION_LINES[step["type"]]
    codes = (codes,) if isinstance(codes, str) or codes is None else codes
    index = next((i for i, e in enumerate(own) if e.get("code") in codes), None)
    event = own[index] if index is not None else None
    line = sentence(step, _seat_name(names, step.get("seat")), event)
    if line is None:
        return texts
    if index is not None:
        texts.pop(index)
    return [str(line), *texts]


def translate_steps(
    steps: list[dict], events: list[dict], names: list[str], *, named: bool = False
) -> list[dict]:
    """The request's actions for the page, each with its sentences (`events` translated;
    `named`: every action's first sentence names who acted)."""
    return [
        {
            **step,
            "name": _seat_name(names, step.get("seat")),
            "lines": step_lines(step, events, names, named=named),
            # A turn passed (not a waived penalty): the page explains a run of them.
            "passed": any(
                e.get("code") == "passed" for e in events[step["events"][0] : step["events"][1]]
            ),
        }
        for step in steps
    ]
