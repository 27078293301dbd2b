"""What the tests that run another project's files unchanged share
(test_balrog.py, test_smartplay.py and the scripts they start):

- pinned_files: that project's files at a pinned commit, each checked
  against its git blob id, from a checkout the user names, else a cache
  folder outside the project, else downloaded into that cache; or the
  reason to skip;
- plain: a JSON-able picture of a value, its type included, for two runs
  to be compared line by line;
- played: the lines of such a run, as a script of the test writes them.

It imports nothing beyond the standard library but numpy, so both the
test's Python and the suite's own can use it."""

import hashlib
import json
import os
import subprocess
import urllib.request


def blob_id(data):
    """The git blob id of a file's bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def pinned_files(name, files, url, commit, source_variable, cache, inside=""):
    """(the folder holding the project's files at `commit`, None), or
    (None, the reason to skip).  files maps each path (relative to
    `inside` in the project) to its blob id; url has {commit} and {path};
    the environment variable source_variable may name a checkout (its
    files are never downloaded into it), else they are looked for in, and
    downloaded to, the folder `cache`.  A file whose bytes are not the
    commit's fails the test."""
    source = os.environ.get(source_variable)
    folder = source or cache
    prefix = inside + "/" if inside else ""
    for path, blob in files.items():
        target = os.path.join(folder, *prefix.split("/")[:-1], *path.split("/"))
        if not os.path.isfile(target) and not source:
            try:
                with urllib.request.urlopen(url.format(commit=commit, path=path),
                                            timeout=30) as answer:
                    data = answer.read()
            except OSError as error:
                return None, (f"{name}'s files could not be fetched from GitHub ({error}): set "
                              f"{source_variable} to a checkout of it at {commit}")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target + ".part", "wb") as stream:
                stream.write(data)
            os.replace(target + ".part", target)
        try:
            with open(target, "rb") as stream:
                data = stream.read()
        except OSError as error:
            return None, f"{name}'s {prefix}{path} is not in {folder} ({error})"
        assert blob_id(data) == blob, f"{target} is not {name}'s {prefix}{path} at {commit}"
    return folder, None


def digest(value):
    import numpy as np
    return hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()[:24]


def plain(value):
    """A JSON-able picture of a value, its type included: arrays by their
    type, shape and digest (arrays of objects value by value), numpy
    scalars by their type and value, containers item by item, long texts
    by their length and digest."""
    import numpy as np
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return ["objects", list(value.shape), [plain(v) for v in value.ravel()]]
        return ["ndarray", str(value.dtype), list(value.shape), digest(value)]
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return [type(value).__name__, value.item()]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return ["set", sorted(plain(v) for v in value)]
    if isinstance(value, (list, tuple)):
        return [type(value).__name__, [plain(v) for v in value]]
    if isinstance(value, float):
        return ["float", value]
    if isinstance(value, str) and len(value) > 2000:
        return ["text", len(value), hashlib.sha256(value.encode()).hexdigest()[:24]]
    return value


def played(python, script, side, folder, out, settings, crafter_step, environment=None,
           unset=(), timeout=900):
    """The JSON lines `python script side folder out settings` (settings
    as JSON) writes to out, run in environment (else this process's) with
    CRAFTER_STEP crafter_step unless it names one, and without PYTHONPATH
    or the variables in unset.  A failed run fails the test."""
    env = dict(os.environ if environment is None else environment)
    env.setdefault("CRAFTER_STEP", crafter_step)
    for name in ("PYTHONPATH",) + tuple(unset):
        env.pop(name, None)
    done = subprocess.run([python, script, side, folder, str(out), json.dumps(settings)],
                          env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-4000:]
    with open(out) as stream:
        return [json.loads(line) for line in stream]
