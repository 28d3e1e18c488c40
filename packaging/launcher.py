"""Entry point of the release build: the same `chartside` command as the console script."""

import multiprocessing
import sys

from app.entry import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
