// Chromium keeps only the last --enable-features and the last --disable-features it is given, and
// Playwright passes its own lists first: ours (test/browser/chromium.ts) must carry every name of
// Playwright's, or a Playwright update that adds one silently loses it. Read from the command line
// the browser process actually got (/proc, Linux).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromiumArgs, launchChromiumServer, readerChromiumArgs } from './chromium.ts';

for (const [name, args] of [
  ['the tests', chromiumArgs],
  ["a reader's", readerChromiumArgs],
] as const) {
  test(`${name} Chromium: our last --enable-features/--disable-features keep every feature Playwright names before them`, async () => {
    const server = await launchChromiumServer(args);
    try {
      const argv = readFileSync(`/proc/${server.process().pid}/cmdline`, 'utf8').split('\0');
      for (const flag of ['--enable-features=', '--disable-features=']) {
        const lists = argv.filter((a) => a.startsWith(flag)).map((a) => a.slice(flag.length).split(','));
        const last = new Set(lists.at(-1) ?? []);
        const dropped = lists
          .slice(0, -1)
          .flat()
          .filter((f) => f !== '' && !last.has(f));
        assert.deepEqual(dropped, [], `${flag} names that Chromium would drop (only the last ${flag} counts)`);
      }
      const disabled = argv.filter((a) => a.startsWith('--disable-features=')).at(-1) ?? '';
      assert.match(disabled, /PreloadTopChromeWebUI/, 'no omnibox-popup renderer per context');
    } finally {
      await server.close();
    }
  });
}
