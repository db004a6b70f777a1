"""parbench's Python test package: what every test script shares, so that a newcomer reads one
copy of it.

  pbtest.run      run a command (the driver, a test host, under mpiexec) with a clean
                  environment; read the JSON, CSV and JSON-lines files it writes
  pbtest.expect   fail at once (fail, require) or record and go on (expect, finish)
  pbtest.mask     the maskers: timings, dates, paths out of each output layout
  pbtest.approve  compare with a golden file; PARBENCH_APPROVE=1 rewrites it
  pbtest.oracle   the PMPI oracle's report: the benchmark's calls, the measurement's own
                  agreements left out

A script finds the package from its own location:
  sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
"""
