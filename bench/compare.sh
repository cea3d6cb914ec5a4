#!/usr/bin/env bash
# Times planner eval, in one run and on the same workbooks, against what a
# user would pick instead and against itself as the workbook grows: the one
# planner init writes, and that one grown along each dimension to several
# sizes (bench/grow.py). The peers: LibreOffice headless recalculating every
# formula and saving the workbook as xlsx, a Python/openpyxl pass over the
# cost model (bench/costmodel.py), and for Monte Carlo a numpy pass
# (bench/montecarlo.py). Beside them, two rows of planner against itself:
# a second eval of an unchanged workbook with an empty cache folder, as in
# CI, against the first; and the default eval against the floor, excelize
# opening the evaluated workbook and saving it (bench/floor).
#
# Each tool runs REPEAT times per workbook (default 3), the tools in turn,
# and the tables give the medians of wall time, CPU (user + sys) and peak
# resident memory, each dimension's growth exponent and every peer ratio.
#
#   bash bench/setup.sh     # once, as root: LibreOffice, openpyxl, numpy, GNU time
#   bash bench/compare.sh   # REPEAT=1 WORKBOOKS="default offers=100" to shorten
#
# The grown workbooks are evaluated with --samples $SAMPLES (default 1000,
# as BenchmarkEvalGrown), the correlations=N ones with --samples
# $MC_SAMPLES (default 1,000,000) by planner and numpy alike; the rows of
# the default eval against itself use eval's own flags, as a user types it.
set -euo pipefail

cd "$(dirname "$0")/.."
repeat=${REPEAT:-3}
samples=${SAMPLES:-1000}
mc_samples=${MC_SAMPLES:-1000000}
lo_timeout=${LO_TIMEOUT:-900} # seconds LibreOffice may take on one workbook before it counts as failed
workbooks=${WORKBOOKS:-default offers=100 offers=1000 offers=3000 scenarios=100 scenarios=1000 scenarios=5000 formulas=1000 formulas=5000 deployments=100 deployments=1000 usercells=100000 usercells=1000000 correlations=0 correlations=1 correlations=45}

python=${PYTHON:-}
if [ -z "$python" ]; then
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import openpyxl, numpy' 2>/dev/null; then
			python=$p
			break
		fi
	done
fi
if [ -z "$python" ]; then
	echo "compare.sh: no python3 with openpyxl and numpy; run bash bench/setup.sh" >&2
	exit 1
fi
for tool in soffice /usr/bin/time go git unzip timeout; do
	if ! command -v "$tool" >/dev/null; then
		echo "compare.sh: $tool is missing; run bash bench/setup.sh" >&2
		exit 1
	fi
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache

echo "building planner, the floor and the workbooks..." >&2
# -buildvcs=true: a build that names its commit writes the digest that lets
# a second eval prove the workbook up to date (docs/speed.md).
go build -buildvcs=true -o "$work/planner" ./cmd/planner
go build -o "$work/floor" ./bench/floor
"$work/planner" init "$work/default.xlsx" >/dev/null 2>&1
for wb in $workbooks; do
	if [ "$wb" != default ]; then
		"$python" bench/grow.py "$work/default.xlsx" "$work/$wb.xlsx" "${wb%=*}" "${wb#*=}"
	fi
done

# flags WORKBOOK is the flags planner eval gets for it.
flags() {
	case $1 in
	correlations=*) echo "--samples $mc_samples" ;;
	*) echo "--samples $samples" ;;
	esac
}

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
for wb in $workbooks default; do
	read -r -a f <<<"$(flags "$wb")"
	if ! "$work/planner" eval "$work/$wb.xlsx" -o "$work/$wb.evaluated.xlsx" "${f[@]}" >/dev/null 2>"$work/err"; then
		echo "planner eval $wb failed: $(head -c 500 "$work/err")" >&2
		cp "$work/$wb.xlsx" "$work/$wb.evaluated.xlsx"
	fi
