"""Golden fixture for src/core/frameworks/prime-rl (PrimeIntellect-ai/prime-rl).

Run:  /work/golden-venv/bin/python scripts/golden/prime_rl_layout.py CHECKOUT [test/fixtures/golden-prime-rl-layout.json]
(needs msgspec in the venv: `/work/golden-venv/bin/pip install msgspec`). Made with the checkout at
559b44772e471d1538537b8805cc77f3824a5e64 (the commit is recorded in the fixture).

Runs as prime-rl's own code, unchanged:
- src/prime_rl/transports/rollouts/types.py (TrainingSample, MicroBatch; real msgspec) and
  src/prime_rl/trainer/batch.py (prepare_batch: prepare_sample truncation, first-fit-decreasing
  packing into seq_len bins, _expand_bins_by_splitting, pad_micro_batch, dummy padding,
  balanced_partition = Karmarkar-Karp + swap refinement) with build_bin_cost(None), the token-count
  cost BatchPacker falls back to when the model config cannot load.
- src/prime_rl/orchestrator/curriculum/samplers/standard.py (StandardSampler: the default task order).
- src/prime_rl/orchestrator/train_sink.py (payload_tokens, TrainSink._maybe_batch / process_batch: how a
  step's batch is cut from the queued traces, by batch_size traces or token_batch_size tokens).
- src/prime_rl/orchestrator/algo/grpo.py (GRPOAlgorithm.score_group: reward - group mean in float32 torch,
  the length penalty on) with iter_trainable_traces from algo/base.py and assign_advantages from
  algo/routing.py.
Import lines are dropped (AST) and the names they bound are given as stubs: verifiers' Episode/Trace are
SimpleNamespaces, TrainEpisodes/TrainBatch are plain holders, get_logger a no-op.

Transcribed (the model, not prime-rl code): groups complete in dispatch order, every group is admitted and
none is stale (progress.step is held at 0 so the staleness sweep is a no-op; the async orchestrator's real
completion order depends on inference timing), one train env, every sample has nonzero advantages.
"""
import ast
import importlib.util
import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from types import ModuleType, SimpleNamespace

import numpy as np
import torch

CHECKOUT = Path(sys.argv[1])
OUT = Path(sys.argv[2] if len(sys.argv) > 2 else 'test/fixtures/golden-prime-rl-layout.json')
SRC = CHECKOUT / 'src' / 'prime_rl'


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def exec_without_imports(path, namespace):
    """Exec a source file with its import statements removed (except __future__)."""
    tree = ast.parse(path.read_text())
    tree.body = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))
                 or (isinstance(n, ast.ImportFrom) and n.module == '__future__')]
    exec(compile(tree, str(path), 'exec'), namespace)
    return namespace


def extract(path, names, namespace):
    """Exec only the named top-level functions/classes of a source file."""
    tree = ast.parse(path.read_text())
    tree.body = [n for n in tree.body if getattr(n, 'name', None) in names
                 or (isinstance(n, ast.ImportFrom) and n.module == '__future__')]
    exec(compile(tree, str(path), 'exec'), namespace)
    return namespace


# --- the trainer's packer, loaded as modules (its only imports are numpy, heapq and the msgspec types) ---
for pkg in ['prime_rl', 'prime_rl.transports', 'prime_rl.transports.rollouts']:
    sys.modules.setdefault(pkg, ModuleType(pkg))
rollout_types = load_module('prime_rl.transports.rollouts.types', SRC / 'transports/rollouts/types.py')
batch = load_module('prime_rl.trainer.batch', SRC / 'trainer/batch.py')
TrainingSample = rollout_types.TrainingSample
BIN_COST = batch.build_bin_cost(None)


class _Logger:
    def __getattr__(self, _):
        return lambda *a, **k: None


class TrainEpisodes:
    def __init__(self, episodes=(), sampled_trace_ids=None, *a, **k):
        self.episodes = list(episodes)


class TrainBatch:
    def __init__(self, episodes, cohort, samples):
        self.episodes, self.cohort, self.samples = episodes, cohort, samples


sink_ns = exec_without_imports(SRC / 'orchestrator/train_sink.py', {
    'defaultdict': defaultdict, 'TrainingSample': TrainingSample, 'TrainEpisodes': TrainEpisodes,
    'TrainBatch': TrainBatch, 'get_logger': lambda: _Logger(),
    'min_fresh_version': extract(SRC / 'orchestrator/utils.py', {'min_fresh_version'}, {})['min_fresh_version'],
})
TrainSink = sink_ns['TrainSink']
sampler_ns = exec_without_imports(SRC / 'orchestrator/curriculum/samplers/standard.py', {
    'itertools': __import__('itertools'), 'Counter': __import__('collections').Counter,
    'Sequence': __import__('collections.abc').abc.Sequence, 'Iterator': __import__('collections.abc').abc.Iterator,
    'Any': object, 'TaskSampler': object,
})
StandardSampler = sampler_ns['StandardSampler']


