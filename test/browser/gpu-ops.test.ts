// The kernels on Chromium's own WebGPU (SwiftShader here): shaders fetched by URL from the
// production build (the test app, app-build.ts), results compared with the CPU reference in the
// same page (test/browser/gpu-ops.page.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { root, withPage } from './harness.ts';
import type { BrowserOpsReport } from './gpu-ops.page.ts';

test('in headless Chromium, dense (2048 wide), masked softmax, sampling, losses and Adam match the CPU reference', async () => {
  const report = (await withPage('/', (page) =>
    page.evaluate(async () => {
      const { runBrowserOps } = await import('/test/browser/gpu-ops.page.ts' as string);
      return runBrowserOps();
    }),
  )) as BrowserOpsReport;
  process.stderr.write(`# ${report.adapterInfo}: relative errors ${JSON.stringify(report.errors)}\n`);
  assert.match(report.adapterInfo, /\[browser\]$/);
  // The build inlines a small shader as a data: URL and emits a larger one under /assets/; either
  // way the URL the kernels use holds shaders/dense.wgsl itself.
  assert.match(report.shaderUrl, /^(data:text\/wgsl;base64,|http:\/\/localhost:\d+\/assets\/dense-[\w-]+\.wgsl$)/);
  assert.equal(await (await fetch(report.shaderUrl)).text(), readFileSync(join(root, 'shaders/dense.wgsl'), 'utf8'));
  assert.equal(report.samplesEqual, true, 'Philox samples differ from the CPU twin');
  // Relative error (with a 1e-5 floor) below 1e-4, the suite's rtol (test/ops/cases.ts); measured ≤ 2.2e-5.
  for (const [op, err] of Object.entries(report.errors)) assert.ok(err < 1e-4, `${op}: relative error ${err}`);
});
