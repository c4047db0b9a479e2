// Debian's headless Chromium with WebGPU through SwiftShader (docs/runtimes.md): where it is and
// how it is started, for the harness (one browser per test file when run alone) and for the test
// runner's shared browser (scripts/test.js, through shared-app.ts).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core';
import { tempDir } from '../helpers/temp-dir.ts';

/** Debian's Chromium, as `.ci/run` installs it; override with GRPO_CHROMIUM. */
export const chromiumPath = process.env.GRPO_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Chromium keeps only the last `--enable-features` and the last `--disable-features` on its command
 * line, and Playwright passes its own lists before ours, so ours repeat Playwright's (playwright-core
 * 1.65's chromiumSwitches; a test reads the launched browser's command line and fails when a name of
 * Playwright's is dropped) and add to them.
 */
const PLAYWRIGHT_ENABLED_FEATURES = ['CDPScreenshotNewSurface', 'SkipListAccountsWithoutGaiaCookies'];
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];
/**
 * PreloadTopChromeWebUI: every new context is a new window, and headless Chromium preloads each
 * window's omnibox popup, a WebUI page in a renderer of its own: about 340 ms of CPU per context,
 * beside the page being loaded (measured in a trace; a reader's browser pays it once per window, not
 * per page). No page sees the omnibox, so the tests and benches go without it.
 */
const disabledFeatures = `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'PreloadTopChromeWebUI'].join(',')}`;

/**
 * Flags that give headless Chromium a WebGPU adapter without a GPU (docs/runtimes.md). The page is
 * composited in software (`--disable-gpu-compositing`) while WebGPU keeps SwiftShader's Vulkan: with
 * the compositor on SwiftShader too, every frame went through an emulated GPU, and the browser tests
 * used 594 CPU-s instead of 470 (test/README.md). What a test draws with WebGPU is read back from the
 * device, not from the compositor.
 */
export const chromiumArgs = [
  '--enable-unsafe-webgpu',
  '--use-webgpu-adapter=swiftshader',
  `--enable-features=${[...PLAYWRIGHT_ENABLED_FEATURES, 'Vulkan'].join(',')}`,
  disabledFeatures,
  '--use-vulkan=swiftshader',
  '--use-angle=swiftshader',
  '--disable-gpu-compositing',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Chromium as a machine without a GPU runs it for a reader: no WebGPU flags (`--disable-gpu`), so
 * there is no GPU process at all and the page is composited in software (bench/README.md).
 */
export const readerChromiumArgs = [
  '--disable-gpu',
  disabledFeatures,
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
  const runtimeDir = tempDir('grpo-xdg-');
  return { executablePath: chromiumPath, headless: true, args: [...args], env: { ...process.env, XDG_RUNTIME_DIR: runtimeDir } };
}

/** Launches headless Chromium with the WebGPU/SwiftShader flags (or `args`) and a fresh temporary profile. */
export function launchChromium(args: readonly string[] = chromiumArgs): Promise<Browser> {
  return chromium.launch(launchOptions(args));
}

/** The same browser as a server other processes connect to (`chromium.connect(server.wsEndpoint())`). */
export function launchChromiumServer(args: readonly string[] = chromiumArgs): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions(args));
}
