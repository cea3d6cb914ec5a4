#!/usr/bin/env python3
"""planner's Monte Carlo as a numpy pass, the script a user would write
instead of planner for the uncertainty, for bench/compare.sh.

It reads a workbook planner init wrote with openpyxl (bench/costmodel.py's
reader: Assumptions, Scenarios, GPUs, Cloud; and here the Assumptions'
ranges and the Correlations sheet) and, for every scenario, draws SAMPLES
values of each input with a range, triangular between its low and high
with the scenario's value as the mode (held at the value where the range
does not hold it), correlated as the Correlations sheet says by
Iman-Conover on van der Waerden scores, and evaluates costmodel.py's owning
formulas on all of them at once with numpy. It prints, per scenario, the
mean, P5, P50 and P95 of the cost per GPU-hour and per used hour, and for
each offer of the scenario's GPU the share of samples in which owning is
cheaper. It writes nothing.

It does far less than planner's Monte Carlo (no user formulas, no NPV, no
close calls, no exact percentiles kept for millions of samples without a
sort, no sheets): it is the floor of what a numpy script costs.

    python3 bench/montecarlo.py plan.xlsx [--samples N] [--seed S]
"""

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import openpyxl

sys.path.insert(0, str(Path(__file__).resolve().parent))
import costmodel  # noqa: E402


def ranges(wb):
    """Each input with a range: name, low, high."""
    ws = wb["Assumptions"]
    col = costmodel.header(ws)
    out = {}
    for row in ws.iter_rows(min_row=2, values_only=True):
        name = row[col["name"]]
        low, high = row[col["low"]], row[col["high"]]
        if name and isinstance(low, (int, float)) and isinstance(high, (int, float)) and low < high:
            out[str(name).strip()] = (float(low), float(high))
    return out


def correlations(wb):
    """The Correlations sheet's pairs: (a, b, rho)."""
    if "Correlations" not in wb.sheetnames:
        return []
    ws = wb["Correlations"]
    pairs = []
    for row in ws.iter_rows(min_row=2, max_col=3, values_only=True):
        if row[0] and row[1] and isinstance(row[2], (int, float)):
            pairs.append((str(row[0]).strip(), str(row[1]).strip(), float(row[2])))
    return pairs


def inverse_normal(p):
    """Acklam's rational approximation of the standard normal quantile,
    vectorised (relative error under 1.2e-9)."""
    a = [-3.969683028665376e01, 2.209460984245205e02, -2.759285104469687e02, 1.383577518672690e02,
         -3.066479806614716e01, 2.506628277459239e00]
    b = [-5.447609879822406e01, 1.615858368580409e02, -1.556989798598866e02, 6.680131188771972e01,
         -1.328068155288572e01]
    c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e00, -2.549732539343734e00,
         4.374664141464968e00, 2.938163982698783e00]
    d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00]
    p = np.asarray(p, dtype=float)
    x = np.empty_like(p)
    lo, hi = p < 0.02425, p > 1 - 0.02425
    mid = ~(lo | hi)
    q = p[mid] - 0.5
    r = q * q
    x[mid] = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
              (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1))
    for mask, sign, pp in ((lo, 1, p[lo]), (hi, -1, 1 - p[hi])):
        q = np.sqrt(-2 * np.log(pp))
        x[mask] = sign * ((((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                          ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1))
    return x


def correlate(draws, names, pairs):
    """Iman-Conover: reorders each correlated input's draws so that their
    ranks follow van der Waerden scores given the target correlations."""
    pairs = [(a, b, rho) for a, b, rho in pairs if a in names and b in names]  # a held input takes no part
    joined = [n for n in names if any(n in (a, b) for a, b, _ in pairs)]
    if len(joined) < 2:
        return
    n, k = len(draws[joined[0]]), len(joined)
    target = np.eye(k)
    for a, b, rho in pairs:
        i, j = joined.index(a), joined.index(b)
        target[i, j] = target[j, i] = rho
    scores = inverse_normal(np.arange(1, n + 1) / (n + 1))
    rng = np.random.default_rng(1)
    s = np.column_stack([rng.permutation(scores) for _ in range(k)])
    e = np.corrcoef(s, rowvar=False)
    t = s @ np.linalg.inv(np.linalg.cholesky(e)).T @ np.linalg.cholesky(target).T
    for j, name in enumerate(joined):
        ranks = np.argsort(np.argsort(t[:, j]))
        draws[name] = np.sort(draws[name])[ranks]


def stats(x):
    p5, p50, p95 = np.percentile(x, [5, 50, 95])
    return f"mean {x.mean():.4f} P5 {p5:.4f} P50 {p50:.4f} P95 {p95:.4f}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("workbook")
    p.add_argument("--samples", type=int, default=10000)
    p.add_argument("--seed", type=int, default=2026)
    args = p.parse_args()
    wb = openpyxl.load_workbook(args.workbook)
    base, scenarios, watts, offers = costmodel.read_model(wb)
    uncertain, pairs = ranges(wb), correlations(wb)
    rng = np.random.default_rng(args.seed)
    for name, overrides in scenarios:
        v = dict(base)
        v.update(overrides)
        v.setdefault("gpu_watts", watts.get(v["gpu"]))
        draws = {}
        for input_name, (low, high) in uncertain.items():
            mode = v.get(input_name)
            if isinstance(mode, (int, float)) and low <= mode <= high:
                draws[input_name] = rng.triangular(low, mode, high, args.samples)
        correlate(draws, list(draws), pairs)
        v.update(draws)
        out = costmodel.owning(v)
        cost = out["cost_per_gpu_hour"] * np.ones(args.samples)
        line = [f"{name}: cost per GPU-hour {stats(cost)}; per used hour {stats(out['cost_per_used_hour'] * np.ones(args.samples))}"]
        utilization = v["utilization"] * np.ones(args.samples)
        for provider, offer, gpu, price in offers:
            if gpu == v["gpu"]:
                cheaper = np.mean(utilization >= cost / price)
                line.append(f"{provider} {offer}: owning cheaper in {cheaper:.1%}")
        print("; ".join(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
