#!/usr/bin/env bash
# Installs what bench/compare.sh runs planner against: LibreOffice's
# spreadsheet without a display, Python with openpyxl and numpy, GNU time
# for peak resident memory, and unzip to read a workbook's zip comment. Debian or Ubuntu, as root. Neither the tests nor CI
# call this: planner's own tests need none of it.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
	echo "bench/setup.sh: run as root (it installs Debian packages)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends libreoffice-calc-nogui python3-openpyxl python3-numpy time unzip
