// `node --import tsx bench/train-profile.ts [ranks ...]`: where `grpo-sandbox train` spends its time.
// Runs the CLI as a user does (256 prompts × 8 per step, the demo's other settings) under
// `node --cpu-prof`, which writes one V8 CPU profile per thread (the main thread and every rank's
// worker), with the rank workers loaded through tsx (GRPO_RANK_WORKER_TSX=1) so each sample names
// its source file. Sums the samples' self time into the parts of a step and prints one table per
// rank count. Self time of a sampled thread, not wall time: on a loaded machine it says where the
// CPU goes, and the ratios between parts hold when wall times do not.
// Env: PROFILE_STEPS (default 40), PROFILE_PROMPTS (default 256), PROFILE_PRESET=seed-003 (the seed's
// dModel 2048 × hidden 256 with the demo's sampler, advantages, loss and lr, as `npm run bench -- train`
// runs it), PROFILE_HELPERS (helper threads per rank thread, default 0: every product on the rank
// threads, whose profiles are the ones summed).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The parts of a step, first match wins: [part, file pattern, function pattern]. */
const PARTS: [string, RegExp, RegExp][] = [
  ['idle (waiting for messages)', /^$/, /^\(idle\)$/],
  ['garbage collection', /^$/, /^\(garbage collector\)$/],
  ['barrier waits (collectives)', /ranks\/collectives\.ts$/, /^(sleep|arrive)$/],
  ['collectives (copies, checks)', /ranks\/(collectives|arena|dtype|tensor|local-group)\.ts$/, /^/],
  ['tanh (JS: forward and backward)', /ops\/fast\/activation\.ts$/, /^/],
  ['tanh backward (WebAssembly SIMD; the forward is fused into matmul)', /^(wasm:|$)/, /tanhBackward/],
  ['dense kernels (WebAssembly SIMD)', /^(wasm:|$)/, /^(dot|matmul|.*wasm-function.*|js-to-wasm.*)$/],
  ['dense kernels (copies, transposes, JS)', /ops\/(fast\/(simd|tiles|dense|denseBackward\w*)|cpu\/dense\w*)\.ts$/, /^/],
  [
    'softmax and sampling (Philox)',
    /ops\/(fast|cpu)\/(maskedSoftmax|categoricalSample|philox|logProbBackward|oneHot|knob3Mask|head)\.ts$|rng\/philox\.ts$/,
    /^/,
  ],
  ["latency tokens (the bank's first epoch only)", /env\/task\.ts$/, /^(latencyToken|referenceLatencyTokens)/],
  ["latency tokens (the bank's first epoch only)", /ops\/fast\/latencyTokens\.ts$/, /^/],
  ["latency tokens (the bank's first epoch only)", /^wasm:/, /^blockProducts$/],
  [
    'rewards and optimum fraction',
    /env\/(task|controller)\.ts$|train\/step\.ts$/,
    /^(scoreSample|configReward|rewardStats|groupsByPrompt|generateLocal)$/,
  ],
  ['advantages', /grpo\/(schemes|scheme-groups|slot-advantages)\.ts$|grpo\/advantages/, /^/],
  ['loss', /ops\/(cpu\/(grpoLoss|pairwiseLoss)|loss)\.ts$/, /^/],
  ['Adam and clipping', /ops\/(cpu|fast)\/(adam|gradNorm)\.ts$|train\/replicas\.ts$/, /^/],
  ['Adam and clipping', /^wasm:/, /^adam$/],
  ['checksums', /train\/step\.ts$/, /^(checksum|checkReplicas)$/],
  ['step code (policy, step, metrics)', /train\/(step|policy|program|dynamic)\.ts$/, /^/],
  ['task and parameters (world start)', /env\/(task|controller)\.ts$/, /^/],
  ['rank worker messages (world.run round trips)', /comlink|ranks\/(rank-worker|serve|world|spawn)\.ts$|node:internal\/worker/, /^/],
  ['ops backend (the async wrapper around every op call)', /ops\/backend\.ts$/, /^/],
  ['(program): V8 native code outside any JS function (compilation, runtime calls)', /^$/, /^\(program\)$/],
  ['loading (tsx, modules)', /tsx|esbuild|node:internal\/(modules|bootstrap)|esm\/|cjs/, /^/],
];

function partOf(url: string, fn: string): string {
  for (const [part, file, name] of PARTS) if (file.test(url) && name.test(fn)) return part;
  return 'other';
}

/** Self milliseconds of the rank workers' samples no part claims, by function (printed with PROFILE_OTHER=1). */
const others = new Map<string, number>();

/** Outside the steps: the worker's start (loading, task, trainInit) and end, whatever the function. */
const OUTSIDE = 'outside the steps (loading, start, end)';

/**
 * Self milliseconds by part over the given profiles. Only the samples between a thread's first and
 * last sample inside trainSteps (program.ts) count as the steps' (garbage collection and native
 * code included, which have no stack to tell); the rest of a thread's busy time is OUTSIDE.
 */
