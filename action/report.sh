#!/usr/bin/env bash
# The GitHub Action's report step (report/action.yml): keeps what the server saw as files for
# actions/upload-artifact (journal.json, coverage.xml as JUnit, coverage.md, server.log) in
# RUNNER_TEMP/dipswitch/report, puts the coverage table in the job summary (GITHUB_STEP_SUMMARY), then stops the
# server unless DS_STOP is false. With DS_FAIL_UNDER, the step fails when the coverage is under it, after the
# files are written. With DS_NEXT_CONTRACT (a file or URL), the run's footprint (footprint.json) and the diff of the
# served contract to the next one crossed with it (contract-changes.md, .xml; annotations in the log) are kept too,
# and the step fails when a change meets DS_FAIL_ON (docs/contract-changes.md).
set -euo pipefail
state="${RUNNER_TEMP:-/tmp}/dipswitch"
if [ ! -f "$state/how" ]; then
  echo "::error::no dipswitch was started by this job (the dipswitch action runs first)"
  exit 1
fi
out="$state/report"
mkdir -p "$out"
url="$(cat "$state/url" 2>/dev/null || true)"
token="$(cat "$state/token" 2>/dev/null || true)"
read -r kind a b < "$state/how"
cli="$(cat "$state/cli")"
inner="$(cat "$state/inner-url")"
run="${DS_RUN:-${DIPSWITCH_RUN:-}}"
coverage=(coverage --url "$inner" --admin-token "$token")
[ -n "$run" ] && coverage+=(--run "$run")

status=0
if [ -n "$url" ]; then
  curl -sf "$url/__sim/requests?api=all&limit=1000" -H "X-Sim-Admin-Token: $token" > "$out/journal.json" || true
  # shellcheck disable=SC2086 # the command is words
  $cli "${coverage[@]}" --format junit > "$out/coverage.xml" || true
  # shellcheck disable=SC2086
  $cli "${coverage[@]}" --format markdown > "$out/coverage.md" || true
  {
    echo "## dipswitch coverage"
    echo
    cat "$out/coverage.md"
  } >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
  if [ -n "${DS_FAIL_UNDER:-}" ]; then
    # shellcheck disable=SC2086
    $cli "${coverage[@]}" --fail-under "$DS_FAIL_UNDER" > /dev/null || status=$?
  fi
  if [ -n "${DS_NEXT_CONTRACT:-}" ]; then
    footprint=(footprint --url "$inner" --admin-token "$token")
    [ -n "$run" ] && footprint+=(--run "$run")
    # shellcheck disable=SC2086
    $cli "${footprint[@]}" > "$out/footprint.json"
    fp="$out/footprint.json"
    next="$DS_NEXT_CONTRACT"
    if [ "$kind" = container ]; then
      # the image's command reads files of its own container
      "$a" cp "$fp" "$b:/tmp/dipswitch-footprint.json" && fp=/tmp/dipswitch-footprint.json
      case "$next" in http://* | https://*) ;; *) "$a" cp "$next" "$b:/tmp/dipswitch-next-contract" && next=/tmp/dipswitch-next-contract ;; esac
    fi
    diff=(diff "$inner/api/v1/openapi" "$next" --footprint "$fp" --fail-on "${DS_FAIL_ON:-breaks}")
    # shellcheck disable=SC2086
    $cli "${diff[@]}" --format markdown > "$out/contract-changes.md" || true
    # shellcheck disable=SC2086
    $cli "${diff[@]}" --format junit > "$out/contract-changes.xml" || true
    {
      echo
      echo "## dipswitch: what the next contract changes for this suite"
      echo
      cat "$out/contract-changes.md"
    } >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
    diffed=0
    # shellcheck disable=SC2086
    $cli "${diff[@]}" --format github || diffed=$?
    [ "$diffed" -ne 0 ] && [ "$status" -eq 0 ] && status=$diffed
  fi
fi
if [ "$kind" = container ]; then "$a" logs "$b" > "$out/server.log" 2>&1 || true; else cp "$state/server.log" "$out/server.log"; fi
echo "dir=$out" >> "${GITHUB_OUTPUT:-/dev/null}"
ls "$out"

if [ "${DS_STOP:-true}" = true ]; then
  if [ "$kind" = container ]; then
    "$a" rm -f "$b" > /dev/null
  else
    kill -TERM "$a" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$a" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$state/how"
fi
exit "$status"
