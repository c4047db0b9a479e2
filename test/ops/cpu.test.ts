import { test } from 'node:test';
import { cpuBackend } from '../../src/ops/backend.ts';
import { opsCases } from './cases.ts';

// The CPU reference against itself and the hand-computed cases, finite differences and the
// chi-square test of test/ops/cases.ts (the same cases test/ops/webgpu.test.ts runs on WebGPU).
for (const c of opsCases) test(`cpu: ${c.name}`, () => c.run(cpuBackend));
