#!/usr/bin/env bash
# Posts the report review.sh wrote as one note on a GitLab merge request,
# through GitLab's REST API with curl: found again by its hidden marker and
# edited in place (PLANNER_COMMENT=update, the default), a new note each
# run (new), or none (off). Nothing is posted when no workbook changed and
# there is no note to bring up to date, nor when the note already says the
# same.
#
# Settings, from the environment (GitLab sets the CI_ ones in a merge
# request pipeline):
#   PLANNER_GITLAB_TOKEN  a token with the api scope (a project access token
#                         of the Reporter role or more): CI_JOB_TOKEN cannot
#                         write notes
#   CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID
#   PLANNER_COMMENT       update, new or off
#   PLANNER_OUT           the folder review.sh wrote in (.planner-review)
set -euo pipefail

mode=${PLANNER_COMMENT:-update}
out=${PLANNER_OUT:-.planner-review}
marker='<!-- planner-review -->'
body="$out/comment.md"

case "$mode" in
  off) echo "planner: note off"; exit 0 ;;
  update | new) ;;
  *) echo "planner: PLANNER_COMMENT=$mode: use update, new or off" >&2; exit 2 ;;
esac
token=${PLANNER_GITLAB_TOKEN:?set PLANNER_GITLAB_TOKEN, a masked CI/CD variable, to a token with the api scope}
notes="${CI_API_V4_URL:?}/projects/${CI_PROJECT_ID:?}/merge_requests/${CI_MERGE_REQUEST_IID:?}/notes"
changed=$(cat "$out/changed")

api() { curl --silent --show-error --fail --header "PRIVATE-TOKEN: $token" "$@"; }

post() {
  api --request POST --data-urlencode "body@$body" "$notes" > /dev/null
  echo "planner: noted on merge request $CI_MERGE_REQUEST_IID"
}

if [ "$changed" -eq 0 ] && [ "$mode" = new ]; then
  echo "planner: no workbook changed: no note"
  exit 0
fi
if [ "$mode" = new ]; then
  post
  exit 0
fi

# The notes a page at a time, until a page comes back empty.
id='' page=1
while [ -z "$id" ]; do
  json=$(api "$notes?per_page=100&page=$page")
  [ "$(jq length <<< "$json")" -gt 0 ] || break
  id=$(jq -r --arg m "$marker" '[.[] | select(.body | startswith($m)) | .id][0] // empty' <<< "$json")
  page=$((page + 1))
done
if [ -z "$id" ]; then
  if [ "$changed" -eq 0 ]; then
    echo "planner: no workbook changed: no note"
    exit 0
  fi
  post
  exit 0
fi
if [ "$(api "$notes/$id" | jq -r .body)" = "$(cat "$body")" ]; then
  echo "planner: the note on merge request $CI_MERGE_REQUEST_IID already says this"
  exit 0
fi
api --request PUT --data-urlencode "body@$body" "$notes/$id" > /dev/null
echo "planner: updated its note on merge request $CI_MERGE_REQUEST_IID"
