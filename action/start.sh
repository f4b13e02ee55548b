#!/usr/bin/env bash
# The GitHub Action's start step (action.yml): runs dipswitch as the inputs say (DS_* variables), waits for
# /__sim/health within DS_WAIT_SECONDS, and writes the outputs (url, admin-token, smpp-port) to GITHUB_OUTPUT and
# DIPSWITCH_URL / DIPSWITCH_ADMIN_TOKEN to GITHUB_ENV, so every later step and client finds the server. A server
# that does not come up fails the step with its own last lines. What the report step needs is kept in
# RUNNER_TEMP/dipswitch.
set -euo pipefail
state="${RUNNER_TEMP:-/tmp}/dipswitch"
mkdir -p "$state"
log="$state/server.log"
: > "$log"
token="${DS_ADMIN_TOKEN:-}"
if [ -z "$token" ]; then token="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"; fi
echo "::add-mask::$token"
port="${DS_PORT:-4010}"
smpp="${DS_SMPP_PORT:-2775}"
version="${DS_VERSION:-0.1.0}"
started_at=$(date +%s%3N)

settings=(SIM_ADMIN_TOKEN="$token" MEMORY=true CLOCK="${DS_CLOCK:-frozen}")
[ -n "${DS_SEED:-}" ] && settings+=(SEED="$DS_SEED")

if [ "${DS_RUN_WITH:-container}" = container ] && [ -z "${DS_COMMAND:-}" ]; then
  engine="${DIPSWITCH_CONTAINER_ENGINE:-docker}"
  image="${DS_IMAGE:-dipswitch:$version}"
  args=(run -d --label dipswitch.action=true)
  if [ "$port" = 0 ]; then args+=(-p 127.0.0.1::4010); else args+=(-p "127.0.0.1:$port:4010"); fi
  if [ "$smpp" = 0 ]; then args+=(-p 127.0.0.1::2775); else args+=(-p "127.0.0.1:$smpp:2775"); fi
  for s in "${settings[@]}"; do args+=(-e "$s"); done
  if [ -n "${DS_SCENARIOS:-}" ]; then
    args+=(-v "$(cd "$DS_SCENARIOS" && pwd):/scenarios:ro" -e SCENARIOS=/scenarios)
  fi
  if ! cid="$("$engine" run "${args[@]:1}" "$image" 2>"$state/run.err")"; then
    echo "::error::dipswitch's image $image did not start"
    tail -n 30 "$state/run.err"
    exit 1
  fi
  echo "container $engine $cid" > "$state/how"
  echo "$engine exec $cid node /app/dist/src/cli/main.js" > "$state/cli"
  echo "http://127.0.0.1:4010" > "$state/inner-url"
  mapped() { "$engine" port "$cid" "$1/tcp" | head -n 1 | sed 's/.*://'; }
  port="$(mapped 4010)"
  smpp="$(mapped 2775)"
  server_log() { "$engine" logs "$cid" 2>&1; }
  running() { [ "$("$engine" inspect -f '{{.State.Running}}' "$cid" 2>/dev/null)" = true ]; }
else
  if [ -n "${DS_COMMAND:-}" ]; then
    command="$DS_COMMAND"
  else
    # the release with every optional feature's packages (traces, the proxy, MCP, SFTP), as the image has them:
    # the release names them itself (`dipswitch features --packages`, name@range a line)
    packages="--package=dipswitch@$version"
    while read -r spec; do packages="$packages --package=$spec"; done < <(npx --yes "dipswitch@$version" features --packages)
    command="npm exec --yes $packages -- dipswitch"
  fi
  [ -n "${DS_SCENARIOS:-}" ] && settings+=(SCENARIOS="$DS_SCENARIOS")
  # the launch contract (docs/clients.md): where it serves is written to the ready file, whatever its log says
  ready="$state/ready.json"
  rm -f "$ready"
  settings+=(READY_FILE="$ready")
  # shellcheck disable=SC2086 # the command is words, as a workflow writes it
  # (npm_command unset: a step run under `npm exec` would otherwise make the server follow that step's life)
  env -u npm_command "${settings[@]}" HOST=127.0.0.1 PORT="$port" SMPP_PORT="$smpp" nohup $command > "$log" 2>&1 < /dev/null &
  pid=$!
  echo "process $pid" > "$state/how"
  echo "$command" > "$state/cli"
  server_log() { cat "$log"; }
  running() { kill -0 "$pid" 2>/dev/null; }
fi

deadline=$(( $(date +%s) + ${DS_WAIT_SECONDS:-60} ))
url=""
while :; do
  if [ -z "${cid:-}" ]; then
    if [ -f "$ready" ]; then
      url="$(sed -n 's#.*"url":"\([^"]*\)".*#\1#p' "$ready")"
      smpp="$(sed -n 's#.*"smpp_port":\([0-9]*\).*#\1#p' "$ready")"
    fi
  else
    url="http://127.0.0.1:$port"
  fi
  if [ -n "$url" ] && curl -sf "$url/__sim/health" > /dev/null 2>&1; then break; fi
  if ! running || [ "$(date +%s)" -ge "$deadline" ]; then
    if running; then why="did not answer /__sim/health within ${DS_WAIT_SECONDS:-60} s"; else why="exited"; fi
    echo "::error::dipswitch $why; its last lines:"
    server_log | tail -n 30
    exit 1
  fi
  sleep 0.2
done
[ -z "${cid:-}" ] && echo "$url" > "$state/inner-url"
echo "$url" > "$state/url"
echo "$token" > "$state/token"
echo "dipswitch healthy at $url in $(( $(date +%s%3N) - started_at )) ms"
{
  echo "url=$url"
  echo "admin-token=$token"
  echo "smpp-port=${smpp:-}"
} >> "${GITHUB_OUTPUT:-/dev/null}"
{
  echo "DIPSWITCH_URL=$url"
  echo "DIPSWITCH_ADMIN_TOKEN=$token"
} >> "${GITHUB_ENV:-/dev/null}"
