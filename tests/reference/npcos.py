"""numpy's float64 cos as the reference episodes were recorded with it.

Crafter's daylight is `1 - abs(np.cos(pi * progress)) ** 3`.  numpy 1.24
computes float64 cos with a vectorised routine of its own on x86-64
machines with AVX-512 (where the reference episodes were recorded), and
with the C library's cos elsewhere; the two differ in the last bit for
about half of all steps.  The engine follows the AVX-512 routine
(lib/base/npmath.c), which every reference episode checks.

On a machine whose numpy is not that routine, the live comparisons would
then differ at the first such step for a reason that is the machine's, not
the engine's.  There, `install()` gives the reference's daylight the
AVX-512 routine: lib/base/npmath.c built as a shared object
(tests/reference/npmath.so, made by `make check`), called through ctypes.
Everything else the reference computes stays its own.  Which way it went
is in `STATE` (and in `describe()`).
"""

import ctypes
import os
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = os.path.join(HERE, 'npmath.so')
# Arguments of the first day's daylight, where the routines disagree.
PROBES = [np.pi * ((step / 300) % 1 + 0.3) for step in range(0, 300, 7)]
STATE = None  # 'native', 'shim', or a reason it could not be installed


def _routine():
  library = ctypes.CDLL(LIBRARY)
  function = library.crafter_np_cos
  function.restype = ctypes.c_double
  function.argtypes = [ctypes.c_double]
  return function


def install(module=None):
  """Make crafter.env's np.cos the AVX-512 routine where numpy's is not;
  returns STATE.  With a module (another copy of crafter's env.py, such
  as SmartPlay's), that module's np.cos is given the routine too."""
  global STATE
  if STATE is None:
    STATE = _decide()
  if STATE == 'shim':
    if module is None:
      import crafter.env as module
    if not hasattr(module.np, 'crafter_np_cos'):
      module.np = _numpy_with_cos()
  return STATE


def _decide():
  try:
    routine = _routine()
  except OSError as error:
    return f'lib/base/npmath.c is not built as {LIBRARY} ({error})'
  if all(float(np.cos(x)) == routine(x) for x in PROBES):
    return 'native'
  return 'shim'


def _numpy_with_cos():
  routine = _routine()

  def cos(x):
    if np.ndim(x) == 0:
      return np.float64(routine(float(x)))
    return np.vectorize(routine, otypes=[np.float64])(x)

  numpy_with_cos = types.ModuleType('numpy')
  numpy_with_cos.__dict__.update(np.__dict__)
  numpy_with_cos.cos = cos
  numpy_with_cos.crafter_np_cos = True
  return numpy_with_cos


def describe():
  if STATE == 'native':
    return "numpy's float64 cos is the AVX-512 routine of the reference episodes"
  if STATE == 'shim':
    return ("numpy's float64 cos on this machine is not the AVX-512 routine of the "
            "reference episodes: the reference's daylight uses lib/base/npmath.c's")
  return f'the AVX-512 cos could not be given to the reference: {STATE}'