function breakdown(files: string[], collectOthers: boolean): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of files) {
    const p = JSON.parse(readFileSync(f, 'utf8')) as Profile;
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const inStep = (id: number): boolean => {
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
        if (byId.get(at)!.callFrame.functionName === 'trainSteps') return true;
      return false;
    };
    const first = p.samples.findIndex(inStep);
    const last = p.samples.findLastIndex(inStep);
    p.samples.forEach((id, i) => {
      const cf = byId.get(id)!.callFrame;
      const inside = first >= 0 && i >= first && i <= last;
      const classified = partOf(cf.url, cf.functionName);
      const part = inside || classified.startsWith('idle') ? classified : OUTSIDE;
      out.set(part, (out.get(part) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
      if (part === 'other' && collectOthers) {
        const key = `other: ${cf.functionName || '(anonymous)'} ${cf.url.replace(/^.*\/(src|node_modules)\//, '$1/')}`;
        others.set(key, (others.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
      }
    });
  }
  return out;
}

function profileRun(
  ranks: number,
  prompts: number,
  steps: number,
): { workers: Map<string, number>; main: Map<string, number>; hooks: Map<string, number>; wallS: number } {
  const dir = mkdtempSync(join(os.tmpdir(), 'train-profile-'));
  const batch = (prompts * 8) / ranks;
  const t0 = performance.now();
  execFileSync(
    process.execPath,
    [
      `--cpu-prof`,
      `--cpu-prof-dir=${dir}`,
      'bin/grpo-sandbox.js',
      'train',
      '--ranks',
      `${ranks}`,
      '--batch',
      `${batch}`,
      '--steps',
      `${steps}`,
      '--json',
      '--helpers',
      process.env.PROFILE_HELPERS ?? '0',
      ...(process.env.PROFILE_PRESET
        ? [
            '--preset',
            process.env.PROFILE_PRESET,
            '--k',
            '8',
            '--sampler',
            'flow-grpo',
            '--advantage',
            'flow-grpo',
            '--loss',
            'dapo',
            '--lr',
            '0.01',
          ]
        : []),
    ],
    { env: { ...process.env, GRPO_RANK_WORKER_TSX: '1' }, stdio: ['ignore', 'ignore', 'ignore'] },
  );
  const wallS = (performance.now() - t0) / 1000;
  // The main thread's profile is the first written by the process (thread id 0 in the name).
  const files = readdirSync(dir).map((f) => join(dir, f));
  const mainFile = files.filter((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  // The other threads are the rank workers and, with tsx, its module-hooks thread (Node runs
  // loader hooks off-thread): a rank worker's profile is the one that ran the step code.
  const isRankWorker = (f: string) => !mainFile.includes(f) && readFileSync(f, 'utf8').includes('/src/train/step.ts');
  const workers = breakdown(files.filter(isRankWorker), true);
  const hooks = breakdown(
    files.filter((f) => !mainFile.includes(f) && !isRankWorker(f)),
    false,
  );
  const main = breakdown(mainFile, false);
  rmSync(dir, { recursive: true, force: true });
  return { workers, main, hooks, wallS };
}

const ranksList = process.argv.slice(2).map(Number);
const steps = Number(process.env.PROFILE_STEPS ?? 40);
const prompts = Number(process.env.PROFILE_PROMPTS ?? 256);
console.log(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores`,
);
for (const ranks of ranksList.length ? ranksList : [1, 8]) {
  const { workers, main, hooks, wallS } = profileRun(ranks, prompts, steps);
  const busy = [...workers].filter(([p]) => !p.startsWith('idle')).reduce((s, [, ms]) => s + ms, 0);
  const preset = process.env.PROFILE_PRESET ? ` (${process.env.PROFILE_PRESET})` : '';
  console.log(
    `\n${ranks} rank(s) × ${(prompts * 8) / ranks}${preset}, ${steps} steps, ` +
      `wall ${wallS.toFixed(1)} s (whole process), load ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.log(`| part (rank workers, self time) | ms | ms/step | % of busy |\n|---|---|---|---|`);
  for (const [part, ms] of [...workers].sort((a, b) => b[1] - a[1]))
    console.log(
      `| ${part} | ${ms.toFixed(0)} | ${(ms / steps).toFixed(2)} | ${part.startsWith('idle') ? '' : ((100 * ms) / busy).toFixed(1)} |`,
    );
  if (process.env.PROFILE_OTHER)
    for (const [fn, ms] of [...others].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`|   ${fn} | ${ms.toFixed(0)} | | |`);
  others.clear();
  const mainBusy = [...main].filter(([p]) => !p.startsWith('idle')).reduce((s, [, ms]) => s + ms, 0);
  console.log(`| main thread busy (CLI, world.run, metrics files) | ${mainBusy.toFixed(0)} | ${(mainBusy / steps).toFixed(2)} | |`);
  const hooksBusy = [...hooks].filter(([p]) => !p.startsWith('idle')).reduce((s, [, ms]) => s + ms, 0);
  console.log(
    `| tsx module-hooks thread busy (loading the workers' sources) | ${hooksBusy.toFixed(0)} | ${(hooksBusy / steps).toFixed(2)} | |`,
  );
}
