"""Writes test/fixtures/golden-nemo-rl-layout.json by running NeMo RL's own data-path code from a checkout.

    /work/golden-venv/bin/python scripts/golden/nemo-rl_layout.py /path/to/nemo-rl-checkout [out.json]

Made with NVIDIA-NeMo/RL 7ea279abfbeb698b092856d0dab61e7cf39bc909 (the checkout's commit is recorded in the
fixture), torch 2.13 CPU and torchdata 0.11 (NeMo's uv.lock pins torchdata 0.11.0). CI never runs this: the
JSON is committed and the TypeScript tests read it.

What runs as NeMo RL's code (source read from the checkout and exec'd; the nemo_rl package itself is not
imported, since it pulls ray, vllm and transformers):
- nemo_rl/algorithms/utils.py set_seed (python random, numpy, torch.manual_seed);
- nemo_rl/algorithms/grpo.py setup: the `StatefulDataLoader(...)` statement of its nested
  init_train_dataloader, exec'd as written with dataset, dataloader_batch_size, data_config and
  rl_collate_fn bound (torchdata's StatefulDataLoader and its RandomSampler);
- nemo_rl/distributed/batched_data_dict.py: the whole module (BatchedDataDict, SlicedDataDict:
  repeat_interleave, shard_by_batch_size, get_batch, make_microbatch_iterator*, select_indices,
  from_batches), exec'd with its nemo_rl imports replaced (PackedTensor and the multimodal key sets are
  never reached with plain data; collectives are unused here);
- nemo_rl/data/packing/algorithms.py (get_packer and every packer), loaded as a file (stdlib only).
Transcribed (named, each a few lines, because the surrounding code needs Ray workers or a GPU):
- grpo_train's loop: `while current_epoch < max_num_epochs and total_steps < max_num_steps: for batch in
  dataloader: ... total_steps += 1; if total_steps >= max_num_steps: return`;
- rl_collate_fn is replaced by one returning the dataset indices (collation does not change the order);
- lm_policy.Policy._shard_for_train: which shard_by_batch_size arguments are passed
  (dynamic_batching_args / sequence_packing_args with train_mb_tokens, input_lengths, sequence_length_round,
  algorithm, sequence_length_pad_multiple = make_sequence_length_divisible_by, microbatch_order);
- the DTensor worker's train: local_gbs = gbs // dp, num_global_batches = total // gbs, get_batch(gb, local_gbs),
  then make_microbatch_iterator_with_dynamic_shapes / make_microbatch_iterator_for_packable_sequences (padded
  with dummy micro-batches up to the data-parallel maximum) / make_microbatch_iterator(mbs);
- input_ids width = longest sample rounded up to make_sequence_length_divisible_by
  (batched_message_log_to_flat_message).
The synthetic token counts are the sandbox's convention (as for verl): torch.randint(64, 1025, (prompts * k,),
generator=torch.Generator().manual_seed(seed)), one generator per run, one draw per step in generation order.
"""
import ast
import importlib.util
import json
import os
import random
import subprocess
import sys
import typing

import numpy as np
import torch
import torchdata
from torchdata.stateful_dataloader import StatefulDataLoader

SEQLEN_LOW, SEQLEN_HIGH = 64, 1025


def function_from(path, name):
    tree = ast.parse(open(path).read())
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    g = {"random": random, "np": np, "torch": torch}
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), g)
    return g[name]


def loader_statement(path):
    """The `dataloader = StatefulDataLoader(...)` statement of setup's nested init_train_dataloader, compiled."""
    tree = ast.parse(open(path).read())
    setup = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "setup")
    inner = next(n for n in ast.walk(setup) if isinstance(n, ast.FunctionDef) and n.name == "init_train_dataloader")
    stmt = inner.body[0]
    assert isinstance(stmt, ast.Assign) and stmt.value.func.id == "StatefulDataLoader", ast.dump(stmt)[:200]
    return compile(ast.Module(body=[stmt], type_ignores=[]), path, "exec"), ast.get_source_segment(open(path).read(), stmt)


