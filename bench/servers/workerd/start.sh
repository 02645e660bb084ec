#!/usr/bin/env bash
# Serves bench/servers/workerd/$1 with workerd on $PORT: bundled by prepare.ts, then workerd replaces
# this shell (same process: what the harness measures is workerd's). READY is printed once the port
# answers, by a waiter that workerd inherits.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../../.."
node --import tsx "$here/prepare.ts" "$1"
name="$(basename "$1" .ts)"
(
  until (: > "/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do sleep 0.05; done
  echo "READY http://127.0.0.1:$PORT"
) &
cd "$root/bench/.work/workerd"
exec "$root/.runtimes/node_modules/.bin/workerd" serve "$name.capnp"
