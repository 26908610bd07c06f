"""Prints the instructions of an ncu source page (--print-source sass --csv) that hold
the most warp-state samples, with their stall reasons; and the totals by reason."""
import csv, sys

rows = list(csv.reader(open(sys.argv[1], errors="replace")))
head = next(i for i, r in enumerate(rows) if "Source" in r)
names = rows[head]
data = [r for r in rows[head + 1:] if len(r) == len(names)]
def number(s):
    try:
        return float(s.replace(",", ""))
    except ValueError:
        return 0.0
total = next(i for i, n in enumerate(names) if n.startswith("Warp Stall Sampling (All"))
src = names.index("Source")
reasons = [i for i, n in enumerate(names) if n.startswith("stall_") or "Stall" in n and i != total]
print("columns:", [n for n in names][:60])
all_samples = sum(number(r[total]) for r in data)
print(f"samples {all_samples:.0f}")
sums = {i: sum(number(r[i]) for r in data) for i in range(len(names)) if i != src}
for i, s in sorted(sums.items(), key=lambda t: -t[1])[:25]:
    print(f"  {names[i]:60s} {s:12.0f}")
order = sorted(range(len(data)), key=lambda j: -number(data[j][total]))
for j in order[:int(sys.argv[2]) if len(sys.argv) > 2 else 60]:
    r = data[j]
    top = sorted(((number(r[i]), names[i]) for i in reasons if number(r[i]) > 0), reverse=True)[:3]
    print(f"{j:5d} {number(r[total]):8.0f} {100*number(r[total])/all_samples:5.1f}% {r[src][:60]:60s} "
          + ", ".join(f"{n.replace('Warp Stall Sampling','').strip()}={v:.0f}" for v, n in top))
