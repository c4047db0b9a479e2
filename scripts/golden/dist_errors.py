"""Writes test/fixtures/dist-errors.json: what torch.distributed really says when ranks disagree in a collective.

    python scripts/golden/dist_errors.py            # launches every case below with torch.distributed.run

Each case runs on real processes (`python -m torch.distributed.run --nproc_per_node W`) on the gloo
backend, once plain and once with TORCH_DISTRIBUTED_DEBUG=DETAIL, and records each rank's exception
(type and message) or that it timed out. NCCL needs GPUs and is not run here: nothing in the fixture is
NCCL output. The torch version is recorded; the sandbox's `--backend-behaviour gloo|detail` messages are
checked against these texts by test/ranks/backend-behaviour.test.ts.

The cases are the sandbox's own faults (`grpo-sandbox ranks --fault shape|mismatch`):
- allgather-rows: all_gather of float32 [rows, 1] with the last rank 2 rows short (seed-002), the output
  list built with zeros_like on each rank (what user code does);
- allgather-into-tensor: the same through all_gather_into_tensor;
- allreduce-numel: all_reduce of float32 [rows] with different lengths;
- op-mismatch: the last rank calls barrier while the others call all_reduce (seed-004 V2's skipped collective).
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import traceback
from datetime import timedelta

OUT = os.path.join(os.path.dirname(__file__), '..', '..', 'test', 'fixtures', 'dist-errors.json')
CASES = ['allgather-rows', 'allgather-into-tensor', 'allreduce-numel', 'op-mismatch']
WORLD = 3
TIMEOUT_S = 20  # gloo's own timeout; the launch is given 6× that (import torch alone takes 20 s on a loaded machine)


def worker(case):
    import torch
    import torch.distributed as dist

    dist.init_process_group('gloo', timeout=timedelta(seconds=TIMEOUT_S))
    rank, world = dist.get_rank(), dist.get_world_size()
    last = rank == world - 1
    rows = 14 if last else 16
    result = {'rank': rank}
    try:
        dist.barrier()  # collective #1 everywhere, so the faulty one has a sequence number past 1
        if case == 'allgather-rows':
            t = torch.ones(rows, 1)
            out = [torch.zeros_like(t) for _ in range(world)]
            dist.all_gather(out, t)
        elif case == 'allgather-into-tensor':
            t = torch.ones(rows, 1)
            out = torch.zeros(world * rows, 1)
            dist.all_gather_into_tensor(out, t)
        elif case == 'allreduce-numel':
            dist.all_reduce(torch.ones(rows))
        elif case == 'op-mismatch':
            if last:
                dist.barrier()
            else:
                dist.all_reduce(torch.ones(4))
        result['ok'] = True
    except Exception as e:  # noqa: BLE001 - the point is to record whatever torch raises
        result.update(ok=False, type=type(e).__module__ + '.' + type(e).__qualname__, message=str(e))
        result['trace'] = traceback.format_exc().strip().splitlines()[-1]
    with open(os.path.join(os.environ['DIST_ERRORS_DIR'], f'rank{rank}.json'), 'w') as f:
        json.dump(result, f)
    os._exit(0)  # a rank whose peer is gone would otherwise wait in destroy/atexit


def launch(case, detail):
    env = {k: v for k, v in os.environ.items() if k != 'TORCH_DISTRIBUTED_DEBUG'}
    if detail:
        env['TORCH_DISTRIBUTED_DEBUG'] = 'DETAIL'
    cmd = [sys.executable, '-m', 'torch.distributed.run', '--nproc_per_node', str(WORLD), '--master_port', '29517', __file__, case]
    with tempfile.TemporaryDirectory() as d:
        env['DIST_ERRORS_DIR'] = d
        log = open(os.path.join(d, 'log'), 'w+')
        p = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            p.wait(timeout=TIMEOUT_S * 6)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)  # the launcher and its ranks: this script's own process group
            p.wait()
        ranks = []
        for r in range(WORLD):
            path = os.path.join(d, f'rank{r}.json')
            if os.path.exists(path):
                with open(path) as f:
                    ranks.append(json.load(f))
            else:
                ranks.append({'rank': r, 'ok': False, 'type': None, 'message': None, 'noResult': True})
        log.seek(0)
        # What the launcher printed about the ranks (C++ aborts and gloo's own lines never reach the rank's except).
        lines = [l.rstrip() for l in log if any(w in l for w in ('Error', 'error', 'terminate', 'gloo', 'Signal', 'exitcode'))]
    return ranks, lines[:40]


def main():
    import torch

    cases = []
    for case in CASES:
        for detail in (False, True):
            ranks, log = launch(case, detail)
            cases.append({'case': case, 'backend': 'gloo', 'debug': 'DETAIL' if detail else 'OFF', 'ranks': ranks, 'launcherLog': log})
            print(case, 'DETAIL' if detail else 'plain', [(r['rank'], r.get('type'), (r.get('message') or '')[:100]) for r in ranks])
    fixture = {
        'about': 'Errors torch.distributed raises when ranks disagree in a collective, reproduced on real processes with the gloo '
                 'backend (plain and TORCH_DISTRIBUTED_DEBUG=DETAIL) by scripts/golden/dist_errors.py. No NCCL output: NCCL needs GPUs.',
        'versions': {'torch': torch.__version__, 'python': sys.version.split()[0]},
        'world': WORLD,
        'timeoutSeconds': TIMEOUT_S,
        'cases': cases,
    }
    with open(OUT, 'w') as f:
        json.dump(fixture, f, indent=1, ensure_ascii=False)
        f.write('\n')


if __name__ == '__main__':
    if 'RANK' in os.environ:
        worker(sys.argv[1])
    else:
        main()
