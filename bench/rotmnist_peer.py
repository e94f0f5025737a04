#!/usr/bin/python3
"""Our four Rotating MNIST models in PyTorch, for bench/rotmnist.sh.

The network acoustic/seqvideo builds (its doc.go), not the reference code's
variants of it (Waffle-Liu/STRODE rotatingMNIST/model.py):

  - every frame through the DCGAN-style encoder (bench/conv_peer.py's first
    half: ndf → 2ndf → 4ndf → 4ndf, no biases, BatchNorm in training mode)
    to z (latent 4·ndf), all N·B frames as one batch, rows step-major;
  - times: node/odernn unit intervals (the last frame's empty); strode and
    strode-rnn b(z) = tanh(z·V1·V2)·V3 and the boundary recurrence
    t_i = sg(t_{i−1}) + softplus(a(t_{i−1}) + b(z_i)), a(t) = tanh(t·W1·W2)·W3,
    t_{−1} = 0, weights ≤ 0 (acoustic/strode Boundary.BFused, Gaps); the
    frame i's interval is t_{i+1} − t_i, the last one empty;
  - f_o = Linear → tanh → Linear → tanh → Linear (hidden 100, N(0, 0.1²)),
    10 Euler steps h ← h + (span/10)·f_o(h) from z_i, all rows at once
    (acoustic/ode SolveMLP; the reference calls its solver frame by frame);
  - odernn/strode-rnn: a two-layer SRU (acoustic/sru's equations, identity
    activation, hidden = input = 4·ndf so x′ = x; W in×3h, v 2h, b 2h) over
    the N frames, written as plain PyTorch (a Python loop over the 6 frames,
    autograd for the reverse pass);
  - the decoder (conv_peer.py's second half, tanh out), MSE over every pixel
    of the N outputs against x_{min(i+1, N−1)};
  - strode/strode-rnn: + w_kl·mean KL term, Theorem 1 on the quadrature
    nodes t_k = −log(1 − kε), k = 1 … K−1 (ε = 0.1), exactly as
    acoustic/strode Boundary.KLTerm and Prior.DensityFused compute it:
    q_rk = σ(b(z_r) + a(t_k))·(−a′(t_k)/t_k) with a′ by tangent propagation,
    the unconditional prior p(t_k) = λ(t_k)·e^{−φ(t_k)} (weights ≥ 0),
    G_rk = q·e^{t_k}·(log(q + 1e-6) − log(p + 1e-6)),
    term_r = ε·(Σ_k G_rk + |G_r,K−1|); w_kl = 5e-5;
  - Adam (lr 5e-4, PyTorch's defaults otherwise), then Φ's weights clamped
    to ≤ 0 and φ's to ≥ 0 (acoustic/optim's ProjectSigns).

Where it differs from our Go step (none changes the network or its
parameter count): float32 throughout, where ours runs Φ, φ, the KL term and
Adam in float64 (a few million multiply-adds per step against the CNN's
billions); ours also checks every parameter for NaN/Inf after the reverse
pass (optim.Check), which has no counterpart here (its cost is a pass over
~0.3 M values). Inputs are random bytes / 255, converted every step as our
Batch.Set does.

Times --steps training steps after --warmup warm-up steps, float32,
torch.set_num_threads(threads); ms and cpu-ms are the means over the steps
(as the Go benchmark's ns/op and cpu-ms/op), epoch-s = 100 × ms / 1000 (one
epoch is 5000 videos = 100 steps). Prints one line like bench/rotmnist.sh's
Go side, with the parameter count.
"""
import argparse, math, resource, time
import torch
import torch.nn as nn
import torch.nn.functional as F

p = argparse.ArgumentParser()
p.add_argument("--model", default="strode", choices=["node", "odernn", "strode", "strode-rnn"])
p.add_argument("--ndf", type=int, default=16)
p.add_argument("--batch", type=int, default=50)
p.add_argument("--frames", type=int, default=6)
p.add_argument("--steps", type=int, default=10)
p.add_argument("--warmup", type=int, default=2)
p.add_argument("--threads", type=int, default=2)
p.add_argument("--phi-hidden", type=int, default=64)
p.add_argument("--ode-hidden", type=int, default=100)
p.add_argument("--ode-steps", type=int, default=10)
p.add_argument("--rnn-layers", type=int, default=2)
p.add_argument("--w-kl", type=float, default=5e-5)
p.add_argument("--kl-epsilon", type=float, default=0.1)
p.add_argument("--lr", type=float, default=5e-4)
p.add_argument("--params-only", action="store_true", help="print the parameter count and exit")
a = p.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(1)
LEARNED = a.model in ("strode", "strode-rnn")
RECURRENT = a.model in ("odernn", "strode-rnn")
LOG_GUARD = 1e-6


