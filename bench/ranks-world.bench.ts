// `grpo-sandbox ranks --world N` end to end (process start, N workers, one healthy step, stop):
// wall time and peak memory (max RSS of the process tree's main process, from /usr/bin/time)
// for Node with the bundled rank worker (the default), Node with tsx in every worker (the old
// way, GRPO_RANK_WORKER_TSX=1; only up to 64 ranks, beyond that it ran out of time and memory)
// and Deno. Side by side in one run, since the machine is noisy.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const hasTime = existsSync('/usr/bin/time');

function run(cmd: string[], env: Record<string, string> = {}): { s: number; mb: number | null; ok: boolean } {
  const t0 = performance.now();
  const argv = hasTime ? ['/usr/bin/time', '-f', 'maxrss=%M', ...cmd] : cmd;
  const res = spawnSync(argv[0]!, argv.slice(1), {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 300_000,
    maxBuffer: 1 << 28,
  });
  const s = (performance.now() - t0) / 1000;
  const kb = /maxrss=(\d+)/.exec(res.stderr ?? '')?.[1];
  const ok = res.status === 0;
  // A failed run says why (the diagnosis is the last line the CLI printed before /usr/bin/time's own).
  if (!ok) {
    const lines = (res.stderr ?? '')
      .trim()
      .split('\n')
      .filter((l) => !/^(maxrss=|Command exited)/.test(l));
    console.log(`  ${cmd.slice(-6).join(' ')}: exit ${res.status ?? res.signal}: ${lines.at(-1)?.slice(0, 300) ?? '(no output)'}`);
  }
  return { s, mb: kb ? Number(kb) / 1024 : null, ok };
}

export default function ranksWorld(): void {
  const sizes = (process.env.GRPO_BENCH_WORLDS ?? '16,64,256').split(',').map(Number);
  console.log(
    `load average ${os.loadavg()[0]!.toFixed(1)}; 'ranks --world N --json', one healthy step; seconds / peak MB of the main process`,
  );
  console.log('| world | Node (bundled worker) | Node (tsx per worker) | Deno |');
  console.log('|---|---|---|---|');
  const cell = (r: { s: number; mb: number | null; ok: boolean }) =>
    `${r.ok ? '' : 'FAILED '}${r.s.toFixed(1)} s${r.mb === null ? '' : ` / ${r.mb.toFixed(0)} MB`}`;
  for (const n of sizes) {
    const args = ['ranks', '--world', String(n), '--json'];
    const bundled = run(['node', 'bin/grpo-sandbox.js', ...args]);
    const tsx = n <= 64 ? cell(run(['node', 'bin/grpo-sandbox.js', ...args], { GRPO_RANK_WORKER_TSX: '1' })) : 'not run (> 64)';
    const deno = run(['node_modules/.bin/deno', 'run', '-A', '--no-check', 'src/cli/bin.ts', ...args]);
    console.log(`| ${n} | ${cell(bundled)} | ${tsx} | ${cell(deno)} |`);
  }
}
