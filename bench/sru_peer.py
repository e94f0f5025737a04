#!/usr/bin/python3
"""The same SRU training step in PyTorch (Debian python3-torch), for bench/sru.sh.

SRU as asappresearch/sru defines it (DESIGN.md section 3): U = x W for all
frames in one matmul, then the element-wise recurrence over time with the
highway connection, identity activation; an affine output layer and
cross-entropy; Adam. Written the way one writes it in plain PyTorch (the
recurrence as a Python loop over frames, autograd for the backward pass),
float32, torch.set_num_threads(threads). Prints one line like the Go driver.
"""
import argparse, resource, statistics, time
import torch

p = argparse.ArgumentParser()
p.add_argument("--hidden", type=int, default=256)
p.add_argument("--layers", type=int, default=4)
p.add_argument("--pdfs", type=int, default=200)
p.add_argument("--input-dim", type=int, default=40)
p.add_argument("--frames", type=int, default=500)
p.add_argument("--utts", type=int, default=8)
p.add_argument("--steps", type=int, default=5)
p.add_argument("--threads", type=int, default=1)
p.add_argument("--name", default="small")
p.add_argument("--no-jit", action="store_true", help="recurrence as a plain Python loop instead of TorchScript")
a = p.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(1)


def sru_loop(u0, u1, u2, xp, vf, vr, bf, br):
    # unbind, not u0[t]: the backward of indexing one frame materialises a
    # zero gradient of the whole T×B×h tensor per frame (quadratic in T);
    # unbind's backward is one stack.
    u0s, u1s, u2s, xps = u0.contiguous().unbind(0), u1.contiguous().unbind(0), u2.contiguous().unbind(0), xp.contiguous().unbind(0)
    c = torch.zeros_like(u0s[0])
    out = []
    for t in range(len(u0s)):
        f = torch.sigmoid(u1s[t] + vf * c + bf)
        r = torch.sigmoid(u2s[t] + vr * c + br)
        c = f * c + (1 - f) * u0s[t]
        out.append(r * c + (1 - r) * xps[t])
    return torch.stack(out)


# TorchScript removes the Python interpreter from the per-frame loop (the
# peer at its best without a custom kernel); --no-jit keeps the plain loop.
sru_scripted = torch.jit.script(sru_loop)


class SRULayer(torch.nn.Module):
    def __init__(self, n_in, h):
        super().__init__()
        self.k = 3 if n_in == h else 4
        self.h = h
        r = (3.0 / n_in) ** 0.5
        self.weight = torch.nn.Parameter(torch.empty(n_in, self.k * h).uniform_(-r, r))
        self.weight_c = torch.nn.Parameter(torch.empty(2 * h).uniform_(-(3 ** 0.5), 3 ** 0.5) * 0.5 ** 0.5)
        self.bias = torch.nn.Parameter(torch.zeros(2 * h))

    def forward(self, x):  # x: T x B x in
        T, B, _ = x.shape
        h = self.h
        u = (x.reshape(T * B, -1) @ self.weight).view(T, B, self.k, h)
        xp = x if self.k == 3 else u[:, :, 3]
        vf, vr = self.weight_c[:h], self.weight_c[h:]
        bf, br = self.bias[:h], self.bias[h:]
        loop = sru_loop if a.no_jit else sru_scripted
        return loop(u[:, :, 0], u[:, :, 1], u[:, :, 2], xp, vf, vr, bf, br)


layers = []
n_in = a.input_dim
for _ in range(a.layers):
    layers.append(SRULayer(n_in, a.hidden))
    n_in = a.hidden
model = torch.nn.Sequential(*layers)
outl = torch.nn.Linear(a.hidden, a.pdfs)
params = list(model.parameters()) + list(outl.parameters())
opt = torch.optim.Adam(params, lr=1e-3)
x = torch.randn(a.frames, a.utts, a.input_dim)
y = torch.randint(0, a.pdfs, (a.frames * a.utts,))
times, cpus = [], []
for i in range(a.steps + 1):
    t0, c0 = time.perf_counter(), time.process_time()
    opt.zero_grad()
    e = model(x)
    loss = torch.nn.functional.cross_entropy(outl(e.reshape(-1, a.hidden)), y)
    loss.backward()
    opt.step()
    if i > 0:
        times.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
med = statistics.median(times)
n = a.frames * a.utts
flops, din = 0.0, a.input_dim
for _ in range(a.layers):
    k = 3 if din == a.hidden else 4
    flops += 6 * n * din * k * a.hidden
    din = a.hidden
flops += 6 * n * a.hidden * a.pdfs
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"pytorch {a.name} sru threads={a.threads} frames/s={n / med:.1f} step_s={med:.3f} gflops={flops / med / 1e9:.2f} peak_rss_mib={rss:.0f} cpu_s={statistics.median(cpus):.3f}")