def glorot(rows, cols, sign=0):
    """±|Glorot uniform| as optim.Param.Glorot (sign −1: ≤ 0, +1: ≥ 0)."""
    r = math.sqrt(6 / (rows + cols))
    w = torch.empty(rows, cols).uniform_(-r, r)
    if sign:
        w = sign * w.abs()
    return nn.Parameter(w)


class SeqVideo(nn.Module):
    def __init__(self, ndf):
        super().__init__()
        d, ho, hp = 4 * ndf, a.ode_hidden, a.phi_hidden
        self.d = d
        self.enc = nn.Sequential(
            nn.Conv2d(1, ndf, 5, 4, 2, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, 2 * ndf, 5, 2, 2, bias=False), nn.BatchNorm2d(2 * ndf), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(2 * ndf, 4 * ndf, 5, 2, 2, bias=False), nn.BatchNorm2d(4 * ndf), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(4 * ndf, 4 * ndf, 4, 1, 0, bias=False))
        self.dec = nn.Sequential(
            nn.ConvTranspose2d(4 * ndf, 4 * ndf, 4, 4, 0, bias=False), nn.BatchNorm2d(4 * ndf), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(4 * ndf, 2 * ndf, 4, 2, 1, bias=False), nn.BatchNorm2d(2 * ndf), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(2 * ndf, ndf, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(ndf, 1, 4, 4, 0, bias=False), nn.Tanh())
        self.ode = nn.ModuleList([nn.Linear(d, ho), nn.Linear(ho, ho), nn.Linear(ho, d)])
        for l in self.ode:
            nn.init.normal_(l.weight, 0, 0.1)
            nn.init.zeros_(l.bias)
        if RECURRENT:
            self.sru = nn.ParameterList()
            r = math.sqrt(3 / d)
            for _ in range(a.rnn_layers):
                w = torch.empty(d, 3 * d).uniform_(-r, r)
                w[:, d:] *= math.sqrt(0.5)
                self.sru.append(nn.Parameter(w))
                self.sru.append(nn.Parameter(torch.empty(2 * d).uniform_(-1, 1) * math.sqrt(1.5)))
                self.sru.append(nn.Parameter(torch.zeros(2 * d)))
        if LEARNED:
            # Φ: a(t) = tanh(t·W1·W2)·W3, b(z) = tanh(z·V1·V2)·V3, all ≤ 0, no biases
            self.W1, self.W2, self.W3 = glorot(1, hp, -1), glorot(hp, hp, -1), glorot(hp, 1, -1)
            self.V1, self.V2, self.V3 = glorot(d, hp, -1), glorot(hp, hp, -1), glorot(hp, 1, -1)
            # φ: c(t) = tanh((t·U1 + β1)·U2 + β2)·U3, U ≥ 0; ρ, d scalars
            self.U1, self.U2, self.U3 = glorot(1, hp, 1), glorot(hp, hp, 1), glorot(hp, 1, 1)
            self.B1, self.B2 = nn.Parameter(torch.zeros(1, hp)), nn.Parameter(torch.zeros(1, hp))
            self.rho, self.dd = nn.Parameter(torch.zeros(1, 1)), nn.Parameter(torch.zeros(1, 1))
            k = round(1 / a.kl_epsilon)
            m = torch.tensor([-1 + i * a.kl_epsilon for i in range(1, k)], dtype=torch.float64)
            self.register_buffer("tk", (-torch.log(-m)).float().unsqueeze(1))  # (K−1)×1
            self.register_buffer("wk", (-1 / m).float().unsqueeze(0))  # 1×(K−1), e^{t_k}

    def nonpos(self):
        return [self.W1, self.W2, self.W3, self.V1, self.V2, self.V3] if LEARNED else []

    def nonneg(self):
        return [self.U1, self.U2, self.U3] if LEARNED else []

    def f(self, h):
        h = torch.tanh(self.ode[0](h))
        h = torch.tanh(self.ode[1](h))
        return self.ode[2](h)

    def gaps(self, bz, n, b):
        """The boundary recurrence (acoustic/strode Boundary.Gaps): gaps per row."""
        t = torch.zeros(b, 1)
        out = []
        for g in bz.view(n, b, 1).unbind(0):
            gap = F.softplus(torch.tanh(t @ self.W1 @ self.W2) @ self.W3 + g)
            out.append(gap)
            t = t.detach() + gap
        return out

    def prior_density(self):
        """p(t_k) = λ·e^{−φ} (acoustic/strode Prior.DensityFused), 1×(K−1)."""
        tk = self.tk
        h = torch.tanh((tk @ self.U1 + self.B1) @ self.U2 + self.B2)
        c = h @ self.U3
        dc = ((1 - h * h) * (self.U1 @ self.U2)) @ self.U3
        c0 = torch.tanh(self.B1 @ self.U2 + self.B2) @ self.U3
        base = F.softplus(self.rho)
        phi = base * tk + F.softplus(c + self.dd) - F.softplus(c0 + self.dd)
        lam = base + torch.sigmoid(c + self.dd) * dc
        return (lam * torch.exp(-phi)).t()

    def kl_term(self, bz, prior):
        """Theorem 1's term per row (acoustic/strode Boundary.KLTerm), R×1."""
        tk = self.tk
        h = torch.tanh(tk @ self.W1 @ self.W2)
        ak = h @ self.W3
        dak = ((1 - h * h) * (self.W1 @ self.W2)) @ self.W3  # a′(t_k), tangent propagation
        coef = (-dak / tk).t()
        q = torch.sigmoid(bz + ak.t()) * coef
        g = q * self.wk * (torch.log(q + LOG_GUARD) - torch.log(prior + LOG_GUARD))
        return a.kl_epsilon * (g.sum(1, keepdim=True) + g[:, -1:].abs())

    def sru_stack(self, x, n, b):
        d = self.d
        for i in range(0, len(self.sru), 3):
            w, wc, bias = self.sru[i], self.sru[i + 1], self.sru[i + 2]
            u = (x @ w).view(n, b, 3, d)
            vf, vr, bf, br = wc[:d], wc[d:], bias[:d], bias[d:]
            u0, u1, u2 = u[:, :, 0].unbind(0), u[:, :, 1].unbind(0), u[:, :, 2].unbind(0)
            xs = x.view(n, b, d).unbind(0)
            c = torch.zeros(b, d)
            out = []
            for t in range(n):
                f = torch.sigmoid(u1[t] + vf * c + bf)
                r = torch.sigmoid(u2[t] + vr * c + br)
                c = f * c + (1 - f) * u0[t]
                out.append(r * c + (1 - r) * xs[t])
            x = torch.stack(out).view(n * b, d)
        return x

    def forward(self, x, n, b):
        """x: (N·B)×1×64×64, row i·B + s is frame i of video s. Loss, MSE, KL."""
        z = self.enc(x).flatten(1)
        kl = None
        if LEARNED:
            bz = torch.tanh(z @ self.V1 @ self.V2) @ self.V3
            g = self.gaps(bz, n, b)
            spans = torch.cat(g[1:] + [torch.zeros(b, 1)])
            kl = self.kl_term(bz, self.prior_density()).mean()
        else:
            spans = torch.cat([torch.ones((n - 1) * b, 1), torch.zeros(b, 1)])
        dt = spans / a.ode_steps
        h = z
        for _ in range(a.ode_steps):
            h = h + dt * self.f(h)
        if RECURRENT:
            h = self.sru_stack(h, n, b)
        pred = self.dec(h.view(n * b, self.d, 1, 1))
        y = torch.cat([x[b:], x[-b:]])  # x_{min(i+1, N−1)}
        mse = torch.mean((pred - y) ** 2)
        loss = mse if kl is None else mse + a.w_kl * kl
        return loss, mse, kl


model = SeqVideo(a.ndf)
nparams = sum(q.numel() for q in model.parameters())
if a.params_only:
    print(f"pytorch model={a.model} ndf={a.ndf} params={nparams}")
    raise SystemExit(0)
model.train()
opt = torch.optim.Adam(model.parameters(), lr=a.lr)
n, b = a.frames, a.batch
frames = torch.randint(0, 256, (n * b, 1, 64, 64), dtype=torch.uint8)


def step():
    x = frames.float() / 255
    opt.zero_grad(set_to_none=True)
    loss, mse, kl = model(x, n, b)
    loss.backward()
    opt.step()
    with torch.no_grad():
        for w in model.nonpos():
            w.clamp_(max=0)
        for w in model.nonneg():
            w.clamp_(min=0)
    return loss.item() + mse.item() + (0 if kl is None else kl.item())


for _ in range(a.warmup):
    step()
w0, c0 = time.perf_counter(), time.process_time()
total = 0.0
for _ in range(a.steps):
    total += step()
wall, cpu = (time.perf_counter() - w0) / a.steps, (time.process_time() - c0) / a.steps
if total != total:
    raise SystemExit("rotmnist_peer.py: NaN loss")
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"pytorch model={a.model} ndf={a.ndf} batch={b} threads={a.threads} ms={wall*1e3:.2f} cpu-ms={cpu*1e3:.2f} "
      f"epoch-s={wall*100:.2f} frames/s={n*b/wall:.1f} params={nparams} rss-MiB={rss:.0f}")
