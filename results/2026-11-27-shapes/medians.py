"""Medians of a times-N.txt file of this folder: lines `round case binary us`."""
import collections
import statistics
import sys

values = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, case, what, v = line.split()[:4]
    try:
        values[(case, what)].append(float(v))
    except ValueError:
        print("bad", line.strip())
for (case, what), vs in values.items():
    print(f"{case:14s} {what:12s} {statistics.median(vs):8.3f}  {' '.join(f'{v:.3f}' for v in vs)}")
