import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withPage } from './harness.ts';

test('the app server sends COOP/COEP, so the page is cross-origin isolated and has SharedArrayBuffer', async () => {
  await withPage('/', async (page) => {
    const r = await page.evaluate(() => ({ isolated: globalThis.crossOriginIsolated, sab: typeof SharedArrayBuffer }));
    assert.deepEqual(r, { isolated: true, sab: 'function' });
  });
});

test('headless Chromium has a WebGPU adapter (SwiftShader) on the localhost page', async () => {
  await withPage('/', async (page) => {
    const info = await page.evaluate(async () => {
      if (!('gpu' in navigator)) return { ok: false, why: 'navigator.gpu missing' };
      const adapter = await navigator.gpu.requestAdapter();
      if (!adapter) return { ok: false, why: 'requestAdapter returned null' };
      const device = await adapter.requestDevice();
      device.destroy();
      return { ok: true, why: adapter.info?.vendor ?? '' };
    });
    assert.equal(info.ok, true, `no WebGPU in headless Chromium: ${info.why}`);
  });
});

test('the page can import a core module by its source path (an entry of the test build)', async () => {
  await withPage('/', async (page) => {
    const name = await page.evaluate(async () => {
      const mod = await import('/src/core/errors.ts' as string);
      return new mod.ConfigError('x').name as string;
    });
    assert.equal(name, 'ConfigError');
  });
});
