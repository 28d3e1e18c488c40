"""Benchmarks. Each module defines `register(subparsers)` for `chartside bench NAME`.

Speed is reported as medians with a baseline measured in the same process, never
asserted in timed tests.
"""
