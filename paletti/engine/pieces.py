"""The pieces of Villa Paletti: dimensions in mm, masses in g.

The seeds give the counts, shapes, colours of the platforms and the point values; they give
no measurements. Every size and mass below is therefore an estimate from photographs of the
Zoch edition (a box about 30 cm square, beech wood at about 0.7 g/cm3), said so next to it.
The 2D model is a side view: a column's width is its diameter (or, for the hexagonal one,
its width across flats) and depth is represented by lanes, see physics.py.
"""

from dataclasses import dataclass
from enum import StrEnum


class Where(StrEnum):
    """Where a column is: standing on the base or on a platform (in play), in a builder's
    hand, or out of the game. Stored, and shown to the page, as its value."""

    BASE = "base"
    PLATFORM = "platform"
    HAND = "hand"
    OUT = "out"


# Point values: from the French record (000_...: "grosse colonne ronde: 3 points, colonne
# hexagonale: 2 points, fine colonne ronde: 1 point"), confirmed by the Danish and Polish texts.
KIND_THIN = "thin"
KIND_HEX = "hex"
KIND_THICK = "thick"
COLUMN_VALUES = {KIND_THIN: 1, KIND_HEX: 2, KIND_THICK: 3}

# Per colour: 3 thin round, 1 hexagonal, 1 thick round. The French record only says
# "20 colonnes en 3 formats et en 4 couleurs"; the split is that of University Games'
# English rules (12 small cylinders, 4 hexagonal, 4 large; docs/sources.md).
KINDS_PER_COLOUR = (KIND_THIN, KIND_THIN, KIND_THIN, KIND_HEX, KIND_THICK)

# Column colours. The seeds only say "4 colours"; these names are the engine's own choice
# (chosen to differ from the platform colours so a UI can tell the two apart).
COLUMN_COLOURS = ("white", "black", "purple", "pink")

# All columns share one height (the platforms must lie level on any of them).
# Estimate: about 6 cm in the Zoch edition.
COLUMN_HEIGHT = 60.0

# Widths (mm): estimates from photographs, thin ~13 mm, hexagonal ~17 mm across flats,
# thick ~22 mm.
COLUMN_WIDTHS = {KIND_THIN: 13.0, KIND_HEX: 17.0, KIND_THICK: 22.0}

# Masses (g): estimates, solid beech (0.7 g/cm3) of the volumes above:
# thin pi*0.65^2*6 = 8.0 cm3, hexagonal (sqrt(3)/2)*1.7^2*6 = 15.0 cm3, thick pi*1.1^2*6 = 22.8 cm3.
COLUMN_MASSES = {KIND_THIN: 5.6, KIND_HEX: 10.5, KIND_THICK: 16.0}

# Platforms, bottom to top, "each smaller" (French record, rule 4: BLEU-VERT-JAUNE-ORANGE-ROUGE).
PLATFORM_COLOURS = ("blue", "green", "yellow", "orange", "red")
# Side-view lengths (mm): estimates; blue nearly covers the base, red fits a few columns.
PLATFORM_LENGTHS = (200.0, 170.0, 145.0, 120.0, 95.0)
# Thickness (mm): estimate, plywood-like boards about 6 mm thick.
PLATFORM_THICKNESS = 6.0
# Masses (g): estimates, square boards of the lengths above, 6 mm thick, at 0.7 g/cm3,
# rounded down because the real boards have cut-out, curved edges.
PLATFORM_MASSES = (150.0, 110.0, 80.0, 55.0, 35.0)
# Index of the red platform: the only one on which a column may stand on another column
# (French record, rule 8).
RED = 4

# Base (mm): estimate; a board a little wider than the blue platform.
BASE_LENGTH = 240.0
BASE_THICKNESS = 10.0
# Forbidden zone in the middle of the base, where no column may stand at set-up
# (French record, illustration 2). Its width is an estimate.
FORBIDDEN_HALF_WIDTH = 25.0

# Depth lanes: 3, so columns at different depths pass each other (docs/paletti.md, "Pieces").
LANES = (0, 1, 2)
# Depth of each lane (side view), relative to the middle of what a column stands on (mm):
# lane 0 at the front, 1 in the middle, 2 at the back. Estimate: 30 mm apart, so that a
# column of any width in an outer lane still stands wholly on red (95 mm deep, as long as it
# is wide: the platforms are square).
LANE_DEPTH = {0: -30.0, 1: 0.0, 2: 30.0}


@dataclass(frozen=True)
class ColumnSpec:
    """A column's fixed identity: id 0-19, colour, kind, size, mass and value."""

    id: int
    colour: str
    kind: str

    @property
    def width(self) -> float:
        """Side-view width in mm."""
        return COLUMN_WIDTHS[self.kind]

    @property
    def mass(self) -> float:
        """Mass in g."""
        return COLUMN_MASSES[self.kind]

    @property
    def value(self) -> int:
        """Points when standing on the top platform."""
        return COLUMN_VALUES[self.kind]


def column_specs() -> list[ColumnSpec]:
    """The 20 columns, ids grouped by colour in COLUMN_COLOURS order."""
    specs = []
    for colour in COLUMN_COLOURS:
        for kind in KINDS_PER_COLOUR:
            specs.append(ColumnSpec(len(specs), colour, kind))
    return specs


COLUMNS = column_specs()
