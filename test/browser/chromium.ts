// Debian's headless Chromium with WebGPU through SwiftShader (docs/runtimes.md): where it is and
// how it is started, for the harness (one browser per test file when run alone) and for the test
// runner's shared browser (scripts/test.js, through shared-app.ts).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium, as `.ci/run` installs it; override with GRPO_CHROMIUM. */
export const chromiumPath = process.env.GRPO_CHROMIUM ?? '/usr/bin/chromium';

/** Flags that give headless Chromium a WebGPU adapter without a GPU (docs/runtimes.md). */
export const chromiumArgs = [
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-angle=swiftshader',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Chromium as a machine without a GPU runs it for a reader: no WebGPU flags, so the page is
 * composited in software (the WebGPU flags above composite through SwiftShader's emulated GPU,
 * which on a small machine costs more than the page's own work; bench/README.md).
 */
export const readerChromiumArgs = [
  '--disable-gpu',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function launchOptions(args: readonly string[] = chromiumArgs): LaunchOptions {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: install Debian's chromium (apt-get install chromium, as .ci/run does) or set GRPO_CHROMIUM`,
    );
  }
  // A writable XDG_RUNTIME_DIR silences harmless Mesa/Vulkan warnings.
  const runtimeDir = mkdtempSync(join(tmpdir(), 'grpo-xdg-'));
  return { executablePath: chromiumPath, headless: true, args: [...args], env: { ...process.env, XDG_RUNTIME_DIR: runtimeDir } };
}

/** Launches headless Chromium with the WebGPU/SwiftShader flags (or `args`) and a fresh temporary profile. */
export function launchChromium(args: readonly string[] = chromiumArgs): Promise<Browser> {
  return chromium.launch(launchOptions(args));
}

/** The same browser as a server other processes connect to (`chromium.connect(server.wsEndpoint())`). */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions());
}
