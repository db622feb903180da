"""Does the hand matter? Run `.venv/bin/python bench/dexterity_bench.py [pairs]` from the root.

What the play page teaches a child ("heavy load: pull slowly", "set it down gently, in the
middle") must be true of the engine. This bench measures outcomes, not displacements: from
states sampled from careful self-play (seeds the tests do not use), each movable column is
pulled twice from the same state with the same dice, once by a careful hand (<= 60 mm/s,
steadiness >= 0.95) and once by a careless one (>= 300 mm/s, steadiness <= 0.6), and each
held column is set down gently and hurriedly, in the middle and near the edge. It prints the
collapse rates by the load bands the page shows (computed in 3-D) and the ratios that make
its advice true (a careless pull at least twice as risky as a careful one, a hurried
placement 1.5 times a gentle one, the edge riskier than the middle, a column bearing under
10 g pulled carefully falling under 5 %, a careful pull riskier from band to band); the
exit status is 1 if one of them is not met. Each band is sampled in a set share (self-play
meets heavy loads rarely); over columns bearing 40 g or more the bands are weighed back
together as often as self-play meets them.

The default of 1 250 pairs (about 8 minutes on a 2-core machine) gives the light band 500
careful pulls: its careful collapse rate is about 1 % (measured: 6 of 500), which 200 pulls
cannot tell from the free band's 0 (at 1 %, 200 pulls see no collapse one run in eight,
500 pulls one run in 150), so a smaller run may say the rate does not rise when it does.
"""

import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from paletti.engine import (  # noqa: E402
    IllegalAction,
    apply_action,
    choose_action,
    legal_actions,
    new_match,
    villa,
)
from paletti.engine.rules import placement_range  # noqa: E402

# The bands of the play page's load gauge (static/js/paletti*.js), in grams.
BANDS = (
    (0.0, 1.0, "free"),
    (1.0, 40.0, "light"),
    (40.0, 100.0, "heavy"),
    (100.0, 1e9, "very heavy"),
)
CAREFUL = {"speed": 50, "steadiness": 0.97}
CARELESS = {"speed": 400, "steadiness": 0.5}
GENTLE = {"speed": 40, "steadiness": 0.97}
HURRIED = {"speed": 400, "steadiness": 0.5}
FIRST_SEED = 90_000
# Self-play matches the sampler may play at most before it gives up filling a band.
MAX_MATCHES = 60
# Share of the pairs each load band gets, in the order of BANDS: self-play meets light
# loads far more often than heavy ones (about 20 to 1), so a plain sample holds too few
# heavy pulls to say anything about them.
BAND_SHARES = (0.1, 0.4, 0.3, 0.2)
# Enough pulls for the light band's rate of about 1 % to show (see above).
DEFAULT_PAIRS = 1250


def band_of(load: float) -> str:
    return next(name for low, high, name in BANDS if low <= load < high)


def sample_states(pairs: int, met: Counter):
    """(state, column) at the start of a build, from careful self-play, until each load
    band has its share of `pairs` (or MAX_MATCHES matches were played). Every column a
    builder may touch is a candidate; one a band is still short of is taken, at most
    once per state and band, so the states span whole matches. `met` counts, by band,
    every column a builder could touch in the states visited: how often self-play meets
    each band, to weigh the bands back together."""
    shares = zip(BANDS, BAND_SHARES, strict=True)
    wanted = {name: round(pairs * share) for (_, _, name), share in shares}
    for seed in range(FIRST_SEED, FIRST_SEED + MAX_MATCHES):
        if not any(wanted.values()):
            return
        players = 2 + seed % 3
        state = new_match(seed, players)
        rng = random.Random(f"{seed}:bench")
        while state.rules.phase != "over" and state.rules.actions < 400:
            rules = state.rules
            if rules.phase == "move" and rules.context == "turn":
                touches = [a["column"] for a in legal_actions(state) if a["type"] == "touch"]
                taken = set()
                for column in rng.sample(touches, len(touches)):
                    band = band_of(villa.column_load(rules, column))
                    met[band] += 1
                    if wanted[band] and band not in taken:
                        wanted[band] -= 1
                        taken.add(band)
                        yield state, column
            state = apply_action(state, choose_action(state, "careful", rng), record=False).state


