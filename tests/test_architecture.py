"""The shape of the house (docs/architecture.md): no import circle anywhere in
``src/splitpot`` (type-only and late imports count: a circle is a knot whatever hides
it), and each layer imports only the layers above it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src" / "splitpot"

# The layers, top first (DESIGN.md, docs/architecture.md): a module may import its own
# layer and the layers above it, never one below.
LAYERS: list[set[str]] = [
    {"cards", "evaluate", "rules", "engine", "table", "text", "reading", "frozen"},
    {"history", "equity", "bots", "fair", "verify", "dealer", "simulation", "i18n", "tournament"},
    {"protocol"},
    {"room"},
    {"store", "server", "web", "client", "session", "tui", "cli", "arguments"},
]


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> Iterator[str]:
    """Every splitpot module ``path`` imports, at any depth of its code."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path.parent)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.startswith("splitpot"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            if name.startswith("splitpot"):
                yield name


def graph() -> dict[str, set[str]]:
    """Module -> the splitpot modules it imports (a package stands for its __init__)."""
    modules = {module_name(path): path for path in SOURCE.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        found = set()
        for target in imports(path):
            while target not in modules and "." in target:  # a name imported from a module
                target = target.rpartition(".")[0]
            if target in modules and target != name:
                found.add(target)
        edges[name] = found
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def package_cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Circles between modules, a package's __init__ aside (it re-exports its modules)."""
    inner = {
        name: {t for t in targets if t not in edges or not _is_package(t)}
        for name, targets in edges.items()
        if not _is_package(name)
    }
    return circles(inner)


def _is_package(name: str) -> bool:
    return (SOURCE.parent / name.replace(".", "/") / "__init__.py").exists()


def layer_of(module: str) -> int | None:
    top = module.split(".")[1] if "." in module else None
    for number, layer in enumerate(LAYERS):
        if top in layer:
            return number
    return None


def test_no_module_imports_itself_in_a_circle() -> None:
    assert package_cycles(graph()) == []


def test_each_layer_imports_only_the_layers_above_it() -> None:
    wrong = []
    for module, targets in graph().items():
        mine = layer_of(module)
        for target in targets:
            theirs = layer_of(target)
            if mine is not None and theirs is not None and theirs > mine:
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
