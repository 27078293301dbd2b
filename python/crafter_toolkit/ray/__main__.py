"""python -m crafter_toolkit.ray: see crafter_toolkit.ray."""

import sys

from crafter_toolkit.ray import main

sys.exit(main())
