#!/usr/bin/env python3
"""planner's cost model as a plain Python/openpyxl pass, the script a user
would write instead of planner.

It reads a workbook planner init wrote (Assumptions, Scenarios, GPUs, Cloud),
computes for every scenario what owning one GPU costs per calendar hour and
per used hour (the built-in owning formulas of formulas/library/1-owning.expr:
capital with the cost of capital as Excel's PMT, power, rack, maintenance,
staff, network) and, for each cloud offer of the scenario's GPU, the
utilisation at which owning breaks even (cost per GPU-hour over the offer's
price, 2-renting.expr), writes them to a sheet of its own and saves the
workbook.

It knows only the built-in formulas: a Formulas sheet the user changed is not
read, and neither are Monte Carlo, sizing, deployments or what-ifs. openpyxl
does not keep charts it reads, so the saved workbook loses planner's.

    python3 bench/costmodel.py plan.xlsx [-o out.xlsx]
    python3 bench/costmodel.py plan.xlsx --check-against planner.json

--check-against compares its numbers with those of
`planner eval plan.xlsx --format json` and prints the largest relative
difference; it exits 1 when that is above 1e-9 or a number is missing.
"""

import argparse
import json
import re
import sys

import openpyxl

RESULTS = "Python results"
REFERENCE = re.compile(r"^=\s*(?:'((?:[^']|'')+)'|([A-Za-z_][\w.]*))!\$?([A-Za-z]{1,3})\$?(\d+)\s*$")


def value(wb, cell, depth=0):
    """A cell's value, a reference to another cell (=Assumptions!$D$6)
    followed to that cell's, percentages and dollars typed as text read as
    numbers."""
    v = cell.value
    if isinstance(v, str) and v.startswith("="):
        m = REFERENCE.match(v)
        if not m or depth > 20:
            raise SystemExit(f"{cell.parent.title}!{cell.coordinate}: formula {v} is not a plain reference")
        sheet = (m.group(1) or "").replace("''", "'") or m.group(2)
        return value(wb, wb[sheet][f"{m.group(3).upper()}{m.group(4)}"], depth + 1)
    if isinstance(v, str):
        text = v.strip().replace(",", "").replace("$", "")
        try:
            return float(text[:-1]) / 100 if text.endswith("%") else float(text)
        except ValueError:
            return v.strip()
    return v


def header(ws):
    return {str(c.value).strip(): i for i, c in enumerate(ws[1]) if c.value is not None}


def read_model(wb):
    """The inputs of the base (Assumptions), the scenarios in order, each a
    name and the inputs it overrides, the GPUs' board watts and the offers."""
    ws = wb["Assumptions"]
    col = header(ws)
    base = {}
    for row in ws.iter_rows(min_row=2):
        name = row[col["name"]].value
        if name:
            base[str(name).strip()] = value(wb, row[col["value"]])

    scenarios = [("base", {})]
    ws = wb["Scenarios"]
    names = [c.value for c in ws[1]]
    inputs = {}
    for row in ws.iter_rows(min_row=2, max_col=1):
        if row[0].value and str(row[0].value).strip() != "notes":
            inputs[str(row[0].value).strip()] = row[0].row
    for c, name in enumerate(names[1:], start=2):
        if name is None or str(name).strip() == "":
            continue
        overrides = {}
        for input_name, r in inputs.items():
            cell = ws.cell(r, c)
            if cell.value is not None and cell.value != "":
                overrides[input_name] = value(wb, cell)
        scenarios.append((str(name).strip(), overrides))

    ws = wb["GPUs"]
    col = header(ws)
    watts = {}
    for row in ws.iter_rows(min_row=2, values_only=True):
        if row[col["name"]]:
            watts[str(row[col["name"]]).strip()] = row[col["board watts"]]

    ws = wb["Cloud"]
    col = header(ws)
    offers = []
    for row in ws.iter_rows(min_row=2, values_only=True):
        if row[col["offer"]] is None:
            continue
        price = row[col["$/GPU-hour"]]
        if isinstance(price, str):
            price = float(price.strip().replace("$", "").replace(",", ""))
        offers.append((str(row[col["provider"]]).strip(), str(row[col["offer"]]).strip(),
                       str(row[col["gpu"]]).strip(), price))
    return base, scenarios, watts, offers


