#!/usr/bin/env python3
"""Grows a workbook planner init wrote the way a user grows it, along one
dimension, for bench/compare.sh (the same growth as BenchmarkEvalGrown in
cmd/planner/bench_test.go):

    python3 bench/grow.py IN.xlsx OUT.xlsx offers N      N offers of the node's GPU appended to Cloud, $1.50 to $6.50
    python3 bench/grow.py IN.xlsx OUT.xlsx scenarios N   N scenario columns appended to Scenarios, capex and utilisation varying
    python3 bench/grow.py IN.xlsx OUT.xlsx formulas N    N rows appended to Formulas, each a line over the cost per GPU-hour
    python3 bench/grow.py IN.xlsx OUT.xlsx usercells N   a sheet of the user's own, Data, of N cells, ten to a row
    python3 bench/grow.py IN.xlsx OUT.xlsx deployments N N rows appended to Deployments: the 70B model on 1, 2, 4 or 8
                                                         H100 SXM cards, one to three replicas, all month or 12 hours
                                                         on workdays, at RunPod's or Lambda's price
    python3 bench/grow.py IN.xlsx OUT.xlsx correlations N ten uncertain inputs (the default's six, and residual,
                                                         maintenance, staff and network given ranges) and exactly N
                                                         of their 45 pairs correlated at 0.2, in order (0 removes the
                                                         default's one; 1 and 45 give matrices planner can use)
"""

import copy
import datetime
import sys

import openpyxl


def append_rows(ws, rows):
    """Appends rows below the last, each cell styled as the one above the
    first new row, as a spreadsheet extends a table's formatting."""
    last = ws.max_row
    styles = [ws.cell(last, c)._style for c in range(1, len(rows[0]) + 1)]
    for i, row in enumerate(rows):
        for c, v in enumerate(row, start=1):
            cell = ws.cell(last + 1 + i, c, v)
            cell._style = copy.copy(styles[c - 1])


def offers(wb, n):
    as_of = datetime.datetime(2026, 10, 10)
    append_rows(wb["Cloud"], [["Cloud", f"H100 offer {i + 1}", "H100 SXM", 1.5 + 5 * i / n, as_of,
                               "a grown price list", "Added to measure eval at many offers."] for i in range(n)])


def scenarios(wb, n):
    ws = wb["Scenarios"]
    rows = {ws.cell(r, 1).value: r for r in range(1, ws.max_row + 1)}
    first = ws.max_column + 1
    for i in range(n):
        c = first + i
        ws.cell(1, c, f"grown {i + 1}")
        ws.cell(rows["notes"], c, "Added to measure eval at many scenarios.")
        ws.cell(rows["capex"], c, 250000 + 70000 * i / n)
        ws.cell(rows["utilization"], c, 0.25 + 0.65 * ((i * 37) % n) / n)


def formulas(wb, n):
    append_rows(wb["Formulas"], [[f"grown_{i + 1}", f"cost_per_gpu_hour * {1 + i / n:g} + {i % 10}", "$/GPU-h",
                                  "Added to measure eval at many formulas.", f"Grown line {i + 1}"]
                                 for i in range(n)])


def usercells(wb, n):
    ws = wb.create_sheet("Data")
    width = 10
    for r in range(n // width):
        ws.append([f"item {r + 1}"] + [r * width + c + 0.25 for c in range(1, width)])


def deployments(wb, n):
    rows = []
    for i in range(n):
        hours = [None, None, 730] if i % 2 == 0 else [12, 22, None]
        offer = ["RunPod H100 SXM, Community", "Lambda H100, 8-GPU plan"][i // 2 % 2]
        rows.append([f"grown deployment {i + 1} of the 70B service", "Llama 3.1 70B", None, "H100 SXM", 1 << (i % 4),
                     1 + i % 3] + hours + [offer])
    append_rows(wb["Deployments"], rows)


# The inputs given a range to make ten uncertain ones: name, low, high.
MORE_UNCERTAIN = [("residual", 0, 0.3), ("maintenance_per_year", 0, 0.05), ("staff_per_month", 0, 2000),
                  ("network_per_month", 0, 500)]


def correlations(wb, n):
    ws = wb["Assumptions"]
    col = {str(c.value).strip(): c.column for c in ws[1] if c.value is not None}
    rows = {ws.cell(r, col["name"]).value: r for r in range(2, ws.max_row + 1)}
    for name, low, high in MORE_UNCERTAIN:
        r = rows[name]
        ws.cell(r, col["low"], low)
        ws.cell(r, col["high"], high)
        ws.cell(r, col["distribution"], "triangular")
    uncertain = [ws.cell(r, col["name"]).value for r in range(2, ws.max_row + 1)
                 if ws.cell(r, col["distribution"]).value]
    pairs = [(a, b) for i, a in enumerate(uncertain) for b in uncertain[i + 1:]]
    if n > len(pairs):
        sys.exit(f"grow.py: {len(uncertain)} uncertain inputs have {len(pairs)} pairs, not {n}")
    ws = wb["Correlations"]
    notes = ws.cell(2, 4).value
    ws.delete_rows(2, ws.max_row)
    for i, (a, b) in enumerate(pairs[:n]):
        for c, v in enumerate([a, b, 0.2, notes if i == 0 else None], start=1):
            ws.cell(2 + i, c, v)


def main():
    if len(sys.argv) != 5 or sys.argv[3] not in ("offers", "scenarios", "formulas", "usercells", "deployments",
                                                 "correlations"):
        sys.exit(__doc__)
    src, dst, kind, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    wb = openpyxl.load_workbook(src)
    globals()[kind](wb, n)
    wb.save(dst)


if __name__ == "__main__":
    main()
