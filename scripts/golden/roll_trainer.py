"""Writes test/fixtures/golden-roll-trainer.json: each token's weight in ROLL's applied update, by autograd.

    /work/golden-venv/bin/python scripts/golden/roll_trainer.py /path/to/ROLL-checkout [out.json]

Made with alibaba/ROLL 8eb27cc2dc34c4d1310b169d9b86d339004d811a (the checkout's commit is recorded in the
fixture), torch 2.13 CPU, float64. The roll package is not imported (it pulls ray, megatron, vllm): each
function's or method's source is read from the checkout with `ast` and exec'd (helpers shared with
scripts/golden/roll_layout.py).

What runs as ROLL's code:
- roll/utils/functionals.py agg_loss, masked_mean, masked_sum: the loss of each micro-batch, called as
  roll/pipeline/rlvr/actor_worker.py ActorWorker.loss_func calls it (loss_mask = response_mask[:, 1:],
  batch_num_tokens / global_valid_samples of the 'response_mask' key), on a per-token loss equal to a leaf
  `logp` (requires_grad) times the response mask (compute_advantage multiplies the advantages by response_mask,
  so the pg loss is 0 off the response; agg_loss's token-mean sums loss_mat without the mask), so
  d loss / d logp is each token's weight;
- roll/distributed/strategy/strategy.py InferenceStrategy._get_batch_num_tokens and _get_global_valid_samples
  (a stand-in `dist.all_reduce` that sums the value over the data-parallel ranks' backward batches);
- roll/distributed/scheduler/protocol.py DataProto.make_iterator (stand-in `self`; the real torch DataLoader
  with shuffle and a generator seeded with pipeline seed), as roll/pipeline/base_worker.py
  ActorWorker.train_step calls it: mini_batch_size = per_device_train_batch_size × gradient_accumulation_steps,
  epochs = ppo_epochs;
- with dynamic batching: roll/utils/functionals.py batch_balance, roll/utils/dynamic_batching.py
  dynamic_batching_shard, make_mini_batch_iter_for_dynamic_batching, make_micro_batch_iter_for_dynamic_batching
  (stand-in DataProto of roll_layout.py), DataProto.chunk's contiguous split over the ranks.
Transcribed (named, because they need Megatron / FSDP2 process groups): the scaling of each micro-batch's loss
in MegatronTrainStrategy.train_step / inner_forward_step (loss *= loss_scale = num_microbatches × dp_size),
Megatron-core's forward_step (loss /= num_microbatches) and its DDP gradient average over the data-parallel
ranks (÷ dp_size); the same product as FSDP2TrainStrategy.train_step (× mini_steps × dp_size, / GA, FSDP mean);
without dynamic batching each backward batch is split into contiguous micro-batches of
per_device_train_batch_size (batch.chunk / make_iterator without shuffle), one optimizer step per backward batch.
"""
import importlib.util
import json
import os
import random
import subprocess
import sys

import numpy as np
import torch
from torch.utils.data import DataLoader

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("roll_layout", os.path.join(HERE, "roll_layout.py"))
roll_layout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(roll_layout)
load, Proto = roll_layout.load, roll_layout.Proto


class _Rows(dict):
    """The stand-in's batch dict, with TensorDict's batch_size (read by the dynamic mini-batch iterator)."""

    @property
    def batch_size(self):
        return [len(self["prompt_id"])]


_proto_init = Proto.__init__


def _init(self, *a, **k):
    _proto_init(self, *a, **k)
    self.batch = _Rows(self.batch)


Proto.__init__ = _init

MODES = ["seq-mean-token-mean", "token-mean", "seq-mean-token-sum", "seq-mean-token-sum-norm"]
torch.set_default_dtype(torch.float64)


class Batch:
    """Stand-in DataProto for the strategy's counters: response_mask rows (one leading column, sliced off)."""

    def __init__(self, lens, width):
        mask = torch.zeros(len(lens), width + 1, dtype=torch.int64)
        for i, n in enumerate(lens):
            mask[i, 1:1 + n] = 1
        self.batch = {"response_mask": mask, "input_ids": mask}
        self.meta_info = {"loss_mask_keys": ["response_mask"]}

    def __len__(self):
        return self.batch["response_mask"].shape[0]


class Items(list):
    pass


class Local:
    """Stand-in DataProto for make_iterator: a rank's local batch of n samples (positions 0..n-1)."""

    def __init__(self, n):
        self.n = n
        self._batch = type("B", (), {"batch_size": [n]})()
        self._remote_batch = None
        self.meta_info = {}

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


