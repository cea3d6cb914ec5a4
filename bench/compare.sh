#!/usr/bin/env bash
# Times planner eval against what a user would pick instead, in the same run
# and on the same workbooks: LibreOffice headless recalculating every formula
# and saving the workbook as xlsx, and a Python/openpyxl pass over the cost
# model (bench/costmodel.py). The workbooks are the one planner init writes
# and that one grown along each dimension (bench/grow.py). Each tool runs
# REPEAT times per workbook (default 5), the three in turn, and the table
# gives the medians of wall time, CPU (user + sys) and peak resident memory.
#
#   bash bench/setup.sh     # once, as root: LibreOffice, openpyxl, GNU time
#   bash bench/compare.sh   # REPEAT=3 WORKBOOKS="default offers=100" to shorten
#
# PLANNER_FLAGS are given to every planner eval (default: none, eval's own
# 10,000 Monte Carlo samples per scenario, as a user types it).
set -euo pipefail

cd "$(dirname "$0")/.."
repeat=${REPEAT:-5}
workbooks=${WORKBOOKS:-default offers=100 offers=1000 scenarios=100 scenarios=1000 formulas=200 formulas=2000 usercells=100000 usercells=1000000}
read -r -a planner_flags <<<"${PLANNER_FLAGS:-}"

python=${PYTHON:-}
if [ -z "$python" ]; then
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import openpyxl' 2>/dev/null; then
			python=$p
			break
		fi
	done
fi
if [ -z "$python" ]; then
	echo "compare.sh: no python3 with openpyxl; run bash bench/setup.sh" >&2
	exit 1
fi
for tool in soffice /usr/bin/time go; do
	if ! command -v "$tool" >/dev/null; then
		echo "compare.sh: $tool is missing; run bash bench/setup.sh" >&2
		exit 1
	fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building planner and the workbooks..." >&2
go build -o "$work/planner" ./cmd/planner
"$work/planner" init "$work/default.xlsx" >/dev/null 2>&1
for wb in $workbooks; do
	if [ "$wb" != default ]; then
		"$python" bench/grow.py "$work/default.xlsx" "$work/$wb.xlsx" "${wb%=*}" "${wb#*=}"
	fi
done

# A throwaway LibreOffice profile that recalculates every formula of an xlsx
# it loads (Tools > Options > Calc > Formula > Recalculation on file load:
# always) instead of trusting the cached values; warmed once, untimed, so
# that no timed run pays for creating it.
profile=$work/profile
mkdir -p "$profile/user" "$work/lo"
cat >"$profile/user/registrymodifications.xcu" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
EOF
soffice=(soffice "-env:UserInstallation=file://$profile" --headless --norestore --convert-to xlsx --outdir "$work/lo")
"${soffice[@]}" "$work/default.xlsx" >/dev/null 2>&1

# LibreOffice recalculates the workbook as planner leaves it, with planner's
# live formulas (Results, Cash flow) beside the inputs: a spreadsheet's own
# version of the model. planner and Python start from the grown workbook.
for wb in $workbooks; do
	if ! "$work/planner" eval "$work/$wb.xlsx" -o "$work/$wb.evaluated.xlsx" "${planner_flags[@]}" >/dev/null 2>"$work/err"; then
		echo "planner eval $wb failed: $(head -c 500 "$work/err")" >&2
		cp "$work/$wb.xlsx" "$work/$wb.evaluated.xlsx"
	fi
done

# measure WORKBOOK TOOL COMMAND... runs COMMAND under GNU time and appends
# workbook, tool, wall s, CPU s, peak RSS KB and ok or failed to the results.
results=$work/results.tsv
measure() {
	local wb=$1 tool=$2 status=ok
	shift 2
	if ! /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" >/dev/null 2>"$work/err"; then
		status=failed
		echo "$tool on $wb failed: $(head -c 500 "$work/err")" >&2
	fi
	read -r wall user sys rss <"$work/time"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$wb" "$tool" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$rss" "$status" >>"$results"
}

: >"$results"
for wb in $workbooks; do
	echo "timing $wb ($repeat runs of each)..." >&2
	for _ in $(seq "$repeat"); do
		cp "$work/$wb.xlsx" "$work/plan.xlsx"
		measure "$wb" planner "$work/planner" eval "$work/plan.xlsx" "${planner_flags[@]}"
		rm -f "$work/lo/"*
		measure "$wb" libreoffice "${soffice[@]}" "$work/$wb.evaluated.xlsx"
		if [ ! -s "$work/lo/$wb.evaluated.xlsx" ]; then
			echo "LibreOffice wrote no workbook for $wb" >&2
			sed -i '$ s/ok$/failed/' "$results"
		fi
		cp "$work/$wb.xlsx" "$work/py.xlsx"
		measure "$wb" python "$python" bench/costmodel.py "$work/py.xlsx"
	done
done

"$python" - "$results" <<'EOF'
import math
import statistics
import sys
from collections import defaultdict

runs = defaultdict(list)
failed = set()
order = []
for line in open(sys.argv[1]):
    wb, tool, wall, cpu, rss, status = line.rstrip("\n").split("\t")
    if wb not in order:
        order.append(wb)
    if status != "ok":
        failed.add((wb, tool))
    runs[wb, tool].append((float(wall), float(cpu), int(rss) / 1024))


def med(wb, tool, i):
    return statistics.median(r[i] for r in runs[wb, tool])


def cell(wb, tool):
    if (wb, tool) in failed:
        return "failed"
    return f"{med(wb, tool, 0):.2f} s ({med(wb, tool, 1):.2f} s CPU, {med(wb, tool, 2):.0f} MB)"


def ratio(wb, tool):
    if (wb, tool) in failed or (wb, "planner") in failed:
        return ""
    def r(i):
        x = med(wb, tool, i) / med(wb, "planner", i)
        return f"{x:.1f}×" if x >= 1 else f"{x:.2g}×"
    return f"{r(0)} ({r(1)})"


print("| workbook | planner eval | LibreOffice | Python/openpyxl | LibreOffice / planner | Python / planner "
      "| planner exponent | planner / default |")
print("|---|---|---|---|---|---|---|---|")
for wb in order:
    exponent, vs_default = "", ""
    if "=" in wb and (wb, "planner") not in failed:
        dim, size = wb.split("=")
        smaller = [o for o in order if o.startswith(dim + "=") and int(o.split("=")[1]) < int(size)
                   and (o, "planner") not in failed]
        if smaller:
            s = max(smaller, key=lambda o: int(o.split("=")[1]))
            e = math.log(med(wb, "planner", 0) / med(s, "planner", 0)) / math.log(int(size) / int(s.split("=")[1]))
            exponent = f"{e:.2f} (from {s.split('=')[1]})"
        if "default" in order and ("default", "planner") not in failed:
            vs_default = f"{med(wb, 'planner', 0) / med('default', 'planner', 0):.1f}×"
    print(f"| {wb} | {cell(wb, 'planner')} | {cell(wb, 'libreoffice')} | {cell(wb, 'python')} "
          f"| {ratio(wb, 'libreoffice')} | {ratio(wb, 'python')} | {exponent} | {vs_default} |")
print()
print(f"Medians of {len(runs[order[0], 'planner'])} runs each: wall time (CPU user + sys, peak resident memory); "
      "ratios of wall time (of CPU); the exponent is planner's wall time growth between the dimension's two sizes.")
EOF
