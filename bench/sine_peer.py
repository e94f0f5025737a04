"""Peer for bench/sine.sh: one training epoch of sequential STRODE on the
sine data in PyTorch, the same computation as strode's (DESIGN.md §3):
context encoder 2 FC ReLU x 8, Φ/φ hidden 16 with tangent derivatives, KL
term on K-1 nodes, 10 Euler steps of f_o (hidden H), decoder, Adam 3e-4,
batch 50, 100 batches, one thread (torch and OpenBLAS). float32 (as the
reference code).

usage: sine_peer.py ODE_HIDDEN REPEATS  -> prints CPU seconds per epoch (process
time, comparable with strode's cpu-s/epoch on a loaded machine), one per repeat
"""
import math
import os
import sys
import time

# One thread for OpenBLAS too: torch.set_num_threads does not reach it, and
# its idle second thread spins on the other core, which process_time counts
# (that doubled the peer's figures before this was set).
for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import torch  # noqa: E402 (after the thread settings)
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(1)
H = int(sys.argv[1]) if len(sys.argv) > 1 else 100
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 1
B, N, D, PH, K, EPS = 50, 10, 8, 16, 10, 0.1


def param(*shape, sign=0):
    w = torch.empty(*shape)
    torch.nn.init.xavier_uniform_(w) if len(shape) == 2 and min(shape) > 1 else w.uniform_(-0.5, 0.5)
    if sign:
        w = sign * w.abs()
    return torch.nn.Parameter(w)


enc = torch.nn.Sequential(torch.nn.Linear(2, D), torch.nn.ReLU(), torch.nn.Linear(D, D), torch.nn.ReLU())
fo = torch.nn.Sequential(torch.nn.Linear(D, H), torch.nn.Tanh(), torch.nn.Linear(H, H), torch.nn.Tanh(), torch.nn.Linear(H, D))
dec = torch.nn.Linear(D, 1)
W1, W2, W3 = param(1, PH, sign=-1), param(PH, PH, sign=-1), param(PH, 1, sign=-1)
V1, V2, V3 = param(D, PH, sign=-1), param(PH, PH, sign=-1), param(PH, 1, sign=-1)
U1, U2, U3 = param(1, PH, sign=1), param(PH, PH, sign=1), param(PH, 1, sign=1)
b1, b2 = torch.nn.Parameter(torch.zeros(1, PH)), torch.nn.Parameter(torch.zeros(1, PH))
rho, dd = torch.nn.Parameter(torch.zeros(1)), torch.nn.Parameter(torch.zeros(1))
nonpos, nonneg = [W1, W2, W3, V1, V2, V3], [U1, U2, U3]
params = list(enc.parameters()) + list(fo.parameters()) + list(dec.parameters()) + nonpos + nonneg + [b1, b2, rho, dd]
opt = torch.optim.Adam(params, lr=3e-4)
m = torch.tensor([-1 + k * EPS for k in range(1, int(round(1 / EPS)))])
tk = (-torch.log(-m)).unsqueeze(1)
wk = (-1 / m).unsqueeze(0)


def a_of(t):
    u = torch.tanh(t @ W1 @ W2)
    return u @ W3, ((1 - u * u) * (W1 @ W2)) @ W3


def c_of(t):
    u = torch.tanh((t @ U1 + b1) @ U2 + b2)
    return u @ U3, ((1 - u * u) * (U1 @ U2)) @ U3


def loss_of(x):
    xp = torch.cat([x[:, :1], x[:, :-1]], 1)
    z = enc(torch.stack([xp, x], -1).transpose(0, 1).reshape(N * B, 2))
    bz = torch.tanh(z @ V1 @ V2) @ V3
    t = torch.zeros(B, 1)
    gaps = []
    for i in range(1, N):
        a, _ = a_of(t)
        gap = F.softplus(a + bz[i * B:(i + 1) * B])
        t = t.detach() + gap
        gaps.append(gap)
    s = torch.cat(gaps) / K
    h = z[:(N - 1) * B]
    for _ in range(K):
        h = h + s * fo(h)
    y = x[:, 1:].transpose(0, 1).reshape(-1, 1)
    mse = ((dec(h) - y) ** 2).mean()
    a, da = a_of(tk)
    q = torch.sigmoid(bz[B:] + a.T) * (-da / tk).T
    c, dc = c_of(tk)
    c0, _ = c_of(torch.zeros(1, 1))
    phi = F.softplus(rho) * tk + F.softplus(c + dd) - F.softplus(c0 + dd)
    lam = F.softplus(rho) + torch.sigmoid(c + dd) * dc
    p = (lam * torch.exp(-phi)).T
    g = q * (torch.log(q + 1e-6) - torch.log(p + 1e-6)) * wk
    kl = (EPS * (g.sum(1) + g[:, -1].abs())).mean()
    return mse + 1e-7 * kl


gen = torch.Generator().manual_seed(2)
data = torch.sin(2 * math.pi * torch.cumsum(torch.empty(5000, N).exponential_(10, generator=gen), 1))
for _ in range(REPS):
    start = time.process_time()
    for b in range(100):
        loss = loss_of(data[b * B:(b + 1) * B])
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            for w in nonpos:
                w.clamp_(max=0)
            for w in nonneg:
                w.clamp_(min=0)
    print(f"{time.process_time() - start:.3f}")
