"""TRL async GRPO's planners, run from a huggingface/trl checkout's own source.

trl/experimental/async_grpo/async_grpo_trainer.py partitions the samples the trainer pulls into micro-batches of
num_processes rows (one per DP rank): _balance_by_squared_length (FixedCountBatcher, token_budget <= 0) places them
longest first into the row with the smallest running sum of squared lengths; TokenBudgetBatcher (token_budget > 0)
takes them in pull order into the smallest-load row they fit in, drops a sample longer than the budget, and yields
the micro-batch when the next sample fits in no row. The module imports torch, accelerate and transformers at its top,
so this script does not import it: it reads the file at the checkout's HEAD with `git show`, parses it with ast and
execs only those two definitions, with a stand-in IterableDataset base and a logger that records the drop warnings.
TRL keeps the micro-batch still open when the stream pauses; the script reads it by pulling samples of exactly
token_budget tokens after the case's own (each fits only an empty row, so the open micro-batch is yielded once every
row holds one) and leaving those out. Samples are dicts whose input_ids has the case's length.

usage: python scripts/golden/trl_async_packing.py TRL_GIT_DIR [SITE_PACKAGES] > test/fixtures/golden-trl-async-packing.json
With SITE_PACKAGES, the installed wheel's copy of the two definitions is run on every case too and must agree.
"""

import ast
import collections
import json
import logging
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

PATH = "trl/experimental/async_grpo/async_grpo_trainer.py"
WANTED = {"_balance_by_squared_length", "TokenBudgetBatcher"}


class RecordingLogger:
    def __init__(self):
        self.warnings = []

    def warning(self, message):
        self.warnings.append(message)


def load(source: str, where: str):
    tree = ast.parse(source)
    nodes = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in WANTED]
    assert {n.name for n in nodes} == WANTED, [n.name for n in nodes]
    logger = RecordingLogger()
    torch = types.SimpleNamespace(utils=types.SimpleNamespace(data=types.SimpleNamespace(IterableDataset=object)))
    namespace: dict[str, Any] = {"Any": Any, "torch": torch, "logger": logger, "__name__": "trl_async_packing_exec"}
    for node in nodes:
        exec(compile(ast.Module(body=[node], type_ignores=[]), where, "exec"), namespace)
    return namespace["_balance_by_squared_length"], namespace["TokenBudgetBatcher"], logger


def run_case(defs, lengths, num_processes, token_budget):
    balance, batcher_class, logger = defs
    samples = [{"input_ids": [0] * n, "index": i} for i, n in enumerate(lengths)]
    balanced = [[e["index"] for e in row] for row in balance(list(samples), num_processes)]
    out = None
    if token_budget is not None:
        logger.warnings.clear()
        sentinels = [{"input_ids": [0] * token_budget, "index": -1} for _ in range(num_processes + 1)]
        args = (samples + sentinels, num_processes, token_budget)
        try:
            batcher = batcher_class(*args)
        except TypeError:  # the wheel's copy also takes the trainer's metric sink
            batcher = batcher_class(*args, collections.defaultdict(list))
        micro = []
        for rows in batcher:
            micro.append([[e["index"] for e in row] for row in rows])
            if any(-1 in row for row in micro[-1]):
                break
        last = [[i for i in row if i != -1] for row in micro.pop()]
        if any(last):
            micro.append(last)
        placed = {i for mb in micro for row in mb for i in row}
        dropped = [i for i in range(len(lengths)) if i not in placed]
        assert len(dropped) == len(logger.warnings), (dropped, logger.warnings)
        out = {"microBatches": micro, "dropped": dropped}
    return balanced, out


def cases():
    rng = random.Random(6092)
    out = []
    for c in range(32):
        num_processes = [1, 2, 3, 4, 8][c % 5]
        count = rng.choice([0, 1, num_processes, 7, 16, 33, 64])
        shape = c % 4
        if shape == 0:
            lengths = [rng.randint(64, 512) for _ in range(count)]
        elif shape == 1:
            lengths = [rng.choice([100, 200, 300]) for _ in range(count)]  # ties everywhere
        elif shape == 2:
            lengths = [rng.randint(1, 4096) for _ in range(count)]
        else:
            lengths = [rng.choice([64, 128, 1024, 4096]) for _ in range(count)]
        budget = [None, 512, 1024, 2048, 4096, 300, 8192, 600][c % 8]
        out.append({"lengths": lengths, "numProcesses": num_processes, "tokenBudget": budget})
    return out


def main():
    git_dir = sys.argv[1]
    commit = subprocess.run(["git", "-C", git_dir, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    source = subprocess.run(["git", "-C", git_dir, "show", f"{commit}:{PATH}"], check=True, capture_output=True, text=True).stdout
    defs = load(source, f"{commit}:{PATH}")
    wheel = None
    if len(sys.argv) > 2:
        wheel_path = Path(sys.argv[2]) / PATH
        wheel = load(wheel_path.read_text(), str(wheel_path))
    logging.disable(logging.CRITICAL)
    results = []
    for case in cases():
        balanced, packed = run_case(defs, case["lengths"], case["numProcesses"], case["tokenBudget"])
        if wheel is not None:
            assert (balanced, packed) == run_case(wheel, case["lengths"], case["numProcesses"], case["tokenBudget"]), case
        results.append({**case, "balanced": balanced, "packed": packed})
    json.dump(
        {
            "source": f"huggingface/trl {commit} {PATH}: _balance_by_squared_length and TokenBudgetBatcher.__iter__ exec'd from the checkout",
            "commit": commit,
            "wheelAgrees": None if wheel is None else "trl " + __import__("importlib.metadata").metadata.version("trl"),
            "cases": results,
        },
        sys.stdout,
        indent=1,
    )
    sys.stdout.write("\n")


main()
