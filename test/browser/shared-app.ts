// What scripts/test.js starts once for all browser test files (Node runs each file in its own
// process): the two production builds (app-build.ts), one static server of the test app with
// COOP/COEP, and one headless Chromium that the files connect to. The harness finds them through
// the environment variables returned here; every test still gets a fresh browser context.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite, buildTestApp } from './app-build.ts';
import { launchChromiumServer } from './chromium.ts';
import { serveDir } from './static-server.ts';

export interface SharedApp {
  /** GRPO_TEST_APP_URL (the test app's server), GRPO_TEST_BROWSER (Chromium's WebSocket endpoint), GRPO_TEST_SITE (`npm run build`'s output). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startSharedApp(): Promise<SharedApp> {
  const dir = mkdtempSync(join(tmpdir(), 'grpo-test-builds-'));
  const app = join(dir, 'app');
  const site = join(dir, 'site');
  const browser = launchChromiumServer();
  try {
    await buildTestApp(app);
    await buildSite(site);
    const server = await serveDir(app, { isolated: true, spaFallback: true });
    const chromium = await browser;
    return {
      env: { GRPO_TEST_APP_URL: server.url, GRPO_TEST_BROWSER: chromium.wsEndpoint(), GRPO_TEST_SITE: site },
      async close() {
        await chromium.close();
        await server.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await (await browser.catch(() => null))?.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
