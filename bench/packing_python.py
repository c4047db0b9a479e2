"""One framework's OWN packer, exec'd from its checkout as scripts/golden/ does it, on one step of synthetic token counts.

    python bench/packing_python.py HOME CHECKOUT SAMPLES ARGS_JSON

bench/packing-python.bench.ts runs it in its own process under a time limit, beside the sandbox's packer on the same
input. The framework code is loaded by the golden scripts' own helpers (imported from scripts/golden/, not copied);
the calls below are the ones those scripts make. Prints one JSON line: {ms (wall), cpuMs (the process's CPU time,
every thread, time.process_time), microBatchesPerRank, inputSum, inputHead} or {error}.
Token counts: torch.randint(16, 513, (SAMPLES,)) on torch.Generator().manual_seed(0), as bench/packing-one.ts draws them.
Building the stand-in batches (masks, rows) is outside the timed region unless a home's function says otherwise.
"""
import importlib.util
import json
import os
import sys
import time
import types

import torch

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "golden")
sys.path.insert(0, GOLDEN)


def golden(name, argv=None):
    """A golden script imported as a module (file names with '-' included); argv for the one that reads it at import."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(GOLDEN, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    saved = sys.argv
    if argv is not None:
        sys.argv = argv
    try:
        spec.loader.exec_module(module)
    finally:
        sys.argv = saved
    return module


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000


# ---- one function per home: (checkout, seqlens, args) -> (a thunk to time, how many micro-batches per rank it gives)


def nemo_rl(checkout, seqlens, a):
    nemo = golden("nemo-rl_layout")
    BDD, _ = nemo.batched_data_dict_module(checkout)
    n, pad = len(seqlens), a["padMultiple"]
    lens = torch.tensor(seqlens)
    width = -(-max(seqlens) // pad) * pad
    data = BDD({"idx": list(range(n)), "input_lengths": lens, "input_ids": torch.zeros(n, width, dtype=torch.int64)})
    dp, gbs = a["dp"], a["gbs"]
    args = {"algorithm": a["algorithm"], "input_key": "input_ids", "input_lengths_key": "input_lengths",
            "sequence_length_pad_multiple": pad, "max_tokens_per_microbatch": a["tokens"], "microbatch_order": a["order"]}

    def run():
        # lm_policy.Policy._shard_for_train, then each worker's train(): its global batches, each packed.
        shards, _ = data.shard_by_batch_size(dp, batch_size=gbs, sequence_packing_args=args)
        counts = [0] * dp
        for gb in range(sum(s.size for s in shards) // gbs):
            per_rank = [len(list(s.get_batch(batch_idx=gb, batch_size=gbs // dp).make_microbatch_iterator_for_packable_sequences()))
                        for s in shards]
            counts = [c + max(per_rank) for c in counts]
        return max(counts)

    return run


def easyr1(checkout, seqlens, a):
    e1 = golden("easyr1_packing")
    e = e1.EasyR1(checkout)
    ranks, width = a["ranks"], a["width"]
    per = len(seqlens) // ranks
    batches = [e1.RankBatch(seqlens[r * per:(r + 1) * per], width) for r in range(ranks)]
    budget = a["micro"] * width
    local = e1.loader(e, e1.Dist(False))

    def run():
        # each rank's own count first (dist not initialised), then every rank again under all_reduce(MAX) of them.
        most = max(len(local(b, max_token_len=budget)[1]) for b in batches)
        synced = e1.loader(e, e1.Dist(True, most))
        return max(len(synced(b, max_token_len=budget)[1]) for b in batches)

    return run


def skyrl(checkout, seqlens, a):
    sp = golden("skyrl_packing")
    L, get_iter = sp.load(checkout)
    # skyrl_packing.run whole: it also builds the attention mask (one row a sample) before stage_chunks.
    return lambda: sp.run(L, get_iter, seqlens, a["dp"], a["micro"], a["maxTokens"])["microBatchesPerRank"]


def slime(checkout, seqlens, a):
    sl = golden("slime_layout")
    sys.path.insert(0, checkout)
    from slime.utils.dp_schedule import build_dp_schedule  # pure Python, imported as slime_layout.py imports it

    train_args = types.SimpleNamespace(
        micro_batch_size=a["microBatchSize"], use_dynamic_batch_size=a["dynamic"], max_tokens_per_gpu=a["maxTokensPerGpu"],
        balance_data=a["balanceData"] or a["balanceByFlops"], balance_by_flops=a["balanceByFlops"], multi_latent_attention=False,
        **sl.MODEL)
    tpc = {"dp_size": a["dp"], "cp_size": a["cp"], "vpp_size": 1, "microbatch_group_size_per_vp_stage": 1}

    def run():
        _, _, num_mbs, _ = build_dp_schedule(train_args, tpc, seqlens, global_batch_size=a["gbs"], rollout_indices=list(range(len(seqlens))))
        return sum(num_mbs)

    return run


def areal(checkout, seqlens, a):
    al, ap = golden("areal_layout"), golden("areal_packing")
    x = al.setup(checkout)
    k = a["k"]
    groups = [seqlens[g * k:(g + 1) * k] for g in range(len(seqlens) // k)]
    items = [al.remotize(x, al.group_dict(lens)) for lens in groups]

    def run():
        # single-controller dispatch of the groups (_dispatch_tensors), then each rank's minibatches and micro-batches
        # (areal_packing.pack: building each rank's mask rows is inside it).
        _, idx = x.tc["_dispatch_tensors"](items, a["ranks"], group_size=1)
        per_rank = [[v for g in gs for v in groups[g]] for gs in idx]
        out = ap.pack(x.m, per_rank, a["maxTokens"], a["algorithm"], a["nMinibatches"])
        return max(sum(len(mini) for mini in rank) for rank in out)

    return run


def roll(checkout, seqlens, a):
    rl = golden("roll_layout")
    fns = rl.load(f"{checkout}/roll/utils/functionals.py", ["get_seqlen_balanced_partitions", "log_seqlen_unbalance", "batch_balance"],
                  extra={"DataProto": rl.Proto})
    shard = rl.load(f"{checkout}/roll/utils/dynamic_batching.py", ["dynamic_batching_shard"], extra={"DataProto": rl.Proto})["dynamic_batching_shard"]
    n, w = len(seqlens), a["ranks"]
    batch = rl.Proto(range(n), seqlens)

    def run():
        # batch_balance, then dynamic_batching_shard; roll_layout.Proto rebuilds its mask rows on each reorder (timed).
        fns["batch_balance"](batch, dp_size=w, minibatch_size=n, logging_prefix="global_seqlen/actor_train")
        out, _ = shard(batch, w, a["maxTokens"], a["round"], 1, None, "actor_train/train_step")
        return len(out.meta_info["global_micro_batch_indices"])

    return run


def openrlhf(checkout, seqlens, a):
    ol = golden("openrlhf_layout")
    ol.CHECKOUT = checkout
    o = ol.build()
    n = a["n"]
    c = {"prompts": len(seqlens) // n, "n": n, "gpusPerNode": a["ranks"], "dynamic": True, "trainBatchSize": a["trainBatchSize"],
         "trainMaxTokensPerGpu": a["maxTokensPerGpu"], "rolloutMicroBatchSize": 1, "rolloutBatchSize": len(seqlens) // n}
    # run_dispatch turns each sample into an Experience (_process_response_into_experience) before it dispatches and packs:
    # those are made here first, by the same calls, and run_dispatch is handed them (outside the timing).
    process = types.MethodType(o["sg"]["_process_response_into_experience"], types.SimpleNamespace())
    made = [process(ol.sample_response(i, 0, s)) for i, s in enumerate(seqlens)]  # as run_dispatch calls it
    ol.sample_response = lambda pid, copy, seqlen, reward=0.0: pid
    o["sg"]["_process_response_into_experience"] = lambda self, i: made[i]

    def run():
        # split_rollout_samples, balance_experiences, async_run_method_batch into each rank's replay buffer, and
        # setup_dynamic_batch on one thread per rank (all_reduce across them).
        out = ol.run_dispatch(o, c, seqlens)
        if "packError" in out or "error" in out:
            raise RuntimeError(out.get("packError") or out.get("error"))
        return max(len(r["microBatches"]) for r in out["packed"])

    return run


def open_instruct(checkout, seqlens, a):
    oi = golden("open-instruct_layout")
    oi.CHECKOUT = checkout
    o = oi.build()
    c = {"packLength": a["packLength"], "ranks": a["ranks"], "perDevice": a["perDevice"], "seed": a["seed"]}
    # run_pack whole: it also writes each sample's query and response token lists.
    return lambda: max(len(r) for r in oi.run_pack(o, c, seqlens)["ranks"])


def prime_rl(checkout, seqlens, a):
    pr = golden("prime_rl_layout", argv=["prime_rl_layout.py", checkout])
    samples = [pr.make_sample(i, n) for i, n in enumerate(seqlens)]

    def run():
        per_rank = pr.batch.prepare_batch(samples, a["seqLen"], a["ranks"], pr.BIN_COST, a["pad"])
        return max(len(r) for r in per_rank)

    return run


def verl(checkout, seqlens, a):
    vl = golden("verl_layout")
    sb = os.path.join(checkout, "verl/utils/seqlen_balancing.py")
    fns = vl.load_functions(sb, ["calculate_workload", "karmarkar_karp", "get_seqlen_balanced_partitions", "log_seqlen_unbalance"])
    fns.update(vl.load_functions(os.path.join(checkout, "verl/trainer/ppo/ray_trainer.py"), ["_balance_batch"], {**fns, "DataProto": vl.Batch},
                                 cls="RayPPOTrainer"))
    trainer = vl.Trainer(a["ranks"], None)
    batch = vl.Batch(seqlens)

    def run():
        fns["_balance_batch"](trainer, batch, {})
        return len(seqlens) // a["ranks"]  # samples per rank: _balance_batch reorders, it makes no micro-batches

    return run


HOMES = {"nemo-rl": nemo_rl, "easyr1": easyr1, "skyrl": skyrl, "slime": slime, "areal": areal, "roll": roll, "openrlhf": openrlhf,
         "open-instruct": open_instruct, "prime-rl": prime_rl, "verl": verl}


def main():
    home, checkout, samples, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
    seqlens = torch.randint(16, 513, (samples,), generator=torch.Generator().manual_seed(0)).tolist()
    report = {"inputSum": sum(seqlens), "inputHead": seqlens[:4]}
    try:
        run = HOMES[home](checkout, seqlens, args)
        mbs, ms, cpu_ms = timed(run)
        report.update(ms=ms, cpuMs=cpu_ms, microBatchesPerRank=mbs)
    except Exception as e:  # noqa: BLE001 - reported, the bench goes on
        report["error"] = f"{type(e).__name__}: {str(e)[:300]}"
    print(json.dumps(report))


if __name__ == "__main__":
    main()
