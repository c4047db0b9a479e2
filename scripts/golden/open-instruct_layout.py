"""Writes test/fixtures/golden-open-instruct.json by running open-instruct's own data-path code from a checkout.

    /work/golden-venv/bin/python scripts/golden/open-instruct_layout.py /path/to/open-instruct-checkout [out.json]

Made with allenai/open-instruct e6c3044aa6201c8bfa4573c1b03142af599e730d (the checkout's commit is
recorded in the fixture), torch 2.13 CPU, numpy. CI never runs this: the JSON is committed.

The open_instruct package is not imported (it pulls ray, vllm, olmo_core, transformers); each piece
below is read from the checkout by its syntax tree and exec'd:
- HFDataLoader (open_instruct/data_loader.py), whole class, with single_example_collator, built as
  DataPreparationActor.__init__ builds it (batch_size=1, dp_rank=0, dp_world_size=1,
  automatic_reshuffle=True), over a stand-in dataset holding only the 'index' column. Its base class,
  olmo_core's DataLoaderBase, is a stand-in here (TRANSCRIBED, because olmo_core is not installed):
  __init__ keeps dp_rank/dp_world_size and sets batches_processed = 0; __iter__ yields
  _iter_batches() and counts batches_processed.
- pack_sequences and reset_position_ids (open_instruct/rl_utils.py) with PackedSequences.
- prepare_collated_data_for_workers and collate_fn (data_loader.py), with a stand-in CollatedBatchData
  and a logger that records warnings; NumPy's global RNG seeded with np.random.seed(seed) first (the
  DataPreparationActor never seeds it: the real permutation is not reproducible).
- the advantage statements of DataPreparationActor._data_preparation_loop (from
  `scores = np.array(batch.scores)` to the advantage_normalization_type branch), cut out of the method
  by its syntax tree and exec'd with `self.config` and `batch.scores`; process_group's zero-std test
  (`np.std(result.reward_scores) == 0`) likewise.
Transcribed (one line each): the step's prompts are the loader's pulls t·P … t·P + P − 1 (the
DataPreparationActor pulls async_steps × P prompts, then one per consumed result; the sandbox assumes
results return in the order sent); a sample's token counts are split as query = min(8, L − 1),
response = L − query (pack_sequences only reads their sum).
"""
import ast
import dataclasses
import json
import os
import subprocess
import sys
import types
import typing

import numpy as np
import torch

CHECKOUT = None


def src(rel):
    return open(os.path.join(CHECKOUT, rel)).read()


def pick(rel, names, g, cls=None):
    tree = ast.parse(src(rel))
    body = tree.body
    if cls is not None:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    found = [n for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names]
    missing = set(names) - {n.name for n in found}
    if missing:
        raise SystemExit(f"{rel}: no {sorted(missing)}")
    exec(compile(ast.Module(body=found, type_ignores=[]), rel, "exec"), g)
    return {n: g[n] for n in names}


class Log:
    def __init__(self):
        self.warnings = []

    def warning(self, msg, *a):
        self.warnings.append(msg % a if a else msg)

    def info(self, *a, **k):
        pass

    debug = info


class DataLoaderBase:
    """olmo_core.data.data_loader.DataLoaderBase stand-in (transcribed: iteration counts batches_processed)."""

    def __init__(self, *, work_dir, global_batch_size, dp_world_size=1, dp_rank=0, fs_local_rank=0):
        self.work_dir = work_dir
        self.global_batch_size = global_batch_size
        self.dp_world_size = dp_world_size
        self.dp_rank = dp_rank
        self.fs_local_rank = fs_local_rank
        self.batches_processed = 0

    def __iter__(self):
        for batch in self._iter_batches():
            self.batches_processed += 1
            yield batch


class IndexDataset:
    """A HuggingFace Dataset stand-in with the 'index' column only."""

    column_names = ["index"]

    def __init__(self, ids):
        self.ids = list(ids)

    def __len__(self):
        return len(self.ids)

    def select(self, idx):
        return IndexDataset([self.ids[i] for i in idx])

    def __getitem__(self, i):
        return {"index": self.ids[i]}


@dataclasses.dataclass
class CollatedBatchData:
    query_responses: list
    attention_masks: list
    position_ids: list
    advantages: list
    response_masks: list
    vllm_logprobs: list


