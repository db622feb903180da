"""What paletti tells the rest of the site about its matches."""

from django.dispatch import Signal

# A match has just ended and been stored: sent with `match` (the Match) and `state` (the
# engine's final state). A tournament's table played as that match records its result.
match_over = Signal()

# A match has just moved on (an action stored): sent with `match`. A tournament's big screen
# shows where its tables' matches stand, so the tournament's version goes up too.
match_moved = Signal()