def pulled(state, column, hand) -> tuple[bool, object]:
    touched = apply_action(state, {"type": "touch", "column": column}, record=False).state
    after = apply_action(touched, {"type": "pull", "column": column, **hand}, record=False).state
    return after.rules.collapse is not None, after


def placed(state, spot, hand) -> tuple[bool, bool]:
    """(the villa collapsed, the build failed: the column fell over or off, or collapsed)."""
    action = {"type": "place", **spot, **hand}
    result = apply_action(state, action, record=False)
    collapsed = result.state.rules.collapse is not None
    failed = collapsed or any(e["code"] == "placement_failed" for e in result.events)
    return collapsed, failed


def _ratio(more: float, less: float) -> float:
    """more / less; infinite only if `more` happened at all and `less` never."""
    if less:
        return more / less
    return float("inf") if more else 0.0


def rate(hits: list) -> str:
    return f"{sum(hits) / len(hits):6.1%} ({sum(hits)}/{len(hits)})" if hits else "   -"


def main(pairs: int = DEFAULT_PAIRS) -> int:
    rows = {name: {"careful": [], "careless": []} for _, _, name in BANDS}
    heavy = {"careful": [], "careless": []}
    # Of those, the columns the villa can stand without (3-D statics): there the hand alone
    # decides; without them the villa falls whoever pulls.
    spare = {"careful": [], "careless": []}
    under_ten = []
    placements = {"gentle": [], "hurried": [], "middle": [], "edge": []}
    failures = {"gentle": [], "hurried": [], "middle": [], "edge": []}
    sampled = 0
    met = Counter()
    # Which way the pulls' collapses went (seen from the player: front, back, left, right).
    ways = {"careful": Counter(), "careless": Counter()}
    for state, column in sample_states(pairs, met):
        sampled += 1
        load = villa.column_load(state.rules, column)
        band = band_of(load)
        careful, holding = pulled(state, column, CAREFUL)
        careless, thrown = pulled(state, column, CARELESS)
        for hand, collapsed, after in (
            ("careful", careful, holding),
            ("careless", careless, thrown),
        ):
            if collapsed:
                ways[hand][after.rules.collapse.direction] += 1
        rows[band]["careful"].append(careful)
        rows[band]["careless"].append(careless)
        if load >= 40:
            heavy["careful"].append(careful)
            heavy["careless"].append(careless)
            if villa.analyse(state.rules, without={column}).stands:
                spare["careful"].append(careful)
                spare["careless"].append(careless)
        if load < 10:
            under_ten.append(careful)
        if careful or holding.rules.phase != "holding":
            continue
        low, high = placement_range(holding.rules, column)
        middle = {"x": 0.0, "z": 0.0}
        edge = {"x": high, "z": 0.0}
        for where, spot in (("middle", middle), ("edge", edge)):
            try:
                collapsed, failed = placed(holding, spot, GENTLE)
            except IllegalAction:  # a spot taken by another column: skip it
                continue
            placements[where].append(collapsed)
            failures[where].append(failed)
        for how, hand in (("gentle", GENTLE), ("hurried", HURRIED)):
            for spot in (middle, edge):
                try:
                    collapsed, failed = placed(holding, spot, hand)
                except IllegalAction:
                    continue
                placements[how].append(collapsed)
                failures[how].append(failed)
    print(f"Pulls from {sampled} states sampled from careful self-play (seeds from {FIRST_SEED}),")
    shares = zip(BANDS, BAND_SHARES, strict=True)
    print("each load band its share: " + ", ".join(f"{n} {s:.0%}" for (_, _, n), s in shares))
    print(f"{'load band':<12} {'careful (50 mm/s, 0.97)':<26} {'careless (400 mm/s, 0.5)':<26}")
    for _, _, name in BANDS:
        print(f"{name:<12} {rate(rows[name]['careful']):<26} {rate(rows[name]['careless']):<26}")
    # The bands are sampled in set shares; over columns bearing >= 40 g they are weighed
    # back together as often as self-play meets them (heavy loads far more often than
    # very heavy ones), so the figure is that of the columns players actually pull.
    loaded = [name for low, _, name in BANDS if low >= 40.0]
    total = sum(met[name] for name in loaded) or 1

    def weighed(hand: str) -> float:
        return sum(
            met[name] / total * sum(rows[name][hand]) / max(1, len(rows[name][hand]))
            for name in loaded
        )

    careful_rate, careless_rate = weighed("careful"), weighed("careless")
    ratio = _ratio(careless_rate, careful_rate)
    print(
        "self-play meets, among the columns a builder may touch: "
        + ", ".join(f"{name} {met[name]}" for _, _, name in BANDS)
    )
    print(
        f"bearing >= 40 g, as sampled: careful {rate(heavy['careful'])}, careless"
        f" {rate(heavy['careless'])}"
    )
    print(
        f"bearing >= 40 g, the bands weighed as self-play meets them: careful"
        f" {careful_rate:.1%}, careless {careless_rate:.1%}, careless / careful = {ratio:.2f}"
        " (target >= 2)"
    )
    print(
        f"  of which the villa stands without the column: careful {rate(spare['careful'])},"
        f" careless {rate(spare['careless'])}"
    )
    for hand, counted in ways.items():
        depth = counted["front"] + counted["back"]
        total_ways = sum(counted.values())
        print(
            f"{hand} pull collapses towards the front or back: {depth} of {total_ways}"
            f" ({depth / max(1, total_ways):.0%}), by way {dict(sorted(counted.items()))}"
            " (the bands as sampled)"
        )
    small = sum(under_ten) / max(1, len(under_ten))
    print(f"careful pull of a column bearing < 10 g: {rate(under_ten)} (target < 5 %)")
    print("Placements (the same held column, the same dice): collapses, and failed builds")
    print("(the column fell over or off, or the villa collapsed)")
    for name in ("gentle", "hurried", "middle", "edge"):
        print(f"  {name:<8} collapses {rate(placements[name])}   failed {rate(failures[name])}")
    gentle_failed = sum(failures["gentle"]) / max(1, len(failures["gentle"]))
    hurried_failed = sum(failures["hurried"]) / max(1, len(failures["hurried"]))
    failed_ratio = _ratio(hurried_failed, gentle_failed)
    print(f"failed builds, hurried / gentle = {failed_ratio:.2f}")
    gentle = sum(placements["gentle"]) / max(1, len(placements["gentle"]))
    hurried = sum(placements["hurried"]) / max(1, len(placements["hurried"]))
    place_ratio = _ratio(hurried, gentle)
    print(f"hurried / gentle = {place_ratio:.2f} (target >= 1.5)")
    middle = sum(placements["middle"]) / max(1, len(placements["middle"]))
    edge = sum(placements["edge"]) / max(1, len(placements["edge"]))
    print(f"edge {edge:.1%} against middle {middle:.1%} (target: edge more often)")
    careful_by_band = [
        sum(rows[name]["careful"]) / len(rows[name]["careful"])
        for _, _, name in BANDS
        if rows[name]["careful"]
    ]
    rising = all(a < b for a, b in zip(careful_by_band, careful_by_band[1:], strict=False))
    print(f"careful-pull collapse rate rises from band to band: {rising}")
    met = ratio >= 2 and small < 0.05 and place_ratio >= 1.5 and edge > middle and rising
    print("targets met" if met else "targets NOT met")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_PAIRS))