def build():
    o = {}
    log = Log()
    base = {"torch": torch, "np": np, "Any": typing.Any, "Callable": typing.Callable, "Iterable": typing.Iterable,
            "Iterator": typing.Iterator, "Generic": typing.Generic, "T": typing.TypeVar("T"), "dataclass": dataclasses.dataclass,
            "field": dataclasses.field, "__name__": "open_instruct_exec"}
    rl = dict(base)
    pick("open_instruct/rl_utils.py", ["reset_position_ids", "PackedSequences", "pack_sequences"], rl)
    dl = dict(base, logger=log, data_loader=types.SimpleNamespace(DataLoaderBase=DataLoaderBase), Dataset=IndexDataset,
              to_device=lambda batch, device: batch, data_types=types.SimpleNamespace(CollatedBatchData=CollatedBatchData),
              PackedSequences=rl["PackedSequences"], torch_device=torch.device)
    pick("open_instruct/data_loader.py", ["single_example_collator", "collate_fn", "prepare_collated_data_for_workers"], dl)
    pick("open_instruct/data_loader.py", ["HFDataLoader"], dl)
    o.update(dl=dl, rl=rl, log=log)
    # the advantage statements of _data_preparation_loop
    tree = ast.parse(src("open_instruct/data_loader.py"))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "DataPreparationActor")
    loop = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "_data_preparation_loop")
    whiles = [n for n in ast.walk(loop) if isinstance(n, ast.While)]
    body = next(w for w in whiles if any(isinstance(s, ast.Assign) and ast.unparse(s).startswith("scores = np.array(batch.scores)") for s in w.body)).body
    start = next(i for i, s in enumerate(body) if ast.unparse(s).startswith("scores = np.array(batch.scores)"))
    end = next(i for i, s in enumerate(body) if isinstance(s, ast.If) and "advantage_normalization_type" in ast.unparse(s.test))
    o["advantage_code"] = compile(ast.Module(body=body[start:end + 1], type_ignores=[]), "data_loader.py:_data_preparation_loop", "exec")
    o["advantage_source"] = "\n".join(ast.unparse(s) for s in body[start:end + 1])
    pg = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "process_group")
    zero = next(s for s in ast.walk(pg) if isinstance(s, ast.If) and "np.std(result.reward_scores) == 0" in ast.unparse(s.test))
    o["zero_std_test"] = compile(ast.Expression(body=zero.test), "data_loader.py:process_group", "eval")
    return o


def run_order(o, c):
    D, P, seed, pulls = c["datasetSize"], c["prompts"], c["seed"], c["steps"] * c["prompts"]
    loader = o["dl"]["HFDataLoader"](dataset=IndexDataset(range(D)), batch_size=1, seed=seed, dp_rank=0, dp_world_size=1,
                                      work_dir="/tmp", automatic_reshuffle=True, collator=o["dl"]["single_example_collator"])
    seq = []
    for _ in range(pulls):
        ex = next(loader)
        seq.append([int(ex["index"]), loader._epoch])
    return {"steps": [[p for p, _ in seq[t * P:(t + 1) * P]] for t in range(c["steps"])],
            "epochs": [[e for _, e in seq[t * P:(t + 1) * P]] for t in range(c["steps"])]}


def run_pack(o, c, seqlens):
    """pack_sequences then prepare_collated_data_for_workers; packs as sample indices; ranks as micro-batches of pack ids."""
    queries, responses = [], []
    for L in seqlens:
        q = min(8, L - 1)
        queries.append([1] * q)
        responses.append([2] * (L - q))
    packed = o["rl"]["pack_sequences"](queries=queries, responses=responses, masks=[[1] * len(r) for r in responses],
                                       pack_length=c["packLength"], pad_token_id=0, vllm_logprobs=[[0.0] * len(r) for r in responses],
                                       mask_tool_use=True, min_num_batches=c["ranks"])
    packs = [sorted({int(v) - 1 for v in d.tolist() if v > 0}) for d in packed.dones]
    packed.advantages = [torch.full((len(q),), float(j)) for j, q in enumerate(packed.query_responses)]
    o["log"].warnings.clear()
    np.random.seed(c["seed"])
    collated = o["dl"]["prepare_collated_data_for_workers"](packed, c["ranks"], c["perDevice"], 0, pin_memory=False)
    ranks = [[[int(row[0].item()) for row in mb] for mb in rank.advantages] for rank in collated]
    return {"packs": packs, "ranks": ranks, "warnings": list(o["log"].warnings)}


def run_advantages(o, c):
    config = types.SimpleNamespace(num_samples_per_prompt_rollout=c["n"], advantage_normalization_type=c["type"])
    ns = {"np": np, "self": types.SimpleNamespace(config=config), "batch": types.SimpleNamespace(scores=c["rewards"])}
    try:
        exec(o["advantage_code"], ns)
    except Exception as e:  # noqa: BLE001
        return {"error": f"{type(e).__name__}: {e}"}
    rows = [c["rewards"][i:i + c["n"]] for i in range(0, len(c["rewards"]), c["n"])]
    zero = [bool(eval(o["zero_std_test"], {"np": np, "filter_zero_std_samples": True, "result": types.SimpleNamespace(reward_scores=r)})) for r in rows]
    return {"advantages": [float(a) for a in ns["advantages"]], "zeroStdGroups": zero}