def counters(path):
    """The strategy's all-reduced counters: pass 1 records each rank's local value as all_reduce sees it (before the
    zero -> 1 replacement), pass 2 adds the other ranks' values inside all_reduce, as the SUM collective does."""

    class Dist:
        ReduceOp = type("R", (), {"SUM": "sum"})
        add = None
        seen = None

        @staticmethod
        def all_reduce(t, op=None, group=None):
            if Dist.seen is not None:
                Dist.seen.append(int(t))
            if Dist.add is not None:
                t += Dist.add.pop(0)

    fns = load(path, ["_get_batch_num_tokens", "_get_global_valid_samples"], cls="InferenceStrategy",
               extra={"dist": Dist, "IGNORE_INDEX": -100, "DataProto": object})

    def local(fn, p):
        Dist.seen = []
        fn(None, p)
        seen, Dist.seen = Dist.seen, None
        return seen

    def global_counts(parts):
        """batch_num_tokens / global_valid_samples['response_mask'] of each rank's batch, all-reduced over ranks."""
        lt = [local(fns["_get_batch_num_tokens"], p) for p in parts]
        lv = [local(fns["_get_global_valid_samples"], p) for p in parts]
        out = []
        for r, p in enumerate(parts):
            Dist.add = [sum(x[i] for x in lt) - lt[r][i] for i in range(len(lt[r]))]
            t = fns["_get_batch_num_tokens"](None, p)
            Dist.add = [sum(x[i] for x in lv) - lv[r][i] for i in range(len(lv[r]))]
            v = fns["_get_global_valid_samples"](None, p)
            Dist.add = None
            out.append((t["response_mask"], v["response_mask"]))
        return out

    return global_counts


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, "..", "..", "test", "fixtures", "golden-roll-trainer.json")
    fx = os.path.join(checkout, "roll/utils/functionals.py")
    db = os.path.join(checkout, "roll/utils/dynamic_batching.py")
    agg = load(fx, ["agg_loss", "masked_mean", "masked_sum"])["agg_loss"]
    balance = load(fx, ["get_seqlen_balanced_partitions", "log_seqlen_unbalance", "batch_balance"],
                   extra={"DataProto": Proto})["batch_balance"]
    dyn = load(db, ["dynamic_batching_shard", "make_mini_batch_iter_for_dynamic_batching",
                    "make_micro_batch_iter_for_dynamic_batching"], extra={"DataProto": Proto, "Iterator": __import__("typing").Iterator})
    make_iterator = load(os.path.join(checkout, "roll/distributed/scheduler/protocol.py"), ["make_iterator"], cls="DataProto",
                         extra={"DataLoader": DataLoader, "collate_fn": Items, "Dict": dict})["make_iterator"]
    global_counts = counters(os.path.join(checkout, "roll/distributed/strategy/strategy.py"))

    def micro_loss(tokens, width, mode, t_glob, v_glob, scale, num_micro, ranks):
        """One micro-batch: agg_loss on a leaf logp, then the transcribed scaling; returns each sample's token weights."""
        logp = torch.zeros(len(tokens), width, requires_grad=True)
        mask = torch.zeros(len(tokens), width, dtype=torch.int64)
        for i, n in enumerate(tokens):
            mask[i, :n] = 1
        # per-token loss = logp on response tokens, 0 elsewhere: compute_advantage multiplies the advantages by
        # response_mask, so ROLL's pg loss is 0 off the response (token-mean's agg_loss sums loss_mat unmasked)
        loss = agg(loss_mat=logp * mask, loss_mask=mask, loss_agg_mode=mode, batch_num_tokens=t_glob, global_valid_samples=v_glob)
        loss = loss * scale  # apply_loss_scale: loss *= loss_scale (num_microbatches × dp_size)
        loss = loss / num_micro  # Megatron forward_step / FSDP2 `/ gradient_accumulation_steps`
        loss = loss / ranks  # data-parallel gradient mean
        loss.backward()
        g = logp.grad
        weights = []
        for i, n in enumerate(tokens):
            row = g[i, :n]
            assert n == 0 or float(row.max() - row.min()) <= 1e-15 * abs(float(row.max())) + 1e-300, "uneven weights in a sample"
            assert float(g[i, n:].abs().sum()) == 0.0
            weights.append(float(row[0]) if n else 0.0)
        return weights

    cases = []
    rng = random.Random(20261129)
    configs = []
    for w in [1, 2, 3, 4]:
        for per_rank in [4, 6, 8, 12]:
            for b, ga in [(1, 1), (2, 1), (1, 2), (2, 2), (4, 1), (2, 3)]:
                if per_rank % (b * ga):
                    continue
                configs.append((w, per_rank, b, ga))
    rng.shuffle(configs)
    configs = configs[:40]
    for ci, (w, per_rank, b, ga) in enumerate(configs):
        n = w * per_rank
        for mode in MODES:
            seed = [42, 7, 123][ci % 3]
            epochs = 1 + (ci % 2)
            tokens = [rng.randint(1, 60) for _ in range(n)]
            if ci % 5 == 4:
                tokens[rng.randrange(n)] = 0  # an empty response: not a valid sample
            order = list(range(n))
            rng.shuffle(order)
            sources = [order[r * per_rank:(r + 1) * per_rank] for r in range(w)]
            seq_len = max(tokens) + 1 + rng.randint(0, 20)
            # each rank's backward batches, as ActorWorker.train_step iterates them
            per_rank_batches = []
            for r in range(w):
                it = make_iterator(Local(per_rank), mini_batch_size=b * ga, epochs=epochs, seed=seed,
                                   dataloader_kwargs={"shuffle": True})
                per_rank_batches.append([[sources[r][int(i)] for i in bb] for bb in it])
            steps = []
            for j in range(len(per_rank_batches[0])):
                parts = [per_rank_batches[r][j] for r in range(w)]
                glob = global_counts([Batch([tokens[s] for s in p], seq_len - 1) for p in parts])
                mbs = []
                for r in range(w):
                    t_glob, v_glob = glob[r]
                    for m in range(ga):
                        samples = parts[r][m * b:(m + 1) * b]
                        weights = micro_loss([tokens[s] for s in samples], seq_len - 1, mode, t_glob, v_glob, ga * w, ga, w)
                        mbs.append({"rank": r, "samples": samples, "weights": weights})
                steps.append(mbs)
            cases.append({"ranks": w, "perDeviceTrainBatchSize": b, "gradientAccumulationSteps": ga, "ppoEpochs": epochs,
                          "seed": seed, "loss": mode, "sequenceLength": seq_len, "sources": sources, "tokens": tokens,
                          "steps": steps})

    # dynamic batching (Megatron strategy): batch_balance, dynamic_batching_shard, ga_steps micro-batches per optimizer step
    dyn_cases = []
    for ci in range(16):
        w = [1, 2, 4, 2][ci % 4]
        n = w * rng.choice([4, 6, 8])
        tokens = [rng.randint(1, 200) for _ in range(n)]
        seqlens = [t + rng.randint(5, 60) for t in tokens]
        budget, rnd = rng.choice([(600, 4), (1000, 8), (2000, 16)])
        ga = rng.choice([1, 2, 3])
        epochs = 1 + ci % 2
        mode = MODES[ci % 4]
        batch = Proto(range(n), seqlens)
        balance(batch, dp_size=w, minibatch_size=n, logging_prefix="global_seqlen/actor_train")
        batch, _ = dyn["dynamic_batching_shard"](batch, w, budget, rnd, 1, None, "actor_train/train_step")
        per = len(batch) // w
        shards = [batch.slice(r * per, (r + 1) * per) for r in range(w)]
        for sh in shards:
            sh.meta_info = dict(batch.meta_info)
        iters = []
        for sh in shards:
            minis = []
            for mb in dyn["make_mini_batch_iter_for_dynamic_batching"](sh, epochs=epochs, ga_steps=ga):
                # the iterator writes the chunk's micro-batch cut into the rank batch's meta_info (shared by slice in ROLL)
                mb.meta_info["micro_batch_indices"] = sh.meta_info["micro_batch_indices"]
                mb.meta_info["micro_batch_lengths"] = sh.meta_info["micro_batch_lengths"]
                minis.append(mb)
            iters.append(minis)
        steps = []
        for j in range(len(iters[0])):
            minis = [iters[r][j] for r in range(w)]
            glob = global_counts([Batch([tokens[s] for s in mb.ids], max(seqlens)) for mb in minis])
            mbs = []
            for r in range(w):
                micro = list(zip(minis[r].meta_info["micro_batch_lengths"], minis[r].meta_info["micro_batch_indices"]))
                num_micro = minis[r].meta_info["num_micro_batchs"]
                t_glob, v_glob = glob[r]
                for seqlen, (s0, s1) in micro:
                    samples = minis[r].ids[s0:s1]
                    weights = micro_loss([tokens[s] for s in samples], seqlen - 1, mode, t_glob, v_glob, num_micro * w, num_micro, w)
                    mbs.append({"rank": r, "samples": samples, "weights": weights})
            steps.append(mbs)
        dyn_cases.append({"ranks": w, "gradientAccumulationSteps": ga, "ppoEpochs": epochs, "loss": mode,
                          "maxTokens": budget, "round": rnd, "seqlens": seqlens, "tokens": tokens,
                          "sources": [sh.ids for sh in shards], "steps": steps})

    commit = subprocess.check_output(["git", "-C", checkout, "rev-parse", "HEAD"], text=True).strip()
    out = {
        "source": "alibaba/ROLL agg_loss, _get_batch_num_tokens, _get_global_valid_samples, make_iterator, batch_balance, "
                  "dynamic_batching_shard and the dynamic mini/micro-batch iterators exec'd from the checkout, torch autograd "
                  "in float64; transcribed: the loss_scale (num_microbatches × dp_size), ÷ num_microbatches and the "
                  "data-parallel gradient mean of MegatronTrainStrategy / Megatron-core (FSDP2 the same product), "
                  "because they need process groups",
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