def owning(v):
    """1-owning.expr's chain, formula by formula."""
    gpus, hours = v["gpus"], v["hours_per_month"]
    months, residual, capex = v["amortization_months"], v["residual"], v["capex"]
    per_gpu_capex = capex / gpus
    amortization_hours = months * hours
    monthly_rate = v["cost_of_capital"] / 12
    discount_factor = (1 + monthly_rate) ** -months
    annuity_factor = months if monthly_rate == 0 else (1 - discount_factor) / monthly_rate
    capital_per_month = (capex * (1 - residual) / months if monthly_rate == 0
                         else (capex - residual * capex * discount_factor) / annuity_factor)
    capital = (per_gpu_capex * (1 - residual) / amortization_hours if monthly_rate == 0
               else capital_per_month / gpus / hours)
    node_kw = v["gpu_watts"] * gpus * v["pue"] / 1000
    power_per_month = node_kw * hours * v["electricity_price"]
    power = power_per_month / gpus / hours
    rack = v["rack_per_month"] / gpus / hours
    maintenance = capex * v["maintenance_per_year"] / 12 / gpus / hours
    staff = v["staff_per_month"] / gpus / hours
    network = v["network_per_month"] / gpus / hours
    cost = capital + power + rack + maintenance + staff + network
    return {"capital_per_gpu_hour": capital, "power_per_gpu_hour": power, "rack_per_gpu_hour": rack,
            "cost_per_gpu_hour": cost, "cost_per_used_hour": cost / v["utilization"]}


def evaluate(base, scenarios, watts, offers):
    results = []
    for name, overrides in scenarios:
        v = dict(base)
        v.update(overrides)
        v.setdefault("gpu_watts", watts.get(v["gpu"]))
        out = owning(v)
        breakeven = [(provider, offer, price, out["cost_per_gpu_hour"] / price)
                     for provider, offer, gpu, price in offers if gpu == v["gpu"]]
        results.append((name, v["gpu"], out, breakeven))
    return results


def write(wb, results):
    if RESULTS in wb.sheetnames:
        del wb[RESULTS]
    ws = wb.create_sheet(RESULTS)
    ws.append(["scenario", "gpu", "capital per GPU-hour", "power per GPU-hour", "rack per GPU-hour",
               "cost per GPU-hour", "cost per used GPU-hour", "offer", "$/GPU-hour", "break-even utilisation"])
    for name, gpu, out, breakeven in results:
        lines = [name, gpu, out["capital_per_gpu_hour"], out["power_per_gpu_hour"], out["rack_per_gpu_hour"],
                 out["cost_per_gpu_hour"], out["cost_per_used_hour"]]
        if not breakeven:
            ws.append(lines)
        for provider, offer, price, share in breakeven:
            ws.append(lines + [f"{provider} {offer}", price, share])
    for row in ws.iter_rows(min_row=2, min_col=3, max_col=9):
        for cell in row:
            if cell.column <= 7 or cell.column == 9:
                cell.number_format = "$#,##0.0000"
    for (cell,) in ws.iter_rows(min_row=2, min_col=10, max_col=10):
        cell.number_format = "0.0%"


def check(results, path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    theirs = {s["name"]: s for s in doc["scenarios"]}
    worst, where, compared, problems = 0.0, "", 0, []

    def compare(label, mine, planners):
        nonlocal worst, where, compared
        if planners is None:
            problems.append(f"{label}: planner gives no number")
            return
        compared += 1
        diff = abs(mine - planners) / max(abs(planners), 1e-300)
        if diff > worst or not where:
            worst, where = diff, f"{label}: {mine!r} against planner's {planners!r}"

    for name, _, out, breakeven in results:
        s = theirs.get(name)
        if s is None:
            problems.append(f"scenario {name}: not in planner's output")
            continue
        for key in ("capital_per_gpu_hour", "power_per_gpu_hour", "rack_per_gpu_hour",
                    "cost_per_gpu_hour", "cost_per_used_hour"):
            compare(f"{name} {key}", out[key], s["values"].get(key))
        offers = {(o["provider"], o["offer"]): o for o in s["offers"] if o.get("compared")}
        for provider, offer, _, share in breakeven:
            o = offers.pop((provider, offer), None)
            compare(f"{name} break-even against {provider} {offer}", share,
                    None if o is None else o.get("breakeven_utilization"))
        for provider, offer in offers:
            problems.append(f"{name}: planner compares {provider} {offer}, this script does not")
    for name in theirs.keys() - {r[0] for r in results}:
        problems.append(f"scenario {name}: planner's, not this script's")
    print(f"compared {compared} numbers of {len(results)} scenarios with {path}: "
          f"largest relative difference {worst:.3g} ({where})")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems or worst > 1e-9 else 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("workbook")
    p.add_argument("-o", "--output", help="save to this file instead of the workbook itself")
    p.add_argument("--check-against", metavar="PLANNER_JSON",
                   help="compare with planner eval --format json's output; save nothing")
    args = p.parse_args()
    wb = openpyxl.load_workbook(args.workbook)
    results = evaluate(*read_model(wb))
    if args.check_against:
        return check(results, args.check_against)
    write(wb, results)
    wb.save(args.output or args.workbook)
    return 0


if __name__ == "__main__":
    sys.exit(main())
