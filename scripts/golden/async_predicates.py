"""Writes test/fixtures/golden-async-predicates.json: the drop and take rules of TRL, open-instruct, prime-rl and ROLL.

    /work/golden-venv/bin/python scripts/golden/async_predicates.py open-instruct=/work/checkouts/open-instruct \
        prime-rl=/work/checkouts/prime-rl roll=/work/checkouts/roll trl=/work/golden-venv/lib/python3.11/site-packages/trl [out.json]

Made with allenai/open-instruct e6c3044, PrimeIntellect-ai/prime-rl 559b447, alibaba/ROLL 8eb27cc and the trl 1.13.0 wheel
(`pip install trl==1.13.0`; commits and the TRL version are recorded in the fixture). Nothing is imported from the
packages (Ray, vLLM, verifiers): each function or class is AST-extracted and exec'd with the standard library.

What runs as the frameworks' code:
- open-instruct open_instruct/data_loader.py result_is_stale, over a grid of (model_step, training_step, max_result_age_steps);
- prime-rl src/prime_rl/orchestrator/utils.py min_fresh_version and episode_staleness (train_work is stubbed to return
  the episode's policy span, because the real one checks verifiers' types);
- TRL trl/experimental/async_grpo/async_grpo_trainer.py RolloutQueueDataset.__iter__ (the whole class; the trace logger
  is stubbed): seeded queues of samples tagged with a model_version, pulled step by step at a given trainer version;
- ROLL roll/distributed/scheduler/generate_scheduler.py ReplayBuffer and ItemsGroup (the whole classes, asyncio): a
  seeded rollout loop in which poll() decides admissions and get_batch() decides each step's batch, run as pending
  tasks while the script finishes running prompts in a seeded order; gc() after each batch.
Transcribed: nothing (the stubs above compute nothing the fixture records).
"""
import ast
import asyncio
import collections
import contextvars
import json
import math
import os
import queue
import random
import subprocess
import sys
import threading
import time
import types
import typing

import torch


def exec_nodes(path, names, g):
    tree = ast.parse(open(path).read())
    picked = [n for n in tree.body if getattr(n, "name", None) in names]
    assert len(picked) == len(names), (path, names)
    future = ast.parse("from __future__ import annotations").body  # keep annotations unevaluated
    exec(compile(ast.Module(body=future + picked, type_ignores=[]), path, "exec"), g)
    return g


def namespace():
    module = types.ModuleType(f"async_predicates_{len(sys.modules)}")
    sys.modules[module.__name__] = module
    g = module.__dict__
    g.update({name: getattr(typing, name) for name in typing.__all__})
    g.update({"asyncio": asyncio, "math": math, "queue": queue, "threading": threading, "time": time, "contextvars": contextvars,
              "torch": torch, "deque": collections.deque, "defaultdict": collections.defaultdict,
              "logger": types.SimpleNamespace(info=lambda *a, **k: None, warning=lambda *a, **k: None)})
    return g


def commit_of(path):
    return subprocess.check_output(["git", "-C", path, "rev-parse", "HEAD"], text=True).strip()


def open_instruct(path):
    g = exec_nodes(f"{path}/open_instruct/data_loader.py", ["result_is_stale"], namespace())
    values = [None, 0, 1, 3, 8]
    rows = []
    for model_step in values:
        for training_step in values:
            for age in values:
                rows.append({"modelStep": model_step, "trainingStep": training_step, "maxResultAgeSteps": age,
                             "stale": g["result_is_stale"](model_step, training_step, age)})
    return {"commit": commit_of(path), "resultIsStale": rows}


def prime_rl(path):
    g = namespace()
    g["vf"] = types.SimpleNamespace(Episode=typing.Generic)
    exec_nodes(f"{path}/src/prime_rl/orchestrator/utils.py", ["min_fresh_version", "episode_staleness"], g)
    g["train_work"] = lambda episode: episode  # stub: the episode carries its policy span directly
    rows = []
    for step in range(1, 12):
        for maxoff in (0, 1, 2, 8):
            for start in range(0, 12):
                for span in (0, 1, 3):
                    episode = types.SimpleNamespace(policy=types.SimpleNamespace(start=start, end=start + span))
                    total, in_flight, in_queue = g["episode_staleness"](episode, step)
                    rows.append({"step": step, "maxOffPolicySteps": maxoff, "start": start, "end": start + span,
                                 "minFreshVersion": g["min_fresh_version"](step, maxoff),
                                 "staleness": [total, in_flight, in_queue]})
    return {"commit": commit_of(path), "rows": rows}


