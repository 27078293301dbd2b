"""crafter.constants of crafter 1.8.3, with the same names, types and
contents, read from the engine's own data: the lists of names from the
engine's header of ids (include/crafter/ids.h), the rules (walkable, items, collect,
place, make) from its default configuration (data/crafter.yaml, which
holds Crafter's numbers; see crafter-config(5)).

    root          crafter's package folder when crafter is installed (so
                  root / "assets" is Crafter's textures, as code written for
                  crafter expects), else this package's folder
    actions       the 17 action names, in Crafter's order (list)
    materials     the 12 materials (list)
    walkable      the materials a creature can walk on (list)
    items         {item: {"max": 9, "initial": ...}} for the 16 inventory items
    collect       {material: {"require", "receive", "leaves"[, "probability"]}}
    place         {thing: {"uses", "where", "type"}}
    make          {tool: {"uses", "nearby", "gives"}}
    achievements  the 22 achievement names, sorted (list)
"""

import os
import pathlib
import re

from . import _textures

_HERE = os.path.dirname(os.path.abspath(__file__))


def _data_file(name, tree_path):
    """A data file of the engine: in the package (crafter_toolkit/data/, as
    a wheel carries it), else in the source tree around it."""
    for path in (os.path.join(_HERE, "data", name),
                 os.path.join(_HERE, "..", "..", *tree_path.split("/"))):
        if os.path.isfile(path):
            return os.path.normpath(path)
    raise ImportError(f"crafter_toolkit.constants: {name} is neither in the package "
                      f"({os.path.join(_HERE, 'data')}) nor in a source tree around it "
                      f"({tree_path})")


def _id_lists(text):
    """{"MATERIALS": [names], ...} from the X-macro lists of include/crafter/ids.h."""
    lists = {}
    for match in re.finditer(r"#define CRAFTER_(\w+)\(X\)((?:[^\n]*\\\n)*[^\n]*)", text):
        lists[match.group(1)] = re.findall(r'X\(\w+, "(\w+)"\)', match.group(2))
    return lists


# -- the YAML of data/crafter.yaml -----------------------------------------
# Block mappings by indentation, flow mappings and lists, plain scalars and
# comments: what crafter-config(5) files written like data/crafter.yaml use.

_TOKEN = re.compile(r"\s*([{}\[\],:]|[^{}\[\],:\s][^{}\[\],:]*)")


def _scalar(text):
    text = text.strip()
    if text in ("null", "~", ""):
        return None
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _flow(text):
    """A flow value ({a: 1, b: [x, y]}) or a plain scalar."""
    tokens = [t.strip() for t in _TOKEN.findall(text)]
    at = 0

    def value():
        nonlocal at
        token = tokens[at]
        at += 1
        if token == "{":
            result = {}
            while tokens[at] != "}":
                key = tokens[at]
                if tokens[at + 1] != ":":
                    raise ValueError(f"expected ':' after {key!r} in {text!r}")
                at += 2
                result[_scalar(key)] = value()
                if tokens[at] == ",":
                    at += 1
            at += 1
            return result
        if token == "[":
            result = []
            while tokens[at] != "]":
                result.append(value())
                if tokens[at] == ",":
                    at += 1
            at += 1
            return result
        return _scalar(token)

    result = value()
    if at != len(tokens):
        raise ValueError(f"unexpected {tokens[at]!r} in {text!r}")
    return result


def _yaml(text):
    """The mapping a YAML file of block mappings and flow values holds."""
    lines = []
    for line in text.splitlines():
        line = re.sub(r"(^|\s)#.*", "", line).rstrip()
        if line.strip():
            lines.append((len(line) - len(line.lstrip(" ")), line.strip()))

    def block(at, indent):
        result = {}
        while at < len(lines) and lines[at][0] == indent:
            key, _, rest = lines[at][1].partition(":")
            if not _ or key.startswith("-"):
                raise ValueError(f"not a 'key: value' line: {lines[at][1]!r}")
            at += 1
            if rest.strip():
                result[_scalar(key)] = _flow(rest)
            elif at < len(lines) and lines[at][0] > indent:
                result[_scalar(key)], at = block(at, lines[at][0])
            else:
                result[_scalar(key)] = None
        if at < len(lines) and lines[at][0] > indent:
            raise ValueError(f"unexpected indentation: {lines[at][1]!r}")
        return result, at

    result, at = block(0, 0)
    if at != len(lines):
        raise ValueError(f"unexpected indentation: {lines[at][1]!r}")
    return result


def _load():
    with open(_data_file("ids.h", "include/crafter/ids.h"), encoding="utf-8") as stream:
        ids = _id_lists(stream.read())
    with open(_data_file("crafter.yaml", "data/crafter.yaml"), encoding="utf-8") as stream:
        rules = _yaml(stream.read())
    found = _textures.crafter_assets()
    return {
        "root": pathlib.Path(os.path.dirname(found) if found else _HERE),
        "actions": list(ids["ACTIONS"]),
        "materials": [name for name in ids["MATERIALS"] if name != "none"],
        "walkable": rules["walkable"],
        "items": rules["items"],
        "collect": rules["collect"],
        "place": rules["place"],
        "make": rules["make"],
        "achievements": list(ids["ACHIEVEMENTS"]),
    }


globals().update(_load())
