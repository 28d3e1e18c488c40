"""Entry point of the release build: the same `chartside` command as the console script.

A native crash prints the Python stack of every thread to stderr (`faulthandler`): code
locations only, never values, so no patient data can reach it. A windowed build on Windows
has no stderr, and then nothing is written.
"""

import faulthandler
import multiprocessing
import sys

from app.entry import main

if __name__ == "__main__":
    if sys.stderr is not None:
        faulthandler.enable(all_threads=True)
    multiprocessing.freeze_support()
    sys.exit(main())