done
# The default workbook evaluated in place with eval's own flags: what a
# second eval finds, and what the floor opens and saves.
cp "$work/default.xlsx" "$work/again.xlsx"
"$work/planner" eval "$work/again.xlsx" >/dev/null 2>&1
digest=yes
if ! unzip -z "$work/again.xlsx" 2>/dev/null | grep -q '^planner up to date'; then
	digest=no
	echo "compare.sh: this build writes no digest (uncommitted changes?); the second eval compares in full" >&2
fi

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
	read -r wall user sys rss < <(tail -n 1 "$work/time") # after "Command exited with non-zero status"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$wb" "$tool" "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$rss" "$status" >>"$results"
}

: >"$results"
export PLANNER=$work/planner FLOOR=$work/floor WORK=$work
for wb in $workbooks; do
	echo "timing $wb ($repeat runs of each)..." >&2
	read -r -a f <<<"$(flags "$wb")"
	for _ in $(seq "$repeat"); do
		rm -rf "$XDG_CACHE_HOME"
		if [ "$wb" = default ]; then
			# Every other row's × default divides by this one: ten runs in a
			# row, each on a copy made beforehand with a cache folder of its
			# own, resolve it to a millisecond, where one run of 0.07 s
			# would be read to GNU time's 10 ms (table.py's LOOPED).
			for i in $(seq 10); do cp "$work/$wb.xlsx" "$work/plan$i.xlsx"; done
			rm -rf "$work/caches"
			measure "$wb" planner bash -c 'for i in 1 2 3 4 5 6 7 8 9 10; do XDG_CACHE_HOME=$WORK/caches/plan$i "$PLANNER" eval "$WORK/plan$i.xlsx" "$@" || exit; done' _ "${f[@]}"
		else
			cp "$work/$wb.xlsx" "$work/plan.xlsx"
			measure "$wb" planner "$work/planner" eval "$work/plan.xlsx" "${f[@]}"
		fi
		case $wb in
		correlations=*)
			measure "$wb" numpy "$python" bench/montecarlo.py "$work/$wb.xlsx" --samples "$mc_samples"
			;;
		*)
			rm -f "$work/lo/"*
			measure "$wb" libreoffice timeout "$lo_timeout" "${soffice[@]}" "$work/$wb.evaluated.xlsx"
			if [ ! -s "$work/lo/$wb.evaluated.xlsx" ]; then
				echo "LibreOffice wrote no workbook for $wb" >&2
				sed -i '$ s/ok$/failed/' "$results"
			fi
			cp "$work/$wb.xlsx" "$work/py.xlsx"
			measure "$wb" python "$python" bench/costmodel.py "$work/py.xlsx"
			;;
		esac
	done
done
# Each of these takes a tenth of a second or less, under GNU time's
# resolution of 10 ms: each measure times ten runs in a row, each first
# eval on a copy made beforehand and every run with a cache folder of its
# own that does not exist yet, and the table gives one run's share.
echo "timing the default eval against itself ($repeat times ten runs of each)..." >&2
for _ in $(seq "$repeat"); do
	for i in $(seq 10); do cp "$work/default.xlsx" "$work/first$i.xlsx"; done
	rm -rf "$work/caches"
	measure "default eval" first bash -c 'for i in 1 2 3 4 5 6 7 8 9 10; do XDG_CACHE_HOME=$WORK/caches/first$i "$PLANNER" eval "$WORK/first$i.xlsx" || exit; done'
	measure "default eval" again bash -c 'for i in 1 2 3 4 5 6 7 8 9 10; do XDG_CACHE_HOME=$WORK/caches/again$i "$PLANNER" eval "$WORK/again.xlsx" || exit; done'
	measure "default eval" floor bash -c 'for i in 1 2 3 4 5 6 7 8 9 10; do "$FLOOR" "$WORK/again.xlsx" "$WORK/floor.xlsx" || exit; done'
done

"$python" bench/table.py "$results" "$repeat" "$samples" "$mc_samples" "$digest"
echo
echo "planner $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' with uncommitted changes'), $(go version | cut -d' ' -f3), $(nproc) cores, $(uname -sm)"
