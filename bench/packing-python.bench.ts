// Each home's packer beside the framework's OWN Python packer, on the same step (bench/packing.bench.ts's input:
// 102,400 samples = 12,800 prompts × 8, token counts torch.randint(16, 513) on MT19937(0), over 64 ranks, and the
// 10,240 case). Theirs is exec'd from a checkout of the framework's mirror at the commit the home pins, by the golden
// scripts' own loaders (bench/packing_python.py imports them from scripts/golden/). CPU time of each process while it
// packs; each run in its own process under GRPO_BENCH_PACK_LIMIT_S seconds (default 60).
// Needs GRPO_MIRRORS (a folder of owner+name/repo git mirrors, /work/.mirror here) and a Python with
// scripts/golden/requirements.txt (GRPO_PYTHON, else the one bench/find-torch.ts picks); without them it prints
// what is missing and returns.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveRun as nemoRun } from '../src/core/frameworks/nemo-rl/resolve.ts';
import { FRAMEWORK_HOMES } from '../src/core/frameworks/index.ts';
import { runSizes as openInstructSizes } from '../src/core/frameworks/open-instruct/sizes.ts';
import { runSizes as openrlhfSizes } from '../src/core/frameworks/openrlhf/sizes.ts';
import { resolveConfig as primeRlConfig } from '../src/core/frameworks/prime-rl/config.ts';
import { intSetting } from '../src/core/frameworks/settings.ts';
import { resolveRun as slimeRun } from '../src/core/frameworks/slime/config.ts';
import type { FrameworkSettings } from '../src/core/frameworks/types.ts';
import { findTorch } from './find-torch.ts';
import { type PackRun, RANKS, SIZES, VERL, benchSettings, packOnce, syntheticSeqlens } from './packing-one.ts';
import { printTable } from './timing.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/** verl's repository and the commit its files are read at (src/core/frameworks/verl/*.ts: b178a3c). */
const VERL_PINNED = { repo: 'volcengine/verl', commit: 'b178a3c' };
const NEEDED = ['torch', 'numpy', 'yaml', 'msgspec', 'torchdata'];

/**
 * The arguments bench/packing_python.py hands the framework's code, from the same resolved settings our packer gets
 * (the defaults each home's resolver applies: NeMo RL's train_mb_tokens = max_total_sequence_length × train_micro_batch_size …).
 */
export function theirArgs(name: string, s: FrameworkSettings): Record<string, unknown> {
  const ranks = intSetting(s, 'ranks');
  switch (name) {
    case 'nemo-rl': {
      const run = nemoRun(s);
      if (run.mode.kind !== 'packing') throw new Error('the bench runs NeMo RL with sequence packing on');
      const { tokens, algorithm, order, padMultiple } = run.mode;
      return { dp: run.dp, gbs: run.gbs, tokens, algorithm, order, padMultiple };
    }
    case 'easyr1':
      return {
        ranks: intSetting(s, 'n-gpus-per-node') * intSetting(s, 'nnodes'),
        width: intSetting(s, 'max-prompt-length') + intSetting(s, 'max-response-length'),
        micro: intSetting(s, 'micro-batch-size-per-device-for-update'),
      };
    case 'skyrl':
      return {
        dp:
          (intSetting(s, 'policy-num-gpus-per-node') * intSetting(s, 'policy-num-nodes')) / intSetting(s, 'policy-sequence-parallel-size'),
        micro: intSetting(s, 'micro-train-batch-size-per-gpu'),
        maxTokens: intSetting(s, 'max-tokens-per-microbatch'),
      };
    case 'slime': {
      const c = slimeRun(s).schedule;
      return {
        dp: c.dpSize,
        cp: c.cpSize,
        gbs: c.globalBatchSize,
        microBatchSize: c.microBatchSize,
        dynamic: c.useDynamicBatchSize,
        maxTokensPerGpu: c.maxTokensPerGpu,
        balanceData: c.balanceData,
        balanceByFlops: false,
      };
    }
    case 'areal':
      return {
        ranks,
        k: intSetting(s, 'k'),
        maxTokens: intSetting(s, 'max-tokens-per-mb'),
        algorithm: s['packing-algorithm'],
        nMinibatches: intSetting(s, 'ppo-n-minibatches'),
      };
    case 'roll':
      return {
        ranks,
        maxTokens: intSetting(s, 'max-tokens-per-microbatch-in-train'),
        round: intSetting(s, 'sequence-length-round-in-train'),
      };
    case 'openrlhf': {
      const z = openrlhfSizes(s);
      return { ranks: z.parallel.actors, n: z.n, trainBatchSize: z.trainBatchSize, maxTokensPerGpu: z.trainMaxTokens };
    }
    case 'open-instruct': {
      const z = openInstructSizes(s);
      return { ranks: z.ranks, packLength: z.packLength, perDevice: z.perDevice, seed: z.seed };
    }
    case 'prime-rl': {
      const c = primeRlConfig(s);
      return { ranks: c.ranks, seqLen: c.seqLen, pad: c.padToMultipleOf };
    }
    case VERL:
      return { ranks };
    default:
      throw new Error(`no Python packer call for ${name}`);
  }
}

/**
 * A checkout of `repo`'s Python files at `commit`, made from its mirror (git clone --shared, a sparse checkout of *.py:
 * a mirror may lack its large data files), cached under the OS temp folder.
 */
function checkoutOf(mirrors: string, repo: string, commit: string): { dir: string; commit: string } | { error: string } {
  const base = path.join(mirrors, repo.replace('/', '+'));
  const gitDir = existsSync(path.join(base, 'repo')) ? path.join(base, 'repo') : base;
  if (!existsSync(gitDir)) return { error: `no mirror at ${gitDir}` };
  const full = spawnSync('git', ['--git-dir', gitDir, 'rev-parse', '--verify', '--quiet', `${commit}^{commit}`], { encoding: 'utf8' });
  if (full.status !== 0) return { error: `${gitDir} lacks commit ${commit}` };
  const sha = full.stdout.trim();
  const dir = path.join(os.tmpdir(), 'grpo-packing-checkouts', `${repo.replace('/', '+')}@${sha.slice(0, 12)}`);
  if (!existsSync(path.join(dir, '.git'))) {
    mkdirSync(path.dirname(dir), { recursive: true });
    const steps = [
      ['clone', '--quiet', '--shared', '--no-checkout', gitDir, dir],
      ['-C', dir, 'sparse-checkout', 'set', '--no-cone', '*.py'],
      ['-C', dir, 'checkout', '--quiet', sha],
    ];
    for (const args of steps) {
      const r = spawnSync('git', args, { encoding: 'utf8' });
      if (r.status !== 0) return { error: `git ${args.join(' ')}: ${r.stderr.trim().split('\n').at(-1)}` };
    }
  }
  return { dir, commit: sha };
}

interface TheirRun extends PackRun {
  inputSum?: number;
  inputHead?: number[];
}

function theirsOnce(python: string, name: string, checkout: string, samples: number, limitS: number): TheirRun {
  const args = JSON.stringify(theirArgs(name, benchSettings(name, samples, RANKS)));
  const res = spawnSync(python, ['bench/packing_python.py', name, checkout, String(samples), args], {
    cwd: root,
    encoding: 'utf8',
    timeout: limitS * 1000,
    maxBuffer: 1 << 20,
  });
  if (res.error || res.signal) return { timedOut: true };
  const line = (res.stdout ?? '').trim().split('\n').at(-1) ?? '';
  try {
    const run = JSON.parse(line) as TheirRun;
    const ours = syntheticSeqlens(samples);
    const sum = ours.reduce((a, b) => a + b, 0);
    if (run.inputSum !== sum || run.inputHead?.join() !== ours.slice(0, 4).join()) {
      return { error: `its input differs from ours (sum ${run.inputSum} vs ${sum}): not comparable` };
    }
    return run;
  } catch {
    return { error: `exit ${res.status}: ${(res.stderr ?? '').trim().split('\n').at(-1)?.slice(0, 200) ?? ''}` };
  }
}

/** What is missing to run the Python side, or the Python to run it with. */
function pythonSide(): { python: string; mirrors: string } | { missing: string } {
  const mirrors = process.env.GRPO_MIRRORS;
  if (!mirrors || !existsSync(mirrors)) {
    const why = mirrors ? `GRPO_MIRRORS=${mirrors} does not exist` : 'GRPO_MIRRORS is not set';
    return {
      missing:
        `the frameworks' own packers were not timed: ${why}; set GRPO_MIRRORS to a folder of owner+name/repo git mirrors ` +
        '(e.g. /work/.mirror) and GRPO_PYTHON to a Python with scripts/golden/requirements.txt installed',
    };
  }
  const found = findTorch();
  if ('reason' in found)
    return {
      missing: `the frameworks' own packers were not timed: ${found.reason}; set GRPO_PYTHON to a Python with scripts/golden/requirements.txt`,
    };
  const probe = spawnSync(found.python, ['-c', `import ${NEEDED.join(', ')}`], { encoding: 'utf8' });
  if (probe.status !== 0) {
    const why = probe.stderr.trim().split('\n').at(-1) ?? `exit ${probe.status}`;
    return {
      missing:
        `the frameworks' own packers were not timed: ${found.python} lacks scripts/golden/requirements.txt (${why}); ` +
        'set GRPO_PYTHON to a Python that has it',
    };
  }
  return { python: found.python, mirrors };
}

export default function bench(): void {
  const side = pythonSide();
  if ('missing' in side) {
    console.log(side.missing);
    return;
  }
  const limitS = Number(process.env.GRPO_BENCH_PACK_LIMIT_S ?? 60);
  const load = () =>
    os
      .loadavg()
      .map((v) => v.toFixed(1))
      .join(' ');
  console.log(`load average before: ${load()}; ${side.python}; each run in its own process, stopped after ${limitS} s; ${RANKS} ranks`);
  const homes = [
    ...FRAMEWORK_HOMES.filter((h) => h.packing && 'pack' in h.packing).map((h) => ({
      name: h.name,
      repo: h.pinned.repo,
      commit: h.pinned.commit,
    })),
    { name: VERL, ...VERL_PINNED },
  ];
  const said = (r: PackRun) => (r.timedOut ? `> ${limitS * 1000}` : r.error ? 'error' : r.cpuMs!.toFixed(0));
  const ratio = (ours: PackRun, theirs: PackRun) => (ours.cpuMs && theirs.cpuMs ? (theirs.cpuMs / ours.cpuMs).toFixed(1) : '—');
  const rows: (string | number)[][] = [];
  for (const home of homes) {
    const checkout = checkoutOf(side.mirrors, home.repo, home.commit);
    if ('error' in checkout) {
      console.log(`  ${home.name}: not timed: ${checkout.error}`);
      continue;
    }
    const ours = SIZES.map((n) => packOnce(home.name, n, limitS));
    const theirs = SIZES.map((n) => theirsOnce(side.python, home.name, checkout.dir, n, limitS));
    const [os0, os1] = ours as [PackRun, PackRun];
    const [th0, th1] = theirs as [TheirRun, TheirRun];
    rows.push([
      `${home.name} @ ${checkout.commit.slice(0, 7)}`,
      said(os0),
      said(th0),
      ratio(os0, th0),
      said(os1),
      said(th1),
      ratio(os1, th1),
      `${os1.microBatchesPerRank ?? '—'} / ${th1.microBatchesPerRank ?? '—'}`,
    ]);
    for (const r of [...ours, ...theirs]) if (r.error) console.log(`  ${home.name}: ${r.error}`);
  }
  if (rows.length === 0) return;
  printTable(
    [
      'home @ commit',
      `ours, CPU ms at ${SIZES[0]}`,
      `theirs, CPU ms at ${SIZES[0]}`,
      'theirs / ours',
      `ours, CPU ms at ${SIZES[1]}`,
      `theirs, CPU ms at ${SIZES[1]}`,
      'theirs / ours',
      `micro-batches per rank at ${SIZES[1]}, ours / theirs`,
    ],
    rows,
  );
  console.log(`load average after: ${load()}`);
}
