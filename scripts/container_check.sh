#!/usr/bin/env bash
# README command 1 in a container of another kind: a Debian 13 (trixie) root file system made by debootstrap,
# entered with chroot in a private mount namespace (unshare), Debian's own python3 (3.13) and git, the
# repository cloned inside from this checkout's committed HEAD, then README command 1 as written, timed, and
# the counts the README states (entries by status, LLM calls, tokens) plus a digest of every LLM answer, to
# compare with the host's run (docs/backends.md, "The README's run in another container").
#
# usage (as root, on a Debian/Ubuntu host with debootstrap: apt-get install -y debootstrap):
#   scripts/container_check.sh [ROOT]          # ROOT default /work/c2/root (outside every git repository)
#   CHECK_BENCH=1 scripts/container_check.sh   # also run benchmarks/bench_generate.py once (prints rows)
#   CHECK_FRESH=0 CHECK_GENERATE=0 CHECK_BENCH=1 scripts/container_check.sh   # the benchmark alone
#   CHECK_BENCH_ARGS="--quick --no-eval --only 0:16" ...  # other arguments for bench_generate.py
#   CHECK_ENV="ATEN_CPU_CAPABILITY=avx2" ...   # extra environment for the generate step
#   CHECK_FRESH=0 scripts/container_check.sh   # keep the venv and model cache of the last run (no install timing):
#                                              # only fbagent is reinstalled from the new clone
#
# Idempotent: debootstrap only when ROOT has no python3; every run re-clones the repository and (unless
# CHECK_FRESH=0) makes a fresh venv and model cache inside ROOT (pip's download cache in ROOT/root/.cache/pip is kept). Nothing is
# mounted outside the private namespace, so nothing stays mounted after the script ends.
#
# What differs from README command 1, and why: the README pins torch==2.13.0 from PyTorch's CPU index
# (the wheel is +cpu); in a fresh trixie, pip installs torch==2.13.0 for Python 3.13 from PyPI, which is the
# CUDA build (its CPU kernels are the same ATen/oneDNN/MKL code; no GPU is used). Set CHECK_TORCH_INDEX to a
# CPU wheel index to take the +cpu build instead.
set -euo pipefail