def trl(path, rng):
    g = namespace()
    g["log_rollout_traces"] = lambda *a, **k: None
    g["torch"] = torch
    exec_nodes(f"{path}/experimental/async_grpo/async_grpo_trainer.py", ["RolloutQueueDataset"], g)
    cases = []
    for _ in range(12):
        k = rng.choice([1, 2, 4])
        per_step = k * rng.choice([1, 2, 3])
        max_staleness = rng.choice([0, 1, 2, 4])
        q = queue.Queue()
        samples = []
        version = {"v": 0}
        # groups enter the queue as the worker scores them; their tags lag by a random amount
        for gid in range(40):
            tag = max(0, gid // 4 - rng.choice([0, 0, 1, 2, 4, 6]))
            for _ in range(k):
                samples.append({"group": gid, "modelVersion": tag})
                q.put(types.SimpleNamespace(model_version=tag, group_id=gid, input_ids=[gid], completion_mask=[1], old_log_probs=[0.0],
                                            advantage=0.0, metrics={}, enqueued_at=None))
        metrics = collections.defaultdict(list)
        ds = g["RolloutQueueDataset"](q, lambda: version["v"], lambda s: None, 1.0, metrics, max_staleness=max_staleness, poll_interval_s=0.01)
        it = iter(ds)
        steps = []
        for step in range(6):
            version["v"] = step
            before = len(metrics["sample/dropped_stale_total"])
            try:
                got = [next(it)["group_id"] for _ in range(per_step)]
            except Exception:  # the queue ran dry: the real loop would wait for the worker
                break
            steps.append({"version": step, "groups": got, "dropped": len(metrics["sample/dropped_stale_total"]) - before})
        cases.append({"k": k, "perStep": per_step, "maxStaleness": max_staleness, "queue": samples, "steps": steps})
    return cases


async def roll_loop(g, rng):
    ratio = rng.choice([0, 1, 1.5, 2, 2.5])
    batch, k, steps = rng.choice([2, 3, 4]), rng.choice([1, 2]), 6
    buf = g["ReplayBuffer"](ratio, False, 0)
    events, running, next_step = [], [], 0
    pending_poll = None
    admitted_log = []

    async def settle():
        for _ in range(20):
            await asyncio.sleep(0)

    async def admit():
        nonlocal pending_poll
        ids = []
        while True:
            if pending_poll is None:
                pending_poll = asyncio.ensure_future(buf.poll())
            await settle()
            if not pending_poll.done():
                return ids
            pid = pending_poll.result()
            pending_poll = None
            step = await buf.begin(pid)
            running.append((pid, step))
            ids.append([pid, step])

    for step in range(steps):
        buf.advance_step(step, batch)
        events.append({"event": "advance", "step": step, "admitted": await admit()})
        task = asyncio.ensure_future(buf.get_batch(batch * k, types.SimpleNamespace(update=lambda n: None)))
        await settle()
        while not task.done():
            assert running, "nothing running and the batch is not complete"
            # every fifth prompt is slow: it finishes only when nothing else runs (a straggler gc() may abort)
            fast = [i for i, (p, _) in enumerate(running) if p % 5 != 0]
            pid, start = running.pop(rng.choice(fast) if fast else 0)
            buf.commit(pid, [types.SimpleNamespace(prompt=pid, sampling_start_step=start) for _ in range(k)])
            await settle()
            events.append({"event": "finish", "prompt": pid, "batchDone": task.done(), "admitted": await admit()})
        taken = []
        for item in task.result():
            if not taken or taken[-1] != item.prompt:
                taken.append(item.prompt)
        max_gc = buf.current_step - math.ceil(ratio)
        discarded = sorted(p.prompt for s, grp in buf.groups.items() if s <= max_gc for items in grp.finished_prompts for p in items[:1])
        aborted = sorted(buf.gc())
        running[:] = [(p, s) for p, s in running if p not in aborted]
        events.append({"event": "batch", "step": step, "prompts": taken, "discarded": discarded, "aborted": aborted, "admitted": await admit()})
    if pending_poll is not None:
        pending_poll.cancel()
    buf.shutdown()
    return {"ratio": ratio, "batch": batch, "k": k, "events": events}


def roll(path, rng):
    g = namespace()
    g["ExperienceItem"] = object
    exec_nodes(f"{path}/roll/distributed/scheduler/generate_scheduler.py", ["ItemsGroup", "ReplayBuffer"], g)
    return {"commit": commit_of(path), "runs": [asyncio.run(roll_loop(g, rng)) for _ in range(16)]}


def main():
    paths = dict(a.split("=", 1) for a in sys.argv[1:] if "=" in a)
    rest = [a for a in sys.argv[1:] if "=" not in a]
    out = rest[0] if rest else os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../test/fixtures/golden-async-predicates.json")
    rng = random.Random(38)
    import importlib.metadata

    doc = {
        "source": "result_is_stale (open-instruct), min_fresh_version and episode_staleness (prime-rl), RolloutQueueDataset (TRL), "
                  "ReplayBuffer and ItemsGroup (ROLL) exec'd from their files (scripts/golden/async_predicates.py); transcribed: nothing",
        "openInstruct": open_instruct(paths["open-instruct"]),
        "primeRl": prime_rl(paths["prime-rl"]),
        "trl": {"version": importlib.metadata.version("trl"), "cases": trl(paths["trl"], rng)},
        "roll": roll(paths["roll"], rng),
    }
    with open(out, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(out, os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
