"""Runs every bridge case in one torchrun launch (starting torch and gloo once costs most of the time):
    torchrun --standalone --nproc_per_node 2 test/bridge/run_all.py --out DIR
Each case writes DIR/<framework>-<variant>.jsonl through the probe, from both ranks.
"""
import argparse
import os

import torch.distributed as dist

import dance_grpo_run
import flow_grpo_run
import trl_run

CASES = {"trl": trl_run, "flow-grpo": flow_grpo_run, "dance-grpo": dance_grpo_run}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    args = p.parse_args()
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    for name, module in CASES.items():
        for variant in module.VARIANTS:
            module.run(variant, os.path.join(args.out, f"{name}-{variant}.jsonl"), rank, world)
            dist.barrier()  # both ranks finish a case before the next starts
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
