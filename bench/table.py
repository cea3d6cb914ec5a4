#!/usr/bin/env python3
"""Prints bench/compare.sh's tables from its results: one line per run,
tab-separated (workbook, tool, wall s, CPU s, peak RSS KB, ok or failed).

    python3 bench/table.py results.tsv REPEAT SAMPLES MC_SAMPLES DIGEST

Every figure is a median over the runs. Growth and ratios are of CPU time
(user + system), which a busy machine's other work moves less than wall
time; wall time is shown beside it.
"""

import math
import statistics
import sys
from collections import defaultdict

# The targets planner holds itself to (issue 30): how far a size may cost
# over a smaller one, a peer's time over planner's, and planner's own runs.
GROWTH_TARGETS = {("offers", 1000, 3000): 3.4, ("formulas", 1000, 5000): 5.9, ("deployments", 100, 1000): 12.6}
DEFAULT_TARGETS = {"scenarios=1000": 20}
MEMORY_TARGETS = {"offers=3000": 300, "scenarios=1000": 150}
CORRELATION_TARGETS = {1: 1.3, 45: 2.0}
# Measures of several runs in a row (compare.sh), each with the same
# copying and cleaning, so that the ratios between them hold: every tool's
# of the default eval against itself, and planner's of the default
# workbook, which every × default divides by.
LOOPED = {"default eval": 10, ("default", "planner"): 10}


def looped(wb, tool):
    return LOOPED.get((wb, tool), LOOPED.get(wb, 1))


def load(path):
    runs, failed, order = defaultdict(list), set(), []
    for line in open(path):
        wb, tool, wall, cpu, rss, status = line.rstrip("\n").split("\t")
        if wb not in order:
            order.append(wb)
        if status != "ok":
            failed.add((wb, tool))
        n = looped(wb, tool)
        runs[wb, tool].append((float(wall) / n, float(cpu) / n, int(rss) / 1024))
    return runs, failed, order


runs, failed, order = load(sys.argv[1])
repeat, samples, mc_samples, digest = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "yes"


def ok(wb, tool):
    return (wb, tool) in runs and (wb, tool) not in failed


def med(wb, tool, i):
    return statistics.median(r[i] for r in runs[wb, tool])


def cpu(wb, tool="planner"):
    return med(wb, tool, 1)


def cell(wb, tool):
    if (wb, tool) in failed:
        return "failed"
    if (wb, tool) not in runs:
        return ""
    return f"{med(wb, tool, 1):.2f} s CPU ({med(wb, tool, 0):.2f} s, {med(wb, tool, 2):.0f} MB)"


def times(x):
    return f"{x:.1f}×" if x >= 1 else f"{x:.2g}×"


def ratio(wb, tool):
    return times(cpu(wb, tool) / cpu(wb)) if ok(wb, tool) and ok(wb, "planner") else ""


def dimension(wb):
    name, _, size = wb.partition("=")
    return (name, int(size)) if size else (name, 0)


grown = [wb for wb in order if wb != "default eval" and not wb.startswith("correlations=")]
print(f"Growth, every workbook with --samples {samples:,}; ratios of CPU time, a peer's over planner's "
      "(above 1, planner is faster)")
print()
print("| workbook | planner eval | LibreOffice | Python/openpyxl | LibreOffice / planner | Python / planner "
      "| exponent | × default |")
print("|---|---|---|---|---|---|---|---|")
checks = []
for wb in grown:
    exponent, vs_default = "", ""
    name, size = dimension(wb)
    if size and ok(wb, "planner"):
        smaller = [o for o in grown if dimension(o)[0] == name and dimension(o)[1] < size and ok(o, "planner")]
        if smaller:
            s = max(smaller, key=lambda o: dimension(o)[1])
            growth = cpu(wb) / cpu(s)
            e = math.log(growth) / math.log(size / dimension(s)[1])
            exponent = f"{e:.2f} ({times(growth)} from {dimension(s)[1]:,})"
            for (dim, lo, hi), target in GROWTH_TARGETS.items():
                if dim == name and hi == size and dimension(s)[1] == lo:
                    checks.append((f"{name} {lo:,} → {hi:,}", growth, target))
        if ok("default", "planner"):
            x = cpu(wb) / cpu("default")
            vs_default = times(x)
            if wb in DEFAULT_TARGETS:
                checks.append((f"{wb} against the default workbook", x, DEFAULT_TARGETS[wb]))
        if wb in MEMORY_TARGETS:
            checks.append((f"{wb}, peak resident MB", med(wb, "planner", 2), MEMORY_TARGETS[wb]))
    print(f"| {wb} | {cell(wb, 'planner')} | {cell(wb, 'libreoffice')} | {cell(wb, 'python')} "
          f"| {ratio(wb, 'libreoffice')} | {ratio(wb, 'python')} | {exponent} | {vs_default} |")

correlated = [wb for wb in order if wb.startswith("correlations=")]
if correlated:
    print()
    print(f"Monte Carlo, {mc_samples:,} samples a scenario, ten uncertain inputs, N of their 45 pairs correlated; "
          "ratios of CPU time")
    print()
    print("| workbook | planner eval | numpy | numpy / planner | × uncorrelated |")
    print("|---|---|---|---|---|")
    for wb in correlated:
        against = ""
        pairs = dimension(wb)[1]
        if pairs and ok(wb, "planner") and ok("correlations=0", "planner"):
            x = cpu(wb) / cpu("correlations=0")
            against = times(x)
            if pairs in CORRELATION_TARGETS:
                checks.append((f"{pairs} correlated pair{'s' if pairs > 1 else ''} against none", x,
                               CORRELATION_TARGETS[pairs]))
        print(f"| {wb} | {cell(wb, 'planner')} | {cell(wb, 'numpy')} | {ratio(wb, 'numpy')} | {against} |")

if "default eval" in order:
    wb = "default eval"
    print()
    print("The default workbook with eval's own flags: a first eval, a second of the unchanged workbook with an "
          "empty cache folder, and the floor (excelize opening the evaluated workbook and saving it)")
    print()
    print("| run | CPU (wall, peak resident) | against |")
    print("|---|---|---|")
    print(f"| first eval | {cell(wb, 'first')} | |")
    if ok(wb, "again") and ok(wb, "first"):
        x = cpu(wb, "again") / cpu(wb, "first")
        print(f"| second eval, empty cache | {cell(wb, 'again')} | {times(x)} the first |")
        checks.append(("second eval with an empty cache against the first" + ("" if digest else " (no digest)"), x,
                       0.5))
    if ok(wb, "floor") and ok(wb, "first"):
        x = cpu(wb, "first") / cpu(wb, "floor")
        print(f"| floor: excelize open and save | {cell(wb, 'floor')} | the first eval is {times(x)} it |")
        checks.append(("the first eval against the floor", x, 3.5))

if checks:
    print()
    print("| target | measured | at most | |")
    print("|---|---|---|---|")
    for what, x, target in checks:
        print(f"| {what} | {x:.3g} | {target:g} | {'met' if x <= target else 'not met'} |")
print()
print(f"Medians of {repeat} runs each, measured by GNU time: CPU is user + system; resident memory is the peak of "
      "the largest process. planner's default workbook and the default eval against itself are each one run's share "
      "of ten in a row.")