def batched_data_dict_module(checkout):
    spec = importlib.util.spec_from_file_location("nemo_packing_algorithms", os.path.join(checkout, "nemo_rl/data/packing/algorithms.py"))
    algorithms = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(algorithms)
    path = os.path.join(checkout, "nemo_rl/distributed/batched_data_dict.py")
    tree = ast.parse(open(path).read())
    body = [n for n in tree.body if not (isinstance(n, ast.ImportFrom) and (n.module or "").startswith("nemo_rl"))]

    class PackedTensor:  # never instantiated: the data here are tensors and lists
        pass

    g = {
        "__name__": "nemo_batched_data_dict",
        "PackedTensor": PackedTensor,
        "NATIVE_MULTIMODAL_KEYS": frozenset(),
        "MULTIMODAL_CONTENT_TYPES": (),
        "get_packer": algorithms.get_packer,
        "gather_jagged_object_lists": None,
        "rebalance_nd_tensor": None,
    }
    exec(compile(ast.Module(body=body, type_ignores=[]), path, "exec"), g)
    return g["BatchedDataDict"], algorithms


class Prompts(torch.utils.data.Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i


def collate(batch):
    return [int(i) for i in batch]


def run_case(c, ctx):
    set_seed, loader_code, BatchedDataDict = ctx["set_seed"], ctx["loader_code"], ctx["BDD"]
    k, dp, gbs, mbs = c["k"], c["dp"], c["gbs"], c["mbs"]
    try:
        set_seed(c["seed"])
    except ValueError as e:  # numpy's legacy seeding refuses seeds outside [0, 2**32)
        return {"config": c, "len(dataloader)": None, "steps": [], "error": f"{type(e).__name__}: {e}"}
    ns = {
        "StatefulDataLoader": StatefulDataLoader,
        "dataset": Prompts(c["datasetSize"]),
        "dataloader_batch_size": c["prompts"],
        "data_config": {"shuffle": c["shuffle"], "num_workers": c["numWorkers"]},
        "rl_collate_fn": collate,
    }
    exec(loader_code, ns)
    dataloader = ns["dataloader"]
    lengths = torch.Generator().manual_seed(c["seed"])
    steps = []
    out = {"config": c, "len(dataloader)": len(dataloader), "steps": steps, "error": None}
    total_steps, epoch = 0, 0
    try:
        while epoch < c["epochs"] and total_steps < c["maxNumSteps"]:
            step = 0
            for batch in dataloader:
                prompts = list(batch)
                samples = len(prompts) * k
                seqlens = torch.randint(SEQLEN_LOW, SEQLEN_HIGH, (samples,), generator=lengths)
                width = -(-int(seqlens.max()) // c["padMultiple"]) * c["padMultiple"]
                # grpo_train: batch.repeat_interleave(num_generations_per_prompt); idx = generation-order index
                data = BatchedDataDict({"prompt": prompts}).repeat_interleave(k)
                data = BatchedDataDict(
                    {
                        "prompt": data["prompt"],
                        "idx": list(range(samples)),
                        "input_lengths": seqlens.clone(),
                        "input_ids": torch.zeros(samples, width, dtype=torch.int64),
                    }
                )
                rec = {"epoch": epoch, "step": step, "prompts": prompts, "seqlens": seqlens.tolist()}
                steps.append(rec)
                # lm_policy.Policy._shard_for_train
                if c["mode"] == "dynamic":
                    args = {
                        "input_key": "input_ids",
                        "input_lengths_key": "input_lengths",
                        "sequence_length_round": c["seqRound"],
                        "max_tokens_per_microbatch": c["trainMbTokens"],
                    }
                    shards, _ = data.shard_by_batch_size(dp, batch_size=gbs, dynamic_batching_args=args)
                elif c["mode"] == "packing":
                    args = {
                        "algorithm": c["algorithm"],
                        "input_key": "input_ids",
                        "input_lengths_key": "input_lengths",
                        "sequence_length_pad_multiple": c["padMultiple"],
                        "max_tokens_per_microbatch": c["trainMbTokens"],
                    }
                    if c["microbatchOrder"] is not None:
                        args["microbatch_order"] = c["microbatchOrder"]
                    shards, _ = data.shard_by_batch_size(dp, batch_size=gbs, sequence_packing_args=args)
                else:
                    shards = data.shard_by_batch_size(dp, batch_size=gbs)
                rec["ranks"] = [list(s["prompt"]) for s in shards]
                rec["sources"] = [list(s["idx"]) for s in shards]
                # the worker's train(): global batches, then micro-batches
                local_gbs = gbs // dp
                num_global_batches = sum(s.size for s in shards) // gbs
                micro = [[] for _ in range(dp)]
                for gb in range(num_global_batches):
                    per_rank = []
                    for r, s in enumerate(shards):
                        b = s.get_batch(batch_idx=gb, batch_size=local_gbs)
                        if c["mode"] == "dynamic":
                            mbs_list = [list(mb["idx"]) for mb in b.make_microbatch_iterator_with_dynamic_shapes()]
                        elif c["mode"] == "packing":
                            mbs_list = [list(mb["idx"]) for mb in b.make_microbatch_iterator_for_packable_sequences()]
                        else:
                            mbs_list = [list(mb["idx"]) for mb in b.make_microbatch_iterator(mbs)]
                        per_rank.append(mbs_list)
                    most = max(len(x) for x in per_rank)
                    for r, x in enumerate(per_rank):
                        if c["mode"] == "packing" and len(x) < most:  # dummy micro-batches (cycled), loss skipped
                            x = x + [x[i % len(x)] for i in range(most - len(x))]
                        micro[r].extend(x)
                rec["microBatches"] = micro
                step += 1
                total_steps += 1
                if total_steps >= c["maxNumSteps"]:
                    return out
            epoch += 1
    except (AssertionError, ValueError) as e:
        steps.pop()
        out["error"] = f"{type(e).__name__}: {e}"
    return out


def cases():
    rng = random.Random(20260822)
    out = []

    def add(**kw):
        c = dict(
            datasetSize=64, prompts=8, k=4, seed=42, shuffle=True, numWorkers=1, epochs=2, maxNumSteps=1000000,
            dp=2, gbs=None, mbs=4, mode="plain", trainMbTokens=2048, seqRound=64, padMultiple=1,
            algorithm="modified_first_fit_decreasing", microbatchOrder="packer",
        )
        c.update(kw)
        if c["gbs"] is None:
            c["gbs"] = c["prompts"] * c["k"]
        out.append(c)

    # prompt order: workers, shuffle, seeds, drop_last, step cap
    add(seed=2**33 + 5, epochs=1)  # set_seed: numpy refuses it
    add(seed=-1, epochs=1)
    for nw in (0, 1, 2):
        for seed in (42, 0, 7, 2**32 - 1):
            add(numWorkers=nw, seed=seed, datasetSize=37, prompts=6, k=2, epochs=3, dp=2, mbs=2)
    add(shuffle=False, numWorkers=1, datasetSize=20, prompts=4, k=3, dp=3, mbs=1, epochs=2)
    add(shuffle=False, numWorkers=0, datasetSize=20, prompts=4, k=3, dp=3, mbs=1, epochs=2)
    add(datasetSize=50, prompts=8, k=2, epochs=3, maxNumSteps=7, dp=4, mbs=1)
    add(datasetSize=5, prompts=8, k=2)  # len(dataloader) == 0
    # plain dispatch: GBS chunks, contiguous shards, micro-batches
    for dp, prompts, k, gbs, mbs in [(1, 8, 4, None, 4), (2, 8, 4, 16, 4), (4, 8, 4, 8, 2), (8, 8, 4, 32, 4),
                                     (3, 6, 4, 12, 2), (2, 6, 3, 6, 3), (4, 4, 16, 64, 4), (2, 8, 4, 8, 4)]:
        add(dp=dp, prompts=prompts, k=k, gbs=gbs, mbs=mbs, epochs=1, datasetSize=40, numWorkers=rng.choice([0, 1]))
    # errors (verbatim)
    add(dp=3, prompts=8, k=4, epochs=1)  # Batch size (32) is not a multiple of shards (3)
    add(dp=2, prompts=8, k=4, gbs=24, epochs=1)  # Total batch size (32) is not a multiple of batch_size (24)
    add(dp=2, prompts=8, k=3, gbs=24, mbs=8, epochs=1)  # Data dict size (12) is not a multiple of ... (8)
    add(dp=4, prompts=4, k=2, gbs=8, mbs=4, epochs=1)  # Data dict size (2) ...
    # dynamic batching
    for dp, prompts, k, gbs, tokens, rnd in [(2, 8, 4, None, 2048, 64), (4, 8, 4, 16, 4096, 64), (3, 6, 2, 12, 1100, 32),
                                              (1, 4, 4, None, 3000, 1), (8, 8, 2, None, 1024, 64), (2, 4, 8, 8, 2560, 128)]:
        add(mode="dynamic", dp=dp, prompts=prompts, k=k, gbs=gbs, trainMbTokens=tokens, seqRound=rnd, epochs=1,
            datasetSize=24, seed=rng.randrange(1000))
    add(mode="dynamic", dp=2, prompts=4, k=2, trainMbTokens=600, seqRound=64, epochs=1, datasetSize=24, seed=3)  # padded len > budget
    # sequence packing
    algs = ["modified_first_fit_decreasing", "first_fit_decreasing", "concatenative"]
    for i, (dp, prompts, k, gbs, tokens, pad) in enumerate([
        (2, 8, 4, None, 2048, 1), (4, 8, 4, 16, 2048, 1), (1, 8, 2, None, 4096, 8), (3, 6, 4, 12, 1500, 2),
        (8, 8, 4, None, 2048, 1), (2, 8, 4, 8, 1100, 64), (4, 4, 8, 32, 8192, 1), (2, 16, 2, None, 2048, 4),
        (16, 8, 2, None, 4096, 1), (2, 4, 4, None, 1024, 1),
    ]):
        for alg in algs:
            add(mode="packing", dp=dp, prompts=prompts, k=k, gbs=gbs, trainMbTokens=tokens, padMultiple=pad, algorithm=alg,
                microbatchOrder=["packer", None, "largest_first"][(i + algs.index(alg)) % 3], epochs=1, datasetSize=24,
                seed=rng.randrange(10000), numWorkers=rng.choice([0, 1]))
    add(mode="packing", dp=2, prompts=4, k=2, trainMbTokens=500, epochs=1, datasetSize=16, seed=5)  # exceeds capacity
    add(mode="packing", dp=16, prompts=2, k=4, trainMbTokens=8192, epochs=1, datasetSize=16, seed=5)  # Batch size (8) is not a multiple of shards (16)
    add(mode="packing", dp=2, prompts=4, k=2, trainMbTokens=2048, epochs=1, algorithm="best_fit", datasetSize=16)
    add(mode="packing", dp=2, prompts=4, k=2, trainMbTokens=2048, epochs=1, microbatchOrder="smallest_first", datasetSize=16)
    # the shipped 1B config's data path, smaller dataset
    add(mode="packing", datasetSize=100, prompts=32, k=16, gbs=512, mbs=4, dp=1, trainMbTokens=2048, epochs=2, seed=42)
    add(mode="packing", datasetSize=100, prompts=32, k=16, gbs=512, mbs=4, dp=4, trainMbTokens=2048, epochs=1, seed=42)
    return out


def main():
    checkout = sys.argv[1]
    out_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-nemo-rl-layout.json")
    commit = subprocess.run(["git", "-C", checkout, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    loader_code, loader_src = loader_statement(os.path.join(checkout, "nemo_rl/algorithms/grpo.py"))
    BDD, _ = batched_data_dict_module(checkout)
    ctx = {"set_seed": function_from(os.path.join(checkout, "nemo_rl/algorithms/utils.py"), "set_seed"), "loader_code": loader_code, "BDD": BDD}
    # the sampler's generator: seeded from the global generator's first int64 after set_seed
    torch.manual_seed(42)
    first_int64 = int(torch.empty((), dtype=torch.int64).random_().item())
    layouts = [run_case(c, ctx) for c in cases()]
    doc = {
        "source": {
            "nemo-rl": commit,
            "run": "set_seed (algorithms/utils.py), setup's StatefulDataLoader statement (algorithms/grpo.py), "
            "batched_data_dict.py (whole module), data/packing/algorithms.py",
            "transcribed": "grpo_train's epoch/step loop and max_num_steps stop; Policy._shard_for_train's arguments; the DTensor "
            "worker's global-batch and micro-batch iteration (needs Ray and a GPU); rl_collate_fn (returns indices); "
            "input_ids width = longest sample rounded up to make_sequence_length_divisible_by",
        },
        "loaderStatement": loader_src,
        "versions": {"torch": torch.__version__, "torchdata": torchdata.__version__, "python": sys.version.split()[0]},
        "syntheticSeqlens": {"low": SEQLEN_LOW, "high": SEQLEN_HIGH},
        "firstInt64AfterSeed42": str(first_int64),
        "layouts": layouts,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(layouts)} layouts, {sum(len(l['steps']) for l in layouts)} steps, "
          f"{sum(1 for l in layouts if l['error'])} errors -> {out_path} ({os.path.getsize(out_path)} bytes)")


if __name__ == "__main__":
    main()
