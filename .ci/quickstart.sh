#!/usr/bin/env bash
# The README's first command, as a newcomer runs it: from a fresh clone of this repository, in a bare
# environment (only the system PATH, the folder of the Node that runs this, and a new, empty HOME).
# An argument, when given, must be that command (a workflow names what it runs). Waits until every address the README's
# quick start lists answers, then presses Ctrl-C (SIGINT to the process group, as a terminal does)
# and checks that everything stops, quietly: no error in the output, nothing left listening.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
readme="$repo/README.md"
deadline_seconds=${QUICKSTART_DEADLINE_SECONDS:-900}

# The quick start's first command and the `... ready at <url>` lines it promises, read from the README.
quickstart=$(sed -n '/^## Quick start/,/^## /p' "$readme")
command=$(printf '%s\n' "$quickstart" | sed -n '/^```sh$/,/^```$/p' | sed -n '2p' | sed 's/ *#.*$//')
mapfile -t ready_lines < <(printf '%s\n' "$quickstart" | grep -E '^[A-Z][a-z]+ ready at http://')
if [ -z "$command" ] || [ "${#ready_lines[@]}" -eq 0 ]; then
  echo "quickstart: could not read the first command and the ready lines from README.md"; exit 1
fi
# A caller that names the command (.github/workflows/ci.yml) must name the README's own.
if [ "$#" -gt 0 ] && [ "$1" != "$command" ]; then
  echo "quickstart: asked to run \`$1\`, but the README's first command is \`$command\`"; exit 1
fi

work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL -- "-$pid" 2>/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT

for line in "${ready_lines[@]}"; do
  url=${line##* at }
  if curl -s -o /dev/null --max-time 2 "$url"; then
    echo "quickstart: $url already answers before the start; stop what listens there first"; exit 1
  fi
done

git clone --quiet "$repo" "$work/clone" || { echo "quickstart: git clone failed"; exit 1; }
mkdir "$work/home"
# The machine's Node (on CI, the one setup-node put first on PATH) and the system's folders, nothing else.
bare_path="$(dirname "$(command -v node)"):/usr/local/bin:/usr/bin:/bin"
echo "quickstart: running \`$command\` in a fresh clone with env -i HOME=<new> PATH=$bare_path"
started=$(date +%s)
# setsid: the command leads its own process group, so the SIGINT below reaches it the way Ctrl-C does.
(cd "$work/clone" && exec setsid env -i HOME="$work/home" PATH="$bare_path" bash -c "$command") \
  >"$work/output.log" 2>&1 &
pid=$!

fail() {
  echo "quickstart: $1"
  echo "---- output (last 40 lines) ----"; tail -n 40 "$work/output.log"; exit 1
}

for line in "${ready_lines[@]}"; do
  until grep -qF "$line" "$work/output.log"; do
    kill -0 "$pid" 2>/dev/null || fail "the command exited before printing \"$line\""
    [ $(($(date +%s) - started)) -lt "$deadline_seconds" ] || fail "no \"$line\" within ${deadline_seconds}s"
    sleep 1
  done
  # A CORS preflight: any HTTP answer proves the address answers, and Prism answers it without
  # logging an error (a GET of / would log NO_PATH_MATCHED_ERROR, which this step forbids).
  status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -X OPTIONS \
    -H "Origin: ${line##* at }" -H 'Access-Control-Request-Method: GET' "${line##* at }/")
  [ "$status" != "000" ] || fail "${line##* at } printed ready but does not answer"
  echo "quickstart: $line answers ($status) after $(($(date +%s) - started))s"
done

# A person presses Ctrl-C a moment after the addresses appear.
sleep 1
kill -INT -- "-$pid"
stopped=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
  [ $(($(date +%s) - stopped)) -lt 30 ] || fail "still running 30s after Ctrl-C"
  sleep 0.5
done
wait "$pid"
exit_status=$?
# npx (npm exec) itself exits 130, the shell's status for a command stopped by Ctrl-C, even when
# everything under it stopped cleanly; any other status, or any error line below, is a failure.
[ "$exit_status" -eq 0 ] || [ "$exit_status" -eq 130 ] || fail "exit status $exit_status after Ctrl-C, expected 0 (or npx's 130)"
for line in "${ready_lines[@]}"; do
  ! curl -s -o /dev/null --max-time 2 "${line##* at }" || fail "${line##* at } still answers after Ctrl-C"
done
if grep -nE 'ELIFECYCLE|ERR_PNPM|✖|Error:' "$work/output.log"; then fail "errors in the output (above)"; fi
echo "quickstart: stopped cleanly on Ctrl-C"
