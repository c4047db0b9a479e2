"""Writes test/fixtures/golden-openrlhf-trainer.json: each token's weight in OpenRLHF's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/openrlhf_trainer.py /path/to/OpenRLHF-checkout [out.json]

Made with OpenRLHF 3c3be6234e0cb353e76bb8019947db9dfe99fca7 (the checkout's commit is recorded in the fixture),
torch 2.13 CPU. The openrlhf package is not imported (it pulls ray, deepspeed, vllm); each function is read from the
checkout with `ast` and exec'd (helpers of scripts/golden/openrlhf_layout.py: `pick`, the threaded torch.distributed
stand-in whose all_reduce really reduces across one thread per data-parallel rank).

What runs as OpenRLHF's code:
- openrlhf/models/loss.py aggregate_loss (token_level_loss True for policy_loss_type ppo, False for gspo, as
  PolicyLoss sets it) and openrlhf/models/utils.py masked_mean, on a per-token loss that is a float64 leaf `logp`
  (requires_grad), so d loss / d logp is each token's weight; the mask is an int64 action mask and torch's default
  dtype stays float32, as in the real run (so token_counts + 1e-8 and the normalisers are float32);
- openrlhf/utils/loss_utils.py iter_grad_accum_global_norm, _optimizer_step_loss_norm, _get_dp_group and
  get_loss_batch_info, on every rank's thread (all_reduce summing over the ranks);
- with --train.dynamic_batch_enable: NaiveReplayBuffer.setup_dynamic_batch (replay_buffer.py) with
  openrlhf/utils/seqlen_balancing.py, on every rank's thread, and get_loss_batch_info reading its
  dynamic_batch_num_tokens / dynamic_global_batch_size.
Transcribed (named, because they need DeepSpeed): DeepSpeed's backward scaling loss / gradient_accumulation_steps
(accumulated_gradient = train.batch_size // micro_batch_size // world size; 1 under dynamic batching, where
ds_config sets gradient_accumulation_steps 1) and its gradient average over the data-parallel ranks (÷ dp_size).
Not reproduced: the actor's DataLoader(replay_buffer, shuffle=True) draws its micro-batches from the actor process's
own torch RNG; the micro-batches here are the buffer's order cut into train.micro_batch_size (drop_last), as the
sandbox lists them.
"""
import importlib.util
import json
import os
import random
import subprocess
import sys
import threading
import types

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("openrlhf_layout", os.path.join(HERE, "openrlhf_layout.py"))
L = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(L)


class Dist(L.FakeDist):
    """The layout script's threaded torch.distributed, initialised."""

    @staticmethod
    def is_available():
        return True

    @staticmethod
    def is_initialized():
        return True


DIST = Dist()
L.FAKE_DIST = DIST


def ns(**kw):
    return types.SimpleNamespace(**kw)