def make_sample(sample_id, length):
    """A one-trace sample whose token ids all carry its id (100 + id), so packed micro-batches can be read back."""
    return TrainingSample(token_ids=[100 + sample_id] * length, mask=[True] * length, logprobs=[0.0] * length,
                          temperatures=[1.0] * length, env_name='env', advantages=[0.5] * length)


def decode(micro_batch):
    """The sample ids of one packed micro-batch in order, or None for a dummy (all loss-masked) one."""
    if not any(micro_batch.loss_mask):
        return None
    ids, start = [], 0
    for n in micro_batch.sequence_lengths:
        ids.append(micro_batch.input_ids[start] - 100)
        start += n
    return ids


def pack(lengths, seq_len, workers, pad):
    samples = [make_sample(i, n) for i, n in enumerate(lengths)]
    per_rank = batch.prepare_batch(samples, seq_len, workers, BIN_COST, pad)
    return [[decode(mb) for mb in rank] for rank in per_rank]


def packing_cases():
    cases = []
    for case in range(70):
        rng = random.Random(7000 + case)
        workers = rng.choice([1, 1, 2, 2, 3, 4, 4, 8])
        seq_len = rng.choice([256, 512, 1024, 2048, 4096])
        pad = rng.choice([1, 1, 1, 2, 4, 8])
        count = rng.choice([1, 2, 3, 5, 8, 16, 24, 32, 48, 64])
        top = rng.choice([seq_len // 8, seq_len // 2, seq_len, seq_len + 300])
        lengths = [rng.randint(1, max(1, top)) for _ in range(count)]
        if case % 9 == 0:  # ties: many equal lengths
            lengths = [rng.choice([64, 128, 256]) for _ in range(count)]
        cases.append({'seqLen': seq_len, 'workers': workers, 'pad': pad, 'seqlens': lengths,
                      'ranks': pack(lengths, seq_len, workers, pad)})
    return cases


def partition_cases():
    cases = []
    for case in range(40):
        rng = random.Random(9000 + case)
        parts = rng.choice([1, 2, 3, 4, 8])
        count = parts * rng.choice([1, 2, 3, 5, 8])
        weights = [rng.choice([rng.randint(1, 50), rng.randint(1, 5000), 64]) for _ in range(count)]
        cases.append({'weights': weights, 'parts': parts, 'partitions': batch.balanced_partition(weights, parts)})
    return cases


def run_layout(n_tasks, k, batch_size, token_batch_size, workers, seq_len, pad, epochs, max_steps, lengths,
               filter_zero=True):
    """Feed groups in dispatch order to prime-rl's sink; every batch it cuts is packed by prepare_batch."""
    sink = object.__new__(TrainSink)
    sink.config = SimpleNamespace(train=SimpleNamespace(filter_zero_advantages=filter_zero), max_off_policy_steps=8,
                                  seq_len=seq_len)
    sink.batch_size, sink.token_batch_size = batch_size, token_batch_size
    sink.pending_batch, sink.episode_by_trace, sink.pending_tokens = {}, {}, 0
    sink.pending_episodes, sink.progress, sink._swept_step, sink.stale_drops = TrainEpisodes(), SimpleNamespace(step=0), 0, 0
    sampler = StandardSampler([SimpleNamespace(key=f'task-{i}', idx=i) for i in range(n_tasks)])
    steps = []
    for draw in range(epochs * n_tasks):
        task = next(sampler)
        for copy in range(k):
            sample_id = draw * k + copy
            trace_id = f'{draw}:{copy}'
            trace = SimpleNamespace(id=trace_id, num_total_tokens=lengths[sample_id])
            episode = SimpleNamespace(traces=[trace], model_copy=lambda update, e=None: SimpleNamespace(**update))
            samples = [make_sample(sample_id, lengths[sample_id])]
            sink.pending_batch[trace_id] = samples
            sink.episode_by_trace[trace_id] = episode
            if token_batch_size is not None:
                sink.pending_tokens += sink_ns['payload_tokens'](samples, trace)
        out = sink._maybe_batch()
        if out is None:
            continue
        ids = [s.token_ids[0] - 100 for s in out.samples]
        per_rank = batch.prepare_batch(out.samples, seq_len, workers, BIN_COST, pad)
        steps.append({'samples': ids, 'tasks': [task_of(i, k, n_tasks) for i in ids],
                      'ranks': [[decode(mb) for mb in rank] for rank in per_rank]})
        if max_steps is not None and len(steps) >= max_steps:
            break
    return steps


def task_of(sample_id, k, n_tasks):
    return (sample_id // k) % n_tasks


def layout_cases():
    cases = []
    for case in range(36):
        rng = random.Random(5000 + case)
        k = rng.choice([1, 2, 4, 4, 8, 16])
        n_tasks = rng.choice([3, 5, 8, 12, 20, 33])
        workers = rng.choice([1, 2, 3, 4, 8])
        seq_len = rng.choice([512, 1024, 2048])
        pad = rng.choice([1, 1, 2])
        epochs = rng.choice([1, 2])
        max_steps = rng.choice([None, None, 3])
        token_mode = case % 3 == 2
        if token_mode:
            batch_size, token_batch_size = None, rng.choice([2000, 5000, 9000])
        else:
            batch_size, token_batch_size = k * rng.choice([1, 2, 3, 4, 6]), None
        lengths = [rng.randint(32, seq_len + 100) for _ in range(epochs * n_tasks * k)]
        steps = run_layout(n_tasks, k, batch_size, token_batch_size, workers, seq_len, pad, epochs, max_steps, lengths)
        cases.append({'datasetSize': n_tasks, 'k': k, 'batchSize': batch_size, 'tokenBatchSize': token_batch_size,
                      'workers': workers, 'seqLen': seq_len, 'pad': pad, 'epochs': epochs, 'maxSteps': max_steps,
                      'seqlens': lengths, 'steps': steps})
    return cases


# --- GRPO advantages: GRPOAlgorithm.score_group, with the real base/routing helpers ---
def advantage_cases():
    assigned = {}
    base_ns = exec_without_imports(SRC / 'orchestrator/algo/base.py', {'ClassVar': object, 'TYPE_CHECKING': False})
    routing_ns = extract(SRC / 'orchestrator/algo/routing.py', {'assign_advantages'}, {})
    grpo_ns = exec_without_imports(SRC / 'orchestrator/algo/grpo.py', {
        'TYPE_CHECKING': False, 'torch': torch, 'Algorithm': base_ns['Algorithm'], 'iter_trainable_traces': base_ns['iter_trainable_traces'],
        'assign_advantages': routing_ns['assign_advantages'],
    })
    cases = []
    for case in range(40):
        rng = random.Random(3000 + case)
        k = rng.choice([1, 2, 3, 4, 8, 16])
        kind = rng.choice(['binary', 'binary', 'uniform', 'equal', 'fraction'])
        rewards = {
            'binary': lambda: [float(rng.random() < 0.5) for _ in range(k)],
            'uniform': lambda: [rng.uniform(-2, 3) for _ in range(k)],
            'equal': lambda: [0.7] * k,
            'fraction': lambda: [rng.choice([0.0, 0.1, 0.2, 1 / 3, 0.5, 1.0]) for _ in range(k)],
        }[kind]()
        output = [rng.randint(1, 400) for _ in range(k)]
        total = [o + rng.randint(5, 200) for o in output]
        turns = [rng.randint(1, 4) for _ in range(k)]
        penalty = None
        if case % 4 == 3:
            penalty = SimpleNamespace(num_output_tokens_weight=rng.choice([0.0, 0.1, 0.5]),
                                      num_input_tokens_weight=rng.choice([0.0, 0.2]),
                                      num_turns_weight=rng.choice([0.0, 0.05]))
        traces = []
        for i in range(k):
            node = SimpleNamespace(mask=[False, True, True], token_ids=[1, 2, 3], advantages=None)
            traces.append(SimpleNamespace(id=f't{i}', reward=rewards[i], num_output_tokens=output[i],
                                          num_total_tokens=total[i], num_turns=turns[i], has_error=False,
                                          agent=SimpleNamespace(trainable=True), nodes=[node]))
        episodes = [SimpleNamespace(traces=[t]) for t in traces]
        algo = object.__new__(grpo_ns['GRPOAlgorithm'])
        algo.length_penalty = penalty
        import asyncio
        asyncio.run(algo.score_group(episodes))
        advantages = [t.nodes[0].advantages[0] for t in traces]
        cases.append({'rewards': rewards, 'outputTokens': output, 'totalTokens': total, 'turns': turns,
                      'lengthPenalty': None if penalty is None else vars(penalty), 'advantages': advantages})
    return cases


def main():
    commit = subprocess.check_output(['git', '-C', str(CHECKOUT), 'rev-parse', 'HEAD'], text=True).strip()
    data = {
        'source': 'prime-rl @ ' + commit[:7] + ': trainer/batch.py prepare_batch and balanced_partition, '
                  'orchestrator/train_sink.py batch cutting, curriculum StandardSampler and algo/grpo.py score_group '
                  'exec\'d from the checkout (imports stubbed). Transcribed: groups complete in dispatch order, '
                  'all admitted, none stale, one env - the async completion order is not deterministic.',
        'commit': commit,
        'torch': torch.__version__,
        'numpy': np.__version__,
        'packing': packing_cases(),
        'partitions': partition_cases(),
        'layouts': layout_cases(),
        'advantages': advantage_cases(),
    }
    OUT.write_text(json.dumps(data, separators=(',', ':')) + '\n')


if __name__ == '__main__':
    main()
