#!/usr/bin/env bash
# Compares every plan workbook a change touches with the change's base, as
# one report: planner diff --against BASE --format markdown, with the
# policy when one is given. Writes, in PLANNER_OUT:
#   comment.md  the report as a pull-request comment or merge-request
#               note, behind a hidden marker that finds it again;
#   changed     how many workbooks the change touches (0: none);
#   status      the exit status the check ends with: the policy's (0 no rule
#               denies, 1 a rule denies, 2 planner cannot tell), or without
#               a policy 0 once planner printed its comparison.
# and appends the report to GITHUB_STEP_SUMMARY when there is one. It
# exits 0 when it wrote them; the status is applied after the comment is
# posted, so that a denied change still shows why.
#
# Settings, from the environment:
#   PLANNER_BASE       the commit to compare with (required)
#   PLANNER_WORKBOOKS  a git pathspec of the plan workbooks ("*.xlsx")
#   PLANNER_POLICY     a policy file, or empty for none
#   PLANNER_DIFF_ARGS  more flags for planner diff, such as --samples 20000
#   PLANNER_OUT        the folder to write in (.planner-review)
#   PLANNER_LIMIT      the most characters a comment holds (60000)
set -euo pipefail

base=$(git rev-parse --short --verify "${PLANNER_BASE:?set PLANNER_BASE to the commit to compare the workbooks with}^{commit}")
out=${PLANNER_OUT:-.planner-review}
limit=${PLANNER_LIMIT:-60000}
marker='<!-- planner-review -->'
head='### planner: what this change does to the workbooks'
mkdir -p "$out"

git diff -z --name-only --no-renames --diff-filter=AM "$base" HEAD -- "${PLANNER_WORKBOOKS:-*.xlsx}" > "$out/files"
files=()
while IFS= read -r -d '' f; do files+=("$f"); done < "$out/files"
echo "${#files[@]}" > "$out/changed"

if [ "${#files[@]}" -eq 0 ]; then
  printf '%s\n%s\n\nNo workbook changed since %s.\n' "$marker" "$head" "$base" > "$out/comment.md"
  echo 0 > "$out/status"
  echo "planner: no workbook changed"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$out/comment.md" >> "$GITHUB_STEP_SUMMARY"
  fi
  exit 0
fi

args=(diff --against "$base" --format markdown)
if [ -n "${PLANNER_POLICY:-}" ]; then
  args+=(--policy "$PLANNER_POLICY")
fi
# shellcheck disable=SC2206 # flags, split as a shell splits them
args+=(${PLANNER_DIFF_ARGS:-} -- "${files[@]}")

status=0
planner "${args[@]}" > "$out/report.md" 2> "$out/stderr" || status=$?
cat "$out/stderr" >&2

{
  printf '%s\n%s\n\n' "$marker" "$head"
  if [ -s "$out/report.md" ]; then
    cat "$out/report.md"
  else
    # planner printed no comparison (a workbook it cannot read): say why.
    printf 'planner could not compare the workbooks (exit status %s):\n\n```\n' "$status"
    cat "$out/stderr"
    printf '```\n'
  fi
} > "$out/full.md"

if [ "$(wc -c < "$out/full.md")" -gt "$limit" ]; then
  # Whole lines only, then how to see the rest.
  head -c "$limit" "$out/full.md" | sed '$d' > "$out/comment.md"
  printf '\n… cut at %s characters: run planner diff --against %s PATH for the rest.\n' \
    "$limit" "$base" >> "$out/comment.md"
else
  cp "$out/full.md" "$out/comment.md"
fi

if [ -z "${PLANNER_POLICY:-}" ] && [ -s "$out/report.md" ] && [ "$status" -le 1 ]; then
  status=0 # without a policy, workbooks that differ are what the report is for
fi
echo "$status" > "$out/status"

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$out/comment.md" >> "$GITHUB_STEP_SUMMARY"
fi