def on_ranks(world, work):
    DIST.setup(world)
    results, errors = [None] * world, []

    def run(r):
        DIST.local.rank = r
        try:
            results[r] = work(r)
        except Exception as e:  # noqa: BLE001
            import traceback
            errors.append(f"{type(e).__name__}: {e} {traceback.format_exc()}")
            DIST.barrier.abort()

    threads = [threading.Thread(target=run, args=(r,)) for r in range(world)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise SystemExit(sorted(e for e in errors if "Barrier" not in e)[0])
    return results


def weights_of(agg, lengths, info, token_level, gas, world):
    """One micro-batch's loss, DeepSpeed's transcribed scaling, autograd: each sample's token weight."""
    width = max(lengths + [1])
    mask = torch.zeros(len(lengths), width, dtype=torch.int64)
    for i, n in enumerate(lengths):
        mask[i, :n] = 1
    logp = torch.zeros(len(lengths), width, dtype=torch.float64, requires_grad=True)
    loss = agg(logp, mask, token_level_loss=token_level, **info)
    loss = loss / gas  # DeepSpeed engine.backward: loss / gradient_accumulation_steps
    loss = loss / world  # DeepSpeed's gradient all-reduce averages over the data-parallel ranks
    loss.backward()
    out = []
    for i, n in enumerate(lengths):
        row = logp.grad[i, :n]
        assert n == 0 or float(row.max() - row.min()) <= 1e-15 * abs(float(row.max()))
        assert float(logp.grad[i, n:].abs().sum()) == 0.0
        out.append(float(row[0]) if n else 0.0)
    return out


def main():
    L.CHECKOUT = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "test", "fixtures", "golden-openrlhf-trainer.json")
    base = {"torch": torch, "Optional": __import__("typing").Optional, "dist": DIST, "nn": torch.nn, "F": torch.nn.functional,
            "__name__": "openrlhf_exec"}
    mu = dict(base)
    L.pick("openrlhf/models/utils.py", ["masked_mean"], mu)
    lo = dict(base, masked_mean=mu["masked_mean"])
    agg = L.pick("openrlhf/models/loss.py", ["aggregate_loss"], lo)["aggregate_loss"]
    lu = dict(base)
    fns = L.pick("openrlhf/utils/loss_utils.py", ["_get_dp_group", "get_loss_batch_info", "_optimizer_step_loss_norm",
                                                  "iter_grad_accum_global_norm"], lu)
    built = L.build()
    Buffer = built["NaiveReplayBuffer"]
    rng = random.Random(20261129)
    strategy = ns(ds_device_mesh=None)

    cases = []
    for ci in range(48):
        world = [1, 2, 4, 3][ci % 4]
        micro = rng.choice([1, 2, 4])
        gas = rng.choice([1, 2, 3])
        steps = rng.choice([1, 2])
        # a few samples past the last whole micro-batch: drop_last leaves them out (a partial gas window, whose gradients
        # DeepSpeed carries into the next optimizer step, is refused by the sandbox and not made here)
        per_rank = micro * gas * steps + (rng.randint(0, micro - 1) if ci % 6 == 5 else 0)
        mode = "ppo" if ci % 2 == 0 else "gspo"
        n = world * per_rank
        tokens = [rng.randint(1, 80) for _ in range(n)]
        if ci % 7 == 3 and micro * gas * world > 1:  # an empty response (alone in a step it would make the loss NaN)
            tokens[rng.randrange(n)] = 0
        order = list(range(n))
        rng.shuffle(order)
        sources = [order[r * per_rank:(r + 1) * per_rank] for r in range(world)]
        epochs = 1 + ci % 2

        def work(r):
            mbs = [sources[r][i * micro:(i + 1) * micro] for i in range(per_rank // micro)]  # drop_last
            out = []
            for _ in range(epochs):
                items = (ns(samples=mb, action_mask=torch.tensor([[1] * tokens[s] + [0] * (80 - tokens[s]) for s in mb])) for mb in mbs)
                for item, info in fns["iter_grad_accum_global_norm"](items, strategy, gas, lambda e: e.action_mask):
                    w = weights_of(agg, [tokens[s] for s in item.samples], info, mode == "ppo", gas, world)
                    out.append({"rank": r, "samples": item.samples, "weights": w})
            return out

        per_rank_mbs = on_ranks(world, work)
        cases.append({"ranks": world, "trainMicroBatchSize": micro, "gas": gas, "maxEpochs": epochs, "loss": mode,
                      "tokens": tokens, "sources": sources, "microBatches": per_rank_mbs})

    dyn_cases = []
    for ci in range(24):
        world = [1, 2, 4][ci % 3]
        train_batch = world * rng.choice([2, 4, 6])
        n = train_batch * rng.choice([1, 2]) + (world * rng.choice([0, 1]) if ci % 5 == 4 else 0)
        per_rank = n // world
        tokens = [rng.randint(1, 300) for _ in range(n)]
        if ci % 7 == 2:
            tokens[rng.randrange(n)] = 0
        seqlens = [t + rng.randint(10, 200) for t in tokens]
        budget = rng.choice([400, 800, 1600])
        mode = "ppo" if ci % 2 == 0 else "gspo"
        epochs = 1 + ci % 2
        order = list(range(n))
        rng.shuffle(order)
        sources = [order[r * per_rank:(r + 1) * per_rank] for r in range(world)]
        k = n // train_batch  # rollout.batch_size × n_samples_per_prompt = n: one prompt of n samples here
        args = ns(train=ns(batch_size=train_batch, max_tokens_per_gpu=budget, dynamic_batch_enable=True),
                  rollout=ns(batch_size=1, n_samples_per_prompt=n), ds=ns(ring_attn_size=1, tensor_parallel_size=1))
        assert k >= 1

        def work(r):
            b = Buffer(1, 0, True, False, True)
            b.items = [ns(total_length=torch.tensor(seqlens[s]), action_mask=torch.tensor([1] * tokens[s] + [0]), sample=s)
                       for s in sources[r]]
            b.setup_dynamic_batch(L.strategy_for(args))
            out = []
            for _ in range(epochs):
                for step, idx in enumerate(b.dynamic_indices):
                    samples = [sources[r][i] for i in idx]
                    mask = torch.tensor([[1] * tokens[s] + [0] * (300 - tokens[s]) for s in samples])
                    info = fns["get_loss_batch_info"](strategy, mask, replay_buffer=b, step=step, dynamic_batch=True)
                    w = weights_of(agg, [tokens[s] for s in samples], info, mode == "ppo", 1, world)
                    out.append({"rank": r, "samples": samples, "weights": w, "optimizerStep": b.dynamic_optimizer_step[step]})
            return out

        per_rank_mbs = on_ranks(world, work)
        dyn_cases.append({"ranks": world, "trainBatchSize": train_batch, "trainMaxTokensPerGpu": budget, "maxEpochs": epochs,
                          "loss": mode, "tokens": tokens, "seqlens": seqlens, "sources": sources, "microBatches": per_rank_mbs})

    commit = subprocess.check_output(["git", "-C", L.CHECKOUT, "rev-parse", "HEAD"], text=True).strip()
    out = {
        "source": "OpenRLHF aggregate_loss, masked_mean, iter_grad_accum_global_norm, _optimizer_step_loss_norm, get_loss_batch_info "
                  "and NaiveReplayBuffer.setup_dynamic_batch exec'd from the checkout (one thread per rank, all-reduces really "
                  "reduced), torch autograd on a float64 leaf; transcribed: DeepSpeed's loss / gradient_accumulation_steps and "
                  "its gradient mean over the data-parallel ranks; not reproduced: the replay buffer's DataLoader(shuffle=True) "
                  "order (the actor's own RNG), so micro-batches are the buffer's order cut by train.micro_batch_size",
        "commit": commit,
        "torch": torch.__version__,
        "cases": cases,
        "dynamicCases": dyn_cases,
    }
    with open(out_path, "w") as f:
        json.dump(out, f, separators=(",", ":"))
    print(f"{len(cases)} + {len(dyn_cases)} cases -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()
