#!/usr/bin/env bash
# What the tests take from the machine beyond the workspace: Debian's tmux, zsh and fish (the CLI's
# terminal and completion tests drive real shells), prometheus (the sandbox's scrape test) and PostgreSQL's
# client with its server (the sandbox's backup test). On a contributor's machine a missing program only
# leaves its tests not run, with one line saying so; CI runs every test, so this installs whatever is missing from Debian's apt (as root, or through sudo
# where there is sudo, as on GitHub's runners) and fails loudly when it cannot.
set -uo pipefail
# Each entry is a command, or `command:package` where Debian's package has another name (pg_dump comes with
# `postgresql`, which brings the server of the same major: the backup test runs both).
needed=(tmux zsh fish prometheus pg_dump:postgresql)
commands=()
missing=()
missing_commands=()
for entry in "${needed[@]}"; do
  command=${entry%%:*}
  commands+=("$command")
  command -v "$command" >/dev/null || { missing+=("${entry#*:}"); missing_commands+=("$command"); }
done
if [ "${#missing[@]}" -eq 0 ]; then echo "provision: ${commands[*]} present"; exit 0; fi

if [ "$(id -u)" -eq 0 ]; then as_root=(); elif command -v sudo >/dev/null; then as_root=(sudo); else
  echo "provision: FAILED: ${missing[*]} missing, and neither root nor sudo to install them (apt-get install ${missing[*]})" >&2; exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "provision: FAILED: ${missing[*]} missing, and no apt-get to install them; install them, then run CI again" >&2; exit 1
fi
echo "provision: installing ${missing[*]} from apt (the tests drive them)"
export DEBIAN_FRONTEND=noninteractive
if ! "${as_root[@]}" apt-get update -qq || ! "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
  echo "provision: FAILED: apt-get could not install ${missing[*]}; CI counts their tests, so it stops here" >&2; exit 1
fi
for command in "${missing_commands[@]}"; do
  command -v "$command" >/dev/null || { echo "provision: FAILED: $command still missing after apt-get install" >&2; exit 1; }
done
echo "provision: installed ${missing[*]}"
