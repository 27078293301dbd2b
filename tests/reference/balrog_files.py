"""BALROG's own files (balrog-ai/BALROG at a pinned commit), for the
comparisons of balrog_text.py and llm_scores.py.

They are not part of the toolkit: each is read from a checkout of BALROG
at COMMIT (BALROG_SOURCE), or from the folder python/tests/test_balrog.py
keeps them in (BALROG_CACHE, else build-reference/balrog-COMMIT), or from
the cache (CRAFTER_REFERENCE_CACHE, else $XDG_CACHE_HOME/crafter-toolkit,
else ~/.cache/crafter-toolkit, under balrog/COMMIT/), else downloaded into
that cache from GitHub; its SHA-256 must be the pinned one.  `fetch` returns the path, or
None with the reason when the file can be neither found nor downloaded
(no network); a file whose checksum is wrong is an error.  `gym_stub`
stands in for gym, which BALROG's wrapper module imports, where it is not
installed.
"""

import hashlib
import os
import sys
import types
import urllib.request

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))

COMMIT = 'af7d1f17e0deec3a7a0e334beae5f11b7a21371b'
FILES = {
    'env.py': ('balrog/environments/crafter/env.py',
               '99d9da1b4858322ca5a821c14964c4290acff55c9b046e4901f9f266575e5d9e'),
    'utils.py': ('balrog/utils.py',
                 '982e9ef10e56c56fc22d3462c38bf0253e09ab0c4a36d9ec19208c8ca5da8155'),
}


def cache_dir():
  base = os.environ.get('CRAFTER_REFERENCE_CACHE')
  if not base:
    base = os.path.join(os.environ.get('XDG_CACHE_HOME') or
                        os.path.join(os.path.expanduser('~'), '.cache'), 'crafter-toolkit')
  return os.path.join(base, 'balrog', COMMIT)


def fetch(name, given=None):
  """The path of BALROG's file `name` (a key of FILES), checked."""
  path, digest = FILES[name]
  where = given or os.path.join(cache_dir(), name)
  if not given:
    for folder in (os.environ.get('BALROG_SOURCE'), os.environ.get('BALROG_CACHE') or
                   os.path.join(TOP, 'build-reference', 'balrog-' + COMMIT[:12])):
      found = folder and os.path.join(folder, *path.split('/'))
      if found and os.path.isfile(found):
        with open(found, 'rb') as f:
          if hashlib.sha256(f.read()).hexdigest() == digest:
            return found, None
  data = None
  if os.path.exists(where):
    with open(where, 'rb') as f:
      data = f.read()
  if data is None or (not given and hashlib.sha256(data).hexdigest() != digest):
    url = 'https://raw.githubusercontent.com/balrog-ai/BALROG/%s/%s' % (COMMIT, path)
    try:
      with urllib.request.urlopen(url, timeout=30) as response:
        data = response.read()
    except OSError as error:
      return None, 'cannot download %s (%s) and %s does not hold it' % (url, error, where)
    if hashlib.sha256(data).hexdigest() == digest:
      os.makedirs(os.path.dirname(where), exist_ok=True)
      with open(where + '.tmp', 'wb') as f:
        f.write(data)
      os.replace(where + '.tmp', where)
  if hashlib.sha256(data).hexdigest() != digest:
    sys.exit('%s is not BALROG %s %s (SHA-256 %s, expected %s)' % (
        where, COMMIT[:12], path, hashlib.sha256(data).hexdigest(), digest))
  return where, None


def gym_stub():
  """A module gym whose Wrapper keeps the env and passes step on, all
  that BALROG's wrapper module asks of gym."""
  gym = types.ModuleType('gym')

  class Wrapper:
    def __init__(self, env):
      self.env = env

    def step(self, action):
      return self.env.step(action)

  gym.Wrapper = Wrapper
  return gym
