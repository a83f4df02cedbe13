"""``python -m cubilete``."""

import sys

from cubilete.cli import main

sys.exit(main())
