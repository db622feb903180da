"""The UNIMARC import at scale: 10 000 PMB records into an empty catalogue.

    .venv/bin/python bench/unimarc_bench.py [--records 10000] [--latin-1-share 0.3]

Builds the records in PMB's export layout (the test corpus's builder), a share of them
in Latin-1 as a Latin-1 PMB database writes them, every one with two credits, a
publisher among 200, a copy, a five-item contents list and nine custom fields; imports
them into a throw-away SQLite database (or DATABASE_URL's, which it migrates: give it an
empty database, or the records are found again as duplicates) and prints the time and
the machine's load average (the figure moves with it). Target: under a minute on this
project's 2-core machine; the current figures are in docs/unimarc.md.
"""

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "catalogue.settings")
os.environ.setdefault("DJANGO_DEBUG", "0")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"


def build(records: int, latin_share: float) -> bytes:
    from games.unimarc.tests import corpus

    chunks = []
    latin_every = int(1 / latin_share) if latin_share else 0
    for n in range(records):
        latin = bool(latin_every) and n % latin_every == 0
        record = corpus.pmb_record(
            1000 + n,
            f"Jeu de l'été n° {n}",
            authors=[(f"Auteur{n % 997}", "Élise", "070"), (f"Dessin{n % 503}", "", "440")],
            publisher=f"Éditeur {n % 200}",
            year=str(1990 + n % 35),
            category="A 404 jeu d'adresse",
            custom={
                "nb_joueurs_min": "2",
                "nb_joueurs_max": str(2 + n % 5),
                "age_min": str(3 + n % 10),
                "age_max": "99",
                "duree": str(10 + n % 80),
                "principe": "Poser ses pièces le plus haut possible sans faire tomber la tour.",
                "analyse": "Adresse et patience.",
                "regles": "Chacun à son tour retire une pièce et la pose en haut. " * 5,
                "contenu": "1 base, 5 plateaux, 20 colonnes, 1 règle du jeu.",
            },
            copies=[{"expl_cb": f"B{n:06d}", "expl_cote": "JEU", "statut_libelle": "Disponible"}],
            declared=corpus.LATIN1_100 if latin else corpus.UTF8_100,
        )
        chunks.append(corpus.iso([record], encoding="latin-1" if latin else "utf-8"))
    return b"".join(chunks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--latin-1-share", type=float, default=0.3)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games.esar import ensure_facet_a

    ensure_facet_a()
    from games.models import Game
    from games.unimarc.services import ImportOptions, import_unimarc

    content = build(args.records, args.latin_1_share)
    print(f"{args.records} records, {len(content) / 1e6:.1f} MB")
    start = time.perf_counter()
    report = import_unimarc(content, options=ImportOptions())
    elapsed = time.perf_counter() - start
    counts = dict(report.counts)
    per_record = elapsed / args.records * 1000
    print(f"imported in {elapsed:.1f} s ({per_record:.2f} ms a record): {counts}")
    print(f"games in the catalogue: {Game.objects.count()}; target under 60 s")
    print("load average (1, 5, 15 min): " + ", ".join(f"{n:.1f}" for n in os.getloadavg()))
    if report.failed:
        print("first failure:", report.failed[0].number, report.failed[0].reason)


if __name__ == "__main__":
    main()
