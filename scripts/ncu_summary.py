#!/usr/bin/env python3
"""Sums Nsight Compute's per-kernel times (`ncu --csv --metrics
gpu__time_duration.sum`) by graph and by dispatch kind: where a compiled
graph's time goes on the GPU. IREE names each kernel
`<graph>_dispatch_<n>_<kind>`; kernels of one graph add up to its calls
(hand-written kernels are summed apart: their names carry no graph).

    scripts/ncu_summary.py ncu.csv [--top 20]
"""
import argparse
import collections
import csv
import re


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()
    graphs = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0.0]))
    with open(args.csv, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("Metric Name") != "gpu__time_duration.sum":
                continue
            name = row["Kernel Name"]
            match = re.match(r"(.*?)_dispatch_\d+_(.*)", name)
            # Hand-written kernels (hal.dispatch.extern) carry no graph name.
            graph, kind = match.groups() if match else ("(hand-written kernels, every graph)", name)
            value = float(row["Metric Value"].replace(",", ""))
            # In the unit its column names ("ns" from ncu 2025; "nsecond" in older ones).
            unit = row.get("Metric Unit", "ns")
            us = value * {"ns": 1e-3, "nsecond": 1e-3, "ms": 1e3, "msecond": 1e3}.get(unit, 1.0)
            entry = graphs[graph][kind]
            entry[0] += 1
            entry[1] += us
    for graph, kinds in sorted(graphs.items(), key=lambda g: -sum(t for _, t in g[1].values())):
        total = sum(t for _, t in kinds.values())
        count = sum(c for c, _ in kinds.values())
        print(f"== {graph}: {count} kernels, {total / 1000:.2f} ms (every call ncu saw)")
        for kind, (c, t) in sorted(kinds.items(), key=lambda k: -k[1][1])[: args.top]:
            print(f"  {t / 1000:8.3f} ms {100 * t / total:5.1f}% {c:5d} x {t / c:8.1f} us  {kind}")


if __name__ == "__main__":
    main()