def main():
    global CHECKOUT
    CHECKOUT = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "golden-open-instruct.json")
    commit = subprocess.run(["git", "-C", CHECKOUT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    o = build()
    orders = []
    for c in [
        {"datasetSize": 10, "prompts": 4, "seed": 42, "steps": 7},
        {"datasetSize": 12, "prompts": 3, "seed": 1, "steps": 9},
        {"datasetSize": 7, "prompts": 5, "seed": 0, "steps": 6},
        {"datasetSize": 100, "prompts": 16, "seed": 42, "steps": 14},
        {"datasetSize": 3, "prompts": 8, "seed": 123, "steps": 3},
    ]:
        orders.append({"config": c, **run_order(o, c)})
    packs = []
    g = torch.Generator().manual_seed(5)
    for c in [
        {"ranks": 2, "perDevice": 1, "packLength": 2048, "seed": 42, "samples": 16},
        {"ranks": 4, "perDevice": 2, "packLength": 1024, "seed": 1, "samples": 24},
        {"ranks": 3, "perDevice": 1, "packLength": 4096, "seed": 7, "samples": 20},
        {"ranks": 8, "perDevice": 1, "packLength": 8192, "seed": 42, "samples": 64},
        {"ranks": 2, "perDevice": 3, "packLength": 600, "seed": 3, "samples": 12},
        {"ranks": 1, "perDevice": 2, "packLength": 1500, "seed": 11, "samples": 10},
        {"ranks": 4, "perDevice": 1, "packLength": 512, "seed": 2, "samples": 8, "seqlens": [100, 500, 30, 512, 200, 200, 600, 50]},
        # budget boundaries: total // DP rounds down, a sample that exactly fills a pack stays in it
        {"ranks": 2, "perDevice": 1, "packLength": 100, "seed": 4, "samples": 3, "seqlens": [2, 2, 3]},
        {"ranks": 2, "perDevice": 1, "packLength": 100, "seed": 4, "samples": 3, "seqlens": [2, 2, 4]},
        {"ranks": 3, "perDevice": 2, "packLength": 40, "seed": 9, "samples": 30,
         "seqlens": [2, 5, 9, 3, 17, 4, 8, 2, 11, 6, 3, 3, 14, 2, 7, 9, 20, 5, 2, 4, 6, 13, 3, 8, 2, 2, 10, 5, 7, 3]},
    ]:
        seqlens = c.get("seqlens") or torch.randint(64, 1025, (c["samples"],), generator=g).tolist()
        packs.append({"config": c, "seqlens": seqlens, **run_pack(o, c, seqlens)})
    advantages = []
    for c in [
        {"type": "centered", "n": 4, "rewards": [1.0, 0.0, 0.0, 1.0, 10.0, 10.0, 0.0, 10.0, 0.5, 0.25, 1.0, 0.0]},
        {"type": "standard", "n": 4, "rewards": [1.0, 0.0, 0.0, 1.0, 10.0, 10.0, 0.0, 10.0, 0.5, 0.25, 1.0, 0.0]},
        {"type": "standard", "n": 2, "rewards": [3.0, 3.0, 1.0, 0.0, -2.0, 5.0]},
        {"type": "centered", "n": 3, "rewards": [0.3, 0.1, 0.7, 2.0, 2.0, 2.0]},
        {"type": "standard", "n": 8, "rewards": [10.0, 0, 0, 0, 0, 0, 0, 10.0, 0, 0, 0, 0, 0, 0, 0, 0]},
        {"type": "standard", "n": 4, "rewards": [1.0, 0.0, 1.0, 0.0, 1.0]},
        {"type": "whitened", "n": 2, "rewards": [1.0, 0.0]},
    ]:
        advantages.append({"config": c, **run_advantages(o, c)})
    doc = {
        "source": {"open-instruct": commit, "torch": torch.__version__, "numpy": np.__version__,
                   "files": ["open_instruct/data_loader.py", "open_instruct/rl_utils.py"],
                   "how": "exec'd from the checkout (syntax-tree extraction); transcribed: olmo_core's DataLoaderBase iteration, "
                          "the step = P consecutive loader pulls (results assumed to return in the order sent), the query/response split of a token count",
                   "advantageSource": o["advantage_source"]},
        "promptOrder": orders,
        "packing": packs,
        "advantages": advantages,
    }
    with open(out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {out}: {len(orders)} orders, {len(packs)} packings, {len(advantages)} advantage cases (open-instruct {commit})")


if __name__ == "__main__":
    main()