ROOT=${1:-/work/c2/root}
SUITE=${CHECK_SUITE:-trixie}
MIRROR=${CHECK_MIRROR:-$(grep -rhoE '^(URIs:|deb) *https?://[^ ]*debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ \
    2>/dev/null | grep -oE 'https?://[^ ]*' | head -1 || true)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
HERE=$(cd "$(dirname "$0")/.." && pwd)
GITDIR=$(cd "$HERE" && cd "$(git rev-parse --git-common-dir)" && pwd)
COMMIT=$(git -C "$HERE" rev-parse HEAD)
[ "$(id -u)" = 0 ] || { echo "container_check: run as root (debootstrap, chroot, mount)" >&2; exit 2; }
case "$ROOT" in "$HERE"/*) echo "container_check: $ROOT is inside the repository; pick a folder outside it" >&2; exit 2;; esac

if [ ! -x "$ROOT/usr/bin/python3" ]; then
    command -v debootstrap >/dev/null || { echo "container_check: apt-get install -y debootstrap first" >&2; exit 2; }
    echo "== debootstrap $SUITE from $MIRROR into $ROOT"
    start=$(date +%s)
    debootstrap --variant=minbase --include=python3,python3-venv,git,ca-certificates,time,procps \
        "$SUITE" "$ROOT" "$MIRROR"
    echo "debootstrap: $(( $(date +%s) - start )) s"
fi
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
# the host's local certificate authorities (e.g. a network proxy's), so that pip inside reaches PyPI as the host does
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    chroot "$ROOT" update-ca-certificates >/dev/null 2>&1
fi
mkdir -p "$ROOT/src.git" "$ROOT/check"

# everything below runs in a private mount namespace: the binds vanish with it
unshare --mount --fork /bin/bash -s "$ROOT" "$GITDIR" "$COMMIT" <<'HOST'
set -euo pipefail
ROOT=$1; GITDIR=$2; COMMIT=$3
mount --make-rprivate /
mount --bind "$GITDIR" "$ROOT/src.git" && mount -o remount,bind,ro "$ROOT/src.git"
mount -t proc proc "$ROOT/proc"
mount --rbind /sys "$ROOT/sys"
mount --rbind /dev "$ROOT/dev"
chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
    SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt \
    COMMIT="$COMMIT" CHECK_ENV="${CHECK_ENV:-}" CHECK_BENCH="${CHECK_BENCH:-}" \
    CHECK_TORCH_INDEX="${CHECK_TORCH_INDEX:-}" CHECK_FRESH="${CHECK_FRESH:-1}" \
    CHECK_GENERATE="${CHECK_GENERATE:-1}" CHECK_BENCH_ARGS="${CHECK_BENCH_ARGS:-}" /bin/bash -s <<'INSIDE'
set -euo pipefail
echo "== inside: $(. /etc/os-release; echo "$PRETTY_NAME"), $(python3 --version), $(ldd --version | head -1 | sed 's/.* //;s/^/glibc /'), $(git --version)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, kernel $(uname -r)"
rm -rf /check/fbagent /check/run
git config --global --add safe.directory /src.git
git clone -q /src.git /check/fbagent && git -C /check/fbagent checkout -q "$COMMIT"
echo "repository: $(git -C /check/fbagent log -1 --format='%h %cs')"
cd /check/fbagent
export FBAGENT_MODEL_CACHE=/check/models
if [ "$CHECK_FRESH" = 0 ] && [ -x /check/venv/bin/fbagent ]; then
    . /check/venv/bin/activate && pip install -q --no-deps -e . && fbagent models prepare
    echo "install: kept from the last run (CHECK_FRESH=0)"
else
    rm -rf /check/venv /check/models
    t0=$(date +%s.%N)
    python3 -m venv /check/venv && . /check/venv/bin/activate
    if [ -n "$CHECK_TORCH_INDEX" ]; then pip install -q torch==2.13.0 --index-url "$CHECK_TORCH_INDEX"
    else pip install -q torch==2.13.0; fi
    t1=$(date +%s.%N)
    pip install -q -e '.[local]'
    t2=$(date +%s.%N)
    fbagent models prepare
    t3=$(date +%s.%N)
    python3 -c "print(f'install: torch {$t1-$t0:.1f} s + pip install -e .[local] {$t2-$t1:.1f} s + models prepare {$t3-$t2:.1f} s = {$t3-$t0:.1f} s')"
fi
python3 -c "import torch, transformers, llguidance, sys; print('versions: python', sys.version.split()[0], '| torch', torch.__version__, '| cpu capability', torch.backends.cpu.get_cpu_capability(), '| transformers', transformers.__version__, '| llguidance', llguidance.__version__ if hasattr(llguidance, '__version__') else '?')"
if [ "$CHECK_GENERATE" != 0 ]; then
echo "load before generate: $(cut -d' ' -f1-3 /proc/loadavg)"
mkdir -p /check/run && cd /check/run
env $CHECK_ENV /usr/bin/time -f 'generate: %e s wall, %U user-s, %S sys-s, %M KB max RSS' \
    fbagent generate --pairs 3 --generator local > out.txt 2> err.txt || { tail -20 err.txt; exit 1; }
tail -1 err.txt
echo "load after generate: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -iE "parser error|warning" err.txt | head -5 || true
python3 - <<'PY'
import hashlib, sqlite3
conn = sqlite3.connect("file:framebench.db?mode=ro", uri=True)
status = conn.execute("SELECT status, COUNT(*) FROM items GROUP BY status ORDER BY status").fetchall()
calls, tin, tout = conn.execute("SELECT COUNT(*), SUM(input_tokens), SUM(output_tokens) FROM llm_calls").fetchone()
lines = sorted(f"{t}|{r if r is not None else ''}" for t, r in conn.execute("SELECT task, response FROM llm_calls"))
print("entries:", sum(n for _, n in status), "(" + ", ".join(f"{n} {s}" for s, n in status) + ")")
print(f"LLM calls: {calls}, tokens in / out: {tin:,} / {tout:,}")
digest = hashlib.sha256("".join(x + "\n" for x in lines).encode()).hexdigest()[:16]
print("answers digest (sha256 of every call's task|response, sorted):", digest)
# the README's reference run on the host (docs/backends.md): 3 entries (1 flagged, 2 rejected), 14 calls, 4,192 / 635
same = (status, calls, tin, tout, digest) == ([("flagged", 1), ("rejected", 2)], 14, 4192, 635, "040dfc163cd4bd98")
print("same as the README's reference run (counts and every answer):", "yes" if same else "NO")
PY
fbagent runs show "$(grep -o 'runs show [^ ]*' out.txt | tail -1 | cut -d' ' -f3)" | head -40
fi
if [ -n "$CHECK_BENCH" ]; then
    cd /check/fbagent && echo "load before bench: $(cut -d' ' -f1-3 /proc/loadavg)"
    python benchmarks/bench_generate.py ${CHECK_BENCH_ARGS:---json --no-eval --only 100:64,0:16}
fi
INSIDE
HOST
