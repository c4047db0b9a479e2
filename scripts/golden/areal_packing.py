"""Writes test/fixtures/golden-areal-packing.json: AReaL's micro-batches per data-parallel rank, by its own code.

    /work/golden-venv/bin/python scripts/golden/areal_packing.py /work/checkouts/areal [out.json]

Made with inclusionAI/AReaL 4aef98d8d818af55b43621aaadba047ae10f4e77 (recorded in the fixture), torch 2.13 CPU, numpy 2.4.
What runs as AReaL's code (exec'd from the checkout, see scripts/golden/areal_exec.py): areal/utils/data.py
split_padded_tensor_dict_into_mb_list -> allocate_balanced_mbs_synced -> allocate_balanced_mbs -> seqpack
ffd_allocate / kk_allocate, called twice as the actor does: PPOActor._ppo_update splits the rank's batch with
MicroBatchSpec(n_mbs=ppo_n_minibatches) (no token budget: 1e12), then FSDPEngine._prepare_mb_list splits each
minibatch with actor.mb_spec (max_tokens_per_mb, packing_algorithm). Both calls pass no group, so the micro-batch
count is synchronised over every rank (dist.all_gather_object); each rank is a thread and all_gather_object a barrier
exchange between them (the only stand-in). Row ids ride in a [bs, seqlen] tensor that the split carries along.
Transcribed: nothing. Caveat recorded in the fixture: seqpack._ffd_allocate orders by np.argsort(-values), whose
order among equal values is numpy's SIMD sort's (CPU-dependent); cases with repeated lengths are marked `ties`.
"""
import json
import logging
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import areal_exec  # noqa: E402


def rank_batch(lens, rid_offset=0):
    bs, longest = len(lens), max(lens)
    mask = torch.zeros(bs, longest, dtype=torch.bool)
    for i, length in enumerate(lens):
        mask[i, :length] = True
    rid = torch.arange(bs).unsqueeze(1).expand(bs, longest).clone()
    return {"attention_mask": mask, "rid": rid}


def pack(m, per_rank, max_tokens, algo, n_minibatches):
    spec = m.cfg["MicroBatchSpec"]
    split = m.data["split_padded_tensor_dict_into_mb_list"]
    amend = m.data["amend_position_ids"]

    def run(r):
        data = rank_batch(per_rank[r])
        minis = split(data, mb_spec=spec(n_mbs=n_minibatches))
        out = []
        for mini in minis.mbs:
            mbl = split(amend(dict(mini)), spec(max_tokens_per_mb=max_tokens, packing_algorithm=algo))
            out.append([[int(v) for v in mb["rid"][:, 0]] for mb in mbl.mbs])
        return out

    return m.dist.run_ranks(len(per_rank), run)


def main():
    checkout = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../test/fixtures/golden-areal-packing.json")
    m = areal_exec.load_areal(checkout)
    caught = []  # seqpack's logger.warning lines (KK's fall-back to FFD), as AReaL logs them

    class Catch(logging.Handler):
        def emit(self, record):
            caught.append(record.getMessage())

    logging.getLogger("SeqPack").addHandler(Catch())
    logging.getLogger("SeqPack").propagate = False
    cases = []
    for seed in range(48):
        rs = np.random.RandomState(seed)
        ranks = int(rs.randint(1, 5))
        ties = seed % 3 == 2
        algo = "kk" if seed % 2 else "ffd"
        n_minibatches = 2 if seed % 5 == 4 else 1
        max_tokens = int(rs.choice([4096, 6000, 10240, 16384]))
        per_rank = []
        for _ in range(ranks):
            count = int(rs.randint(4, 25))
            if ties:
                per_rank.append([int(v) for v in rs.randint(64, 400, size=count)])
            else:
                per_rank.append([int(v) for v in rs.choice(np.arange(64, 4097), size=count, replace=False)])
        caught.clear()
        try:
            mbs, error = pack(m, per_rank, max_tokens, algo, n_minibatches), None
        except RuntimeError as e:
            mbs, error = None, str(e)
        cases.append({"ranks": ranks, "maxTokensPerMb": max_tokens, "packingAlgorithm": algo, "ppoNMinibatches": n_minibatches,
                      "ties": ties, "lengths": per_rank, "microBatches": mbs, "error": error, "warnings": sorted(caught)})
    err = {}
    for name, lens in [("short", [100, 5000, 300]), ("wrapped", [int(v) for v in np.random.RandomState(5).randint(64, 20000, size=40)])]:
        try:
            pack(m, [lens], 4096, "ffd", 1)
        except RuntimeError as e:
            err[name] = {"lengths": lens, "maxTokensPerMb": 4096, "packingAlgorithm": "ffd", "message": str(e)}
    try:
        pack(m, [[100, 5000, 300]], 4096, "kk", 1)
    except RuntimeError as e:
        err["kk"] = {"lengths": [100, 5000, 300], "maxTokensPerMb": 4096, "packingAlgorithm": "kk", "message": str(e)}
    fixture = {
        "source": "AReaL's split_padded_tensor_dict_into_mb_list (minibatches, then micro-batches) with seqpack allocators, "
                  "exec'd from the checkout on one thread per rank (scripts/golden/areal_packing.py); transcribed: nothing",
        "commit": areal_exec.commit_of(checkout), **areal_exec.versions(),
        "cases": cases, "errors": err,
    }
    with open(out, "w") as f:
        json.dump(fixture, f, separators=(",", ":"))
    print(out, len(cases), "cases", os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
