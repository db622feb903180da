"""The play page's ES modules (static/js/paletti/) keep their shape: they import one way
(no module imports one that imports it back, however far round), and only the store,
state.js, writes the match's state; the others read `game` and subscribe to it."""

import re
from pathlib import Path

from django.conf import settings

MODULES = Path(settings.BASE_DIR) / "static" / "js" / "paletti"
STORE = "state.js"

# `import … from "./x.js"`, `export … from "./x.js"` and `import("./x.js")`, over several
# lines if need be.
IMPORT = re.compile(
    r"""(?:\b(?:import|export)\b[^;"'`]*?\bfrom\s*|\bimport\s*\(\s*)["']\./([\w.-]+)["']"""
)
# A write to the store's object or anything inside it (`game.x = …`, `game.state.seats[1].kind
# += …`, `??=`…, `game.x++`, `delete game.x`), or a mutating method called on it. Writing to
# a page element it holds (game.root.dataset…, game.canvas.style…) changes the page, not the
# state.
FIELD = r"\bgame\.(?!(?:root|canvas|stage)\b)[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*|\[[^\]]*\])*"
WRITE = re.compile(
    rf"{FIELD}\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?!=)"
    rf"|{FIELD}\s*(?:\+\+|--)|(?:\+\+|--)\s*{FIELD}|\bdelete\s+{FIELD}"
    rf"|{FIELD}\.(?:push|pop|shift|unshift|splice|sort|reverse|fill|add|delete|clear|set)\("
)


def import_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Each module's name → the names of the modules it imports."""
    return {name: set(IMPORT.findall(text)) for name, text in sources.items()}


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of imports as the modules along it (the first repeated at the end), or []."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str]:
        if name in path:
            return path[path.index(name) :] + [name]
        if name in done:
            return []
        for target in sorted(graph.get(name, ())):
            found = visit(target, path + [name])
            if found:
                return found
        done.add(name)
        return []

    for name in sorted(graph):
        found = visit(name, [])
        if found:
            return found
    return []


def writes_in(text: str) -> list[str]:
    """The lines of `text` that write to the store's object, comments left out."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    lines = (re.sub(r"//.*", "", line) for line in text.splitlines())
    return [f"{n}: {line.strip()}" for n, line in enumerate(lines, 1) if WRITE.search(line)]


def sources() -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in MODULES.glob("*.js")}


def test_the_checks_see_a_cycle_and_a_write():
    graph = import_graph(
        {
            "a.js": 'import { b } from "./b.js";',
            "b.js": 'import {\n  c,\n} from "./c.js";',
            "c.js": 'export { a } from "./a.js";',
            "d.js": 'import { a } from "./a.js";',
        }
    )
    assert cycle_in(graph) == ["a.js", "b.js", "c.js", "a.js"]
    assert cycle_in({"a.js": {"b.js"}, "b.js": set(), "d.js": {"a.js", "b.js"}}) == []
    for write in [
        "game.busy = true;",
        "game.ghost.x += 1;",
        "game.passStreak[seat] = 0;",
        "game.claimWarned.add(key);",
        "game.drag.push(sample);",
        "game.state.turn = 2;",
        "game.state.seats[1].kind = 'bot';",
        "delete game.presence;",
        "game.version++;",
    ]:
        assert writes_in(write), write
    for read in [
        "if (game.busy === true) return;",
        "const x = game.ghost.x;",
        "game.root.dataset.following = name;",
        "game.canvas.style.cursor = '';",
        "// game.busy = true;",
        "/* game.busy = true; */",
        "node.disabled = game.busy;",
    ]:
        assert not writes_in(read), read


def test_the_play_page_modules_import_one_way():
    graph = import_graph(sources())
    assert "main.js" in graph and STORE in graph["main.js"]
    missing = {target for targets in graph.values() for target in targets} - set(graph)
    assert not missing, f"imports of modules that do not exist: {sorted(missing)}"
    assert cycle_in(graph) == [], "an import cycle: " + " -> ".join(cycle_in(graph))


def test_only_the_store_writes_the_match_state():
    found = {name: writes_in(text) for name, text in sorted(sources().items()) if name != STORE}
    assert {name: lines for name, lines in found.items() if lines} == {}
    # The others change it through the store's functions, and it tells its subscribers.
    store = sources()[STORE]
    for function in ["subscribe", "applyServerState", "setSelection", "setGhost", "setBusy"]:
        assert re.search(rf"export function {function}\(", store), function
