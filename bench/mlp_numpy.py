"""The MLP training step of examples/mlp_step.mlir (784-1024-1024-10, ReLU,
softmax cross-entropy, SGD with rate 0.1) in NumPy: the reference its
results are checked against, and the two baselines it is timed against.

  mlp_numpy.py single INPUTS REPEAT   the whole global batch in one process
                                      (OpenBLAS with its threads)
  mpirun -np N mlp_numpy.py mpi INPUTS REPEAT
                                      what a user without JAX writes: one
                                      rank per device, each its share of
                                      the batch, the gradients (and loss)
                                      averaged with one MPI Allreduce
                                      (mpi4py)

INPUTS is a directory with p0.npy ... p5.npy (w1, b1, w2, b2, w3, b3) and
xs.npy, ys.npy (N x B x 784 and N x B x 10, one-hot), as init() makes
them. Prints the seconds of each step, then saves the new parameters and
the loss of the last one as INPUTS/numpy_result{0..6}.npy (process 0).
"""

import os
import sys
import time

import numpy as np

RATE = np.float32(0.1)


def init(devices, batch, seed=0):
    """Parameters (He-initialized weights, small biases), and each device's
    inputs in [0, 1) with one-hot labels."""
    rng = np.random.default_rng(seed)
    f = np.float32
    params = []
    for fan_in, fan_out in ((784, 1024), (1024, 1024), (1024, 10)):
        params.append((rng.standard_normal((fan_in, fan_out))
                       * np.sqrt(2 / fan_in)).astype(f))
        params.append((rng.standard_normal(fan_out) * 0.01).astype(f))
    xs = rng.random((devices, batch, 784), dtype=f)
    ys = np.eye(10, dtype=f)[rng.integers(0, 10, (devices, batch))]
    return params, xs, ys


def gradients(params, x, y):
    """The gradients of the mean loss over the examples of `x`, and the
    loss."""
    w1, b1, w2, b2, w3, b3 = params
    h1 = np.maximum(x @ w1 + b1, 0)
    h2 = np.maximum(h1 @ w2 + b2, 0)
    logits = h2 @ w3 + b3
    largest = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - largest)
    sums = e.sum(axis=1, keepdims=True)
    loss = np.mean(np.log(sums[:, 0]) + largest[:, 0]
                   - (y * logits).sum(axis=1), dtype=np.float32)
    d3 = (e / sums - y) / np.float32(x.shape[0])
    d2 = (d3 @ w3.T) * (h2 > 0)
    d1 = (d2 @ w2.T) * (h1 > 0)
    return [x.T @ d1, d1.sum(0), h1.T @ d2, d2.sum(0), h2.T @ d3,
            d3.sum(0)], loss


def step(params, xs, ys):
    """The step as examples/mlp_step.mlir computes it: each device's
    gradients over its examples, averaged over the devices."""
    per_device = [gradients(params, x, y) for x, y in zip(xs, ys)]
    devices = np.float32(len(per_device))
    mean = [sum(g[j] for g, _ in per_device) / devices for j in range(6)]
    loss = sum(l for _, l in per_device) / devices
    return [p - RATE * g for p, g in zip(params, mean)], np.float32(loss)


def mismatch(got, params, expected, loss):
    """What is wrong with `got` (new parameters, then the loss) as a result
    of the step from `params` whose NumPy results are `expected` and `loss`;
    None if nothing. The order of the sums differs, which also decides the
    ReLU's mask where a unit's input is within rounding of 0 (a flip changes
    that unit's gradients by its whole term), and new parameters are
    rounded to f32 near the old ones: each may be off by 0.2 % of its
    parameter's largest update plus two ulps. (A real error, a wrong
    transposition or average, is of the order of the update itself.)"""
    for index, (old, new, value) in enumerate(zip(params, expected, got)):
        bound = (2e-3 * np.abs(new - old).max()
                 + 2 * np.spacing(np.abs(new)))
        if not np.all(np.abs(value - new) <= bound):
            worst = np.abs(value - new).max()
            return f"parameter {index} off by up to {worst:.3e}"
    if not np.allclose(got[6], loss, rtol=1e-5):
        return f"loss {got[6]}, NumPy's {loss}"
    return None


def load(inputs):
    params = [np.load(os.path.join(inputs, f"p{i}.npy")) for i in range(6)]
    return (params, np.load(os.path.join(inputs, "xs.npy")),
            np.load(os.path.join(inputs, "ys.npy")))


def save(inputs, params, loss):
    for i, value in enumerate(params + [np.asarray(loss)]):
        np.save(os.path.join(inputs, f"numpy_result{i}.npy"), value)


def single(inputs, repeat):
    params, xs, ys = load(inputs)
    # The global batch at once: the mean over all examples equals the mean
    # of the devices' means, as their batches are equal.
    x, y = xs.reshape(-1, 784), ys.reshape(-1, 10)
    for _ in range(repeat):
        start = time.perf_counter()
        grads, loss = gradients(params, x, y)
        new = [p - RATE * g for p, g in zip(params, grads)]
        print(f"{time.perf_counter() - start:.9f}", flush=True)
    save(inputs, new, loss)


def distributed(inputs, repeat):
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    params, xs, ys = load(inputs)
    if xs.shape[0] != size:
        sys.exit(f"mlp_numpy: {xs.shape[0]} devices, {size} ranks")
    x, y = xs[rank], ys[rank]
    shapes = [p.shape for p in params]
    flat = np.empty(sum(p.size for p in params) + 1, np.float32)
    for _ in range(repeat):
        comm.Barrier()
        start = time.perf_counter()
        grads, loss = gradients(params, x, y)
        offset = 0
        for g in grads:
            flat[offset:offset + g.size] = g.ravel()
            offset += g.size
        flat[-1] = loss
        comm.Allreduce(MPI.IN_PLACE, flat, op=MPI.SUM)
        flat /= np.float32(size)
        new, offset = [], 0
        for p, shape in zip(params, shapes):
            new.append(p - RATE * flat[offset:offset + p.size].reshape(shape))
            offset += p.size
        comm.Barrier()
        if rank == 0:
            print(f"{time.perf_counter() - start:.9f}", flush=True)
    if rank == 0:
        save(inputs, new, flat[-1])


if __name__ == "__main__":
    mode, inputs, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"single": single, "mpi": distributed}[mode](inputs, repeat)
