"""The modules of the package import one another without a circle: every
import counts, at the top of a module or inside a function (an import
deferred into a function hides a circle, it does not break it).  The check
is shown to find a circle that is there."""

import ast
import os

from conftest import TOP


def import_graph(root, package):
    """{module: the package's modules it imports} for the package in root."""
    paths = {}
    for folder, _, names in os.walk(os.path.join(root, package)):
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                module = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
                paths[module[:-len(".__init__")] if module.endswith(".__init__") else module] = path
    graph = {}
    for module, path in paths.items():
        # What a relative import is relative to: the package, or the
        # package of the module.
        here = module.split(".") if path.endswith("__init__.py") else module.split(".")[:-1]
        with open(path, encoding="utf-8") as stream:
            tree = ast.parse(stream.read(), path)
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = here[:len(here) - node.level + 1] if node.level else []
                target = ".".join(base + (node.module.split(".") if node.module else []))
                for alias in node.names:
                    if f"{target}.{alias.name}" in paths:
                        imported.add(f"{target}.{alias.name}")
                    elif target in paths:
                        imported.add(target)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names if alias.name in paths)
        imported.discard(module)
        graph[module] = imported
    return graph


def circles(graph):
    """The sets of modules that import one another round a circle (the
    strongly connected components of more than one module), sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(module):
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.add(other)
                if other == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def test_the_package_has_no_import_circle():
    graph = import_graph(os.path.join(TOP, "python"), "crafter_toolkit")
    assert "crafter_toolkit._stream" in graph and "crafter_toolkit._locate" in graph
    assert circles(graph) == []


def test_a_planted_circle_is_found(tmp_path):
    package = tmp_path / "planted"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "inner" / "__init__.py").write_text("")
    (package / "top.py").write_text("from .inner import low\n")
    (package / "inner" / "low.py").write_text(
        "def late():\n    from ..base import value\n    return value\n")
    (package / "base.py").write_text("import os\nfrom . import top\nvalue = 1\n")
    graph = import_graph(str(tmp_path), "planted")
    assert circles(graph) == [["planted.base", "planted.inner.low", "planted.top"]]
    (package / "base.py").write_text("value = 1\n")
    assert circles(import_graph(str(tmp_path), "planted")) == []
