// Which Python can run the PyTorch rows of the benchmarks: GRPO_PYTHON if set, else the
// project's .venv (which .ci/run creates with torch CPU), else python3.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const venvPython = fileURLToPath(new URL('../.venv/bin/python', import.meta.url));

/** The Python to run PyTorch with, or why there is none. */
export function findTorch(): { python: string } | { reason: string } {
  const python = process.env.GRPO_PYTHON ?? (existsSync(venvPython) ? venvPython : 'python3');
  const probe = spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' });
  if (probe.status === 0) return { python };
  const why = probe.error ? probe.error.message : (probe.stderr.trim().split('\n').at(-1) ?? `exit ${probe.status}`);
  return { reason: `${python} cannot import torch (${why})` };
}
