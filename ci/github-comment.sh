#!/usr/bin/env bash
# Posts the report review.sh wrote as one comment on a pull request, with
# the GitHub CLI: found again by its hidden marker and edited in place
# (PLANNER_COMMENT=update, the default), a new comment each run (new), or
# none (off). Nothing is posted when no workbook changed and there is no
# comment to bring up to date, nor when the comment already says the same.
#
# Settings, from the environment:
#   GH_TOKEN, GITHUB_REPOSITORY (owner/name), PR (the pull request's number)
#   PLANNER_COMMENT    update, new or off
#   PLANNER_OUT        the folder review.sh wrote in (.planner-review)
set -euo pipefail

mode=${PLANNER_COMMENT:-update}
out=${PLANNER_OUT:-.planner-review}
marker='<!-- planner-review -->'
repo=${GITHUB_REPOSITORY:?set GITHUB_REPOSITORY to owner/name}
pr=${PR:?set PR to the pull request number}
body="$out/comment.md"

case "$mode" in
  off) echo "planner: comment off"; exit 0 ;;
  update | new) ;;
  *) echo "planner: comment: $mode: use update, new or off" >&2; exit 2 ;;
esac
changed=$(cat "$out/changed")

# post runs gh api, and says so as a warning where the token may not write
# (a pull request from a fork): the check still applies the policy.
post() {
  if ! gh api "$@" > /dev/null; then
    echo "::warning::planner could not post its comment on pull request $pr (gh api $1 $2 failed): the job summary has the report"
  fi
}

if [ "$mode" = new ]; then
  if [ "$changed" -eq 0 ]; then
    echo "planner: no workbook changed: no comment"
    exit 0
  fi
  post --method POST "repos/$repo/issues/$pr/comments" -F "body=@$body"
  echo "planner: commented on pull request $pr"
  exit 0
fi

ids=$(gh api --paginate "repos/$repo/issues/$pr/comments" \
  --jq ".[] | select(.body | startswith(\"$marker\")) | .id")
id=${ids%%$'\n'*}
if [ -z "$id" ]; then
  if [ "$changed" -eq 0 ]; then
    echo "planner: no workbook changed: no comment"
    exit 0
  fi
  post --method POST "repos/$repo/issues/$pr/comments" -F "body=@$body"
  echo "planner: commented on pull request $pr"
  exit 0
fi
if [ "$(gh api "repos/$repo/issues/comments/$id" --jq .body)" = "$(cat "$body")" ]; then
  echo "planner: the comment on pull request $pr already says this"
  exit 0
fi
post --method PATCH "repos/$repo/issues/comments/$id" -F "body=@$body"
echo "planner: updated its comment on pull request $pr"
