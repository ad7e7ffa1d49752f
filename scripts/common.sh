# Shared by the project's scripts: where caches and builds live (outside the repo, so a
# fresh clone on a warm machine reuses them).
DESKMATE_CACHE="${DESKMATE_CACHE:-$HOME/.cache/deskmate}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$DESKMATE_CACHE/target}"
# Incremental compilation data grows by gigabytes per change and a test run gains little
# from it; it is off unless the caller sets it.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
mkdir -p "$DESKMATE_CACHE"

# The toolchain must be new enough for edition 2024 and the std APIs the code uses.
require_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install a Rust toolchain >= 1.89 (rustup) and run this again" >&2
    exit 1
  fi
  local version
  version=$(rustc --version | awk '{print $2}')
  if [ "$(printf '%s\n1.89.0\n' "$version" | sort -V | head -n1)" != "1.89.0" ]; then
    echo "rustc $version is too old: Deskmate needs >= 1.89" >&2
    exit 1
  fi
}

# apt-get install, tolerant of another apt holding the lock; a no-op for packages present.
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${missing[@]}"
}

# Node.js >= 20.19 and npm build the UI (Vite 8).
require_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "node and npm not found: install Node.js >= 20.19 and run this again" >&2
    exit 1
  fi
  local version
  version=$(node --version | tr -d v)
  if [ "$(printf '%s\n20.19.0\n' "$version" | sort -V | head -n1)" != "20.19.0" ]; then
    echo "Node.js $version is too old: the UI build needs >= 20.19" >&2
    exit 1
  fi
}

# The desktop app's system packages: WebKitGTK, the tray (appindicator), xdo (keyboard
# shortcuts), rsvg (icons); WebKitWebDriver for its end-to-end tests.
DESKTOP_PACKAGES=(libwebkit2gtk-4.1-dev libxdo-dev libayatana-appindicator3-dev librsvg2-dev)

# Installs the UI's npm packages (from package-lock.json) and builds ui/dist, which the
# desktop app embeds; a no-op install when node_modules matches the lock file.
build_ui() {
  require_node
  (
    cd ui
    if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.deskmate-lock; then
      npm ci --no-audit --no-fund --loglevel=error
      cp package-lock.json node_modules/.deskmate-lock
    fi
    npm run --silent build
  )
}

# Real MCP peers for the tests, cached outside the repo and pinned by tests/mcp-peers:
# the official Python SDK (a venv) and the reference servers and Inspector (npm ci).
# Each is reinstalled only when its pin file changed. The tests find them through
# DESKMATE_MCP_PEERS.
MCP_PEERS="$DESKMATE_CACHE/mcp"
export DESKMATE_MCP_PEERS="$MCP_PEERS"
setup_mcp_peers() {
  require_node
  local pins="$PWD/tests/mcp-peers"
  mkdir -p "$MCP_PEERS/npm"
  if ! cmp -s "$pins/requirements.txt" "$MCP_PEERS/venv/requirements.txt"; then
    rm -rf "$MCP_PEERS/venv"
    python3 -m venv "$MCP_PEERS/venv"
    "$MCP_PEERS/venv/bin/pip" install -q --disable-pip-version-check -r "$pins/requirements.txt"
    cp "$pins/requirements.txt" "$MCP_PEERS/venv/requirements.txt"
  fi
  if ! cmp -s "$pins/package-lock.json" "$MCP_PEERS/npm/package-lock.json"; then
    cp "$pins/package.json" "$pins/package-lock.json" "$MCP_PEERS/npm/"
    (cd "$MCP_PEERS/npm" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  fi
}

# Deletes build outputs a newer build replaced. Every build of a workspace crate with
# other inputs leaves its test binaries (hundreds of MB each) in the shared target dir,
# and a warm machine filled its disk with them (64 GB). Keeps the two newest of each
# test binary and the three newest of each workspace library.
prune_target() {
  local deps="$CARGO_TARGET_DIR/debug/deps"
  [ -d "$deps" ] || return 0
  python3 - "$deps" <<'PY'
import collections, os, re, stat, sys
deps = sys.argv[1]
groups = collections.defaultdict(list)
for name in os.listdir(deps):
    path = os.path.join(deps, name)
    m = re.match(r"(.*?)-([0-9a-f]{16})(\.[a-z]+)?$", name)
    if not m or not os.path.isfile(path):
        continue
    binary = m.group(3) is None and os.stat(path).st_mode & stat.S_IXUSR
    ours = re.match(r"(lib)?deskmate_", name)
    if binary:
        groups[(m.group(1), "", 2)].append(path)
    elif ours:
        groups[(m.group(1), m.group(3), 3)].append(path)
freed = 0
for (_, _, keep), paths in groups.items():
    paths.sort(key=os.path.getmtime, reverse=True)
    for path in paths[keep:]:
        freed += os.path.getsize(path)
        os.remove(path)
if freed:
    print(f"prune_target: {freed / 2**30:.1f} GiB of replaced build outputs deleted")
PY
}

# For a benchmark: DESKMATE_BIN, the release build of the CLI and the sandbox (made here
# unless DESKMATE_BIN names a binary), and `work`, a temporary folder named after the
# benchmark ($1) and removed when the script exits.
bench_setup() {
  if [ -z "${DESKMATE_BIN:-}" ]; then
    cargo build --release --locked -p deskmate-cli -p deskmate-sandbox
    DESKMATE_BIN="$CARGO_TARGET_DIR/release/deskmate"
  fi
  work="$(mktemp -d "${TMPDIR:-/tmp}/deskmate-bench-$1.XXXXXX")"
  trap 'rm -rf "$work"' EXIT
}
