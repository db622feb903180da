"""How one action of a request is told: a bot's opens on a sentence that names it."""

import pytest
from django.utils import translation

from paletti import messages

NAMES = ["Ada", "Robot"]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def told(step, events):
    return messages.step_lines(step, messages.translate_events(events, NAMES), NAMES)


def test_a_bot_that_passes_says_why_and_a_seal_holder_says_it_keeps_the_seal():
    passed = [{"code": "passed", "seat": 1, "text": "Robot passes rather than ask."}]
    step = {"seat": 1, "by_bot": True, "type": "pass", "events": [0, 1], "held_seal": False}
    assert told(step, passed) == [
        "Robot passes: none of their columns can go up to the top platform, and they choose "
        "not to ask for a new platform."
    ]
    holder = told({**step, "held_seal": True}, passed)
    assert holder[0].startswith("Robot passes and keeps the seal: ")


def test_a_waived_penalty_is_told_by_its_own_event():
    waived = [{"code": "penalty_waived", "seat": 1, "text": "..."}]
    step = {"seat": 1, "by_bot": True, "type": "pass", "events": [0, 1], "held_seal": False}
    assert told(step, waived) == ["Robot removes none of the protester's columns."]


def test_a_bot_that_declines_is_named_before_what_follows():
    events = [{"code": "claim_unchallenged", "text": "..."}]
    step = {"seat": 1, "by_bot": True, "type": "decline", "events": [0, 1]}
    assert told(step, events) == [
        "Robot does not protest.",
        "Nobody protests: the new platform may be laid.",
    ]


def test_a_person_is_told_by_the_events_alone():
    events = [{"code": "touched", "column": 9, "load": 29.4, "text": "..."}]
    step = {"seat": 0, "by_bot": False, "type": "touch", "column": 9, "events": [0, 1]}
    assert told(step, events) == ["The black thick round column bears 29 g."]


def test_polish_declines_the_column_named_as_an_object():
    events = [{"code": "pulled", "column": 9, "text": "..."}]
    step = {"seat": 1, "by_bot": True, "type": "pull", "column": 9, "events": [0, 1]}
    with translation.override("pl"):
        assert told(step, events) == [
            "Robot wyciąga czarną dużą okrągłą kolumnę, a willa wciąż stoi."
        ]
