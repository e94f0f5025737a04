#!/usr/bin/python3
"""Writes torch_golden.json: PyTorch's outputs and gradients for a few tiny
Conv2d, ConvTranspose2d and BatchNorm2d cases, in float64, for golden_test.go.

Each case stores its inputs (flattened row-major), the output, the weights
r of the cost sum(out * r) and the gradient of that cost for every input.

    /usr/bin/python3 acoustic/conv/testdata/torch_golden.py > acoustic/conv/testdata/torch_golden.json
"""
import json
import torch
import torch.nn.functional as F

torch.manual_seed(24)
torch.set_default_dtype(torch.float64)


def flat(t):
    return [float(v) for v in t.detach().reshape(-1)]


def conv_case(transposed, n, cin, cout, k, s, p, h, w, bias):
    x = torch.rand(n, cin, h, w) * 2 - 1
    ws = (cin, cout, k, k) if transposed else (cout, cin, k, k)
    wt = torch.rand(*ws) * 2 - 1
    b = torch.rand(cout) * 2 - 1 if bias else None
    ins = [x, wt] + ([b] if bias else [])
    for t in ins:
        t.requires_grad_(True)
    f = F.conv_transpose2d if transposed else F.conv2d
    out = f(x, wt, b, stride=s, padding=p)
    r = torch.rand(*out.shape) * 2 - 1
    (out * r).sum().backward()
    return {"op": "conv_transpose2d" if transposed else "conv2d", "n": n,
            "options": {"InChannels": cin, "OutChannels": cout, "KernelSize": k, "Stride": s, "Padding": p, "Height": h, "Width": w},
            "inputs": [flat(t) for t in ins], "output": flat(out), "r": flat(r), "grads": [flat(t.grad) for t in ins]}


def bn_case(n, c, h, w):
    bn = torch.nn.BatchNorm2d(c)
    with torch.no_grad():
        bn.weight.copy_(torch.rand(c) + 0.5)
        bn.bias.copy_(torch.rand(c) - 0.5)
    x = (torch.rand(n, c, h, w) * 2 - 1) * 3 + 0.5
    x.requires_grad_(True)
    out = bn(x)  # training: batch statistics, running statistics updated
    r = torch.rand(*out.shape) * 2 - 1
    (out * r).sum().backward()
    bn.eval()
    x2 = torch.rand(n, c, h, w) * 2 - 1
    ev = bn(x2)
    return {"op": "batchnorm2d", "n": n, "channels": c, "positions": h * w,
            "inputs": [flat(x), flat(bn.weight), flat(bn.bias)], "output": flat(out), "r": flat(r),
            "grads": [flat(x.grad), flat(bn.weight.grad), flat(bn.bias.grad)],
            "running_mean": flat(bn.running_mean), "running_var": flat(bn.running_var),
            "eval_input": flat(x2), "eval_output": flat(ev)}


cases = [
    conv_case(False, 2, 2, 3, 3, 2, 1, 5, 6, True),
    conv_case(False, 2, 1, 2, 5, 4, 2, 9, 9, False),
    conv_case(False, 2, 3, 2, 4, 1, 0, 4, 4, False),
    conv_case(True, 2, 3, 2, 4, 2, 1, 3, 3, True),
    conv_case(True, 2, 2, 1, 4, 4, 0, 2, 2, False),
    conv_case(True, 2, 2, 2, 5, 2, 2, 3, 4, True),
    bn_case(3, 2, 2, 3),
]
print(json.dumps({"torch": torch.__version__, "cases": cases}))
