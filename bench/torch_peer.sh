# torch_peer.sh: sourced by the benchmarks that run a PyTorch peer. Stops with
# the install command when $PY has no torch, or when Debian's torch would take
# the reference BLAS (the libblas.so.3 alternative without OpenBLAS: products
# at ~3 GFLOP/s, every peer 10–20× too slow, which made a peer look 10× slower
# than it is).
check_torch_peer() {
  local name=$1
  if ! "$PY" -c 'import torch' 2>/dev/null; then
    echo "$name: $PY has no torch: apt-get install python3-torch libopenblas0-pthread" >&2
    exit 1
  fi
  local blas
  blas=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || true)
  if [ -n "$blas" ] && [[ $blas != *openblas* ]]; then
    echo "$name: libblas.so.3 is $blas, the reference BLAS: apt-get install libopenblas0-pthread" >&2
    exit 1
  fi
}
