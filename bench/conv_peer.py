#!/usr/bin/python3
"""The Rotating MNIST encoder and decoder in PyTorch, for bench/conv.sh.

The STRODE reference code's CNN (Waffle-Liu/STRODE rotatingMNIST/model.py,
without the ODE between encoder and decoder): Conv2d(1, ndf, 5, 4, 2) →
LeakyReLU(0.2), Conv2d(ndf, 2ndf, 5, 2, 2) → BatchNorm2d → LeakyReLU,
Conv2d(2ndf, 4ndf, 5, 2, 2) → BatchNorm2d → LeakyReLU, Conv2d(4ndf, 4ndf,
4, 1, 0); ConvTranspose2d(4ndf, 4ndf, 4, 4, 0) → BatchNorm2d → ReLU,
ConvTranspose2d(4ndf, 2ndf, 4, 2, 1) → BN → ReLU, ConvTranspose2d(2ndf,
ndf, 4, 2, 1) → BN → ReLU, ConvTranspose2d(ndf, 1, 4, 4, 0) → Tanh; no
biases; MSE against a target batch. Times the forward and backward pass of
one training step (gradients set to None between steps, no optimizer step), the mean over
--steps steps after one warm-up step,
float32, torch.set_num_threads(threads), as acoustic/conv's BenchmarkStack.
Prints one line like bench/conv.sh's Go side.
"""
import argparse, resource, time
import torch
import torch.nn as nn

p = argparse.ArgumentParser()
p.add_argument("--ndf", type=int, default=16)
p.add_argument("--batch", type=int, default=50)
p.add_argument("--steps", type=int, default=10)
p.add_argument("--threads", type=int, default=2)
a = p.parse_args()
torch.set_num_threads(a.threads)
torch.manual_seed(1)
ndf = a.ndf
model = nn.Sequential(
    nn.Conv2d(1, ndf, 5, 4, 2, bias=False), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(ndf, 2 * ndf, 5, 2, 2, bias=False), nn.BatchNorm2d(2 * ndf), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(2 * ndf, 4 * ndf, 5, 2, 2, bias=False), nn.BatchNorm2d(4 * ndf), nn.LeakyReLU(0.2, inplace=True),
    nn.Conv2d(4 * ndf, 4 * ndf, 4, 1, 0, bias=False),
    nn.ConvTranspose2d(4 * ndf, 4 * ndf, 4, 4, 0, bias=False), nn.BatchNorm2d(4 * ndf), nn.ReLU(inplace=True),
    nn.ConvTranspose2d(4 * ndf, 2 * ndf, 4, 2, 1, bias=False), nn.BatchNorm2d(2 * ndf), nn.ReLU(inplace=True),
    nn.ConvTranspose2d(2 * ndf, ndf, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf), nn.ReLU(inplace=True),
    nn.ConvTranspose2d(ndf, 1, 4, 4, 0, bias=False), nn.Tanh(),
)
x = torch.rand(a.batch, 1, 64, 64) * 2 - 1
y = torch.rand(a.batch, 1, 64, 64) * 2 - 1


def step():
    for q in model.parameters():
        q.grad = None
    loss = torch.mean((model(x) - y) ** 2)
    loss.backward()


step()  # warm-up, as the Go benchmark's first run of one step
# the mean over the steps, as the Go benchmark's ns/op
w0, c0 = time.perf_counter(), time.process_time()
for _ in range(a.steps):
    step()
wall, cpu = (time.perf_counter() - w0) / a.steps, (time.process_time() - c0) / a.steps
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"pytorch ndf={ndf} batch={a.batch} threads={a.threads} ms={wall*1e3:.2f} cpu-ms={cpu*1e3:.2f} images/s={a.batch/wall:.1f} rss-MiB={rss:.0f}")
