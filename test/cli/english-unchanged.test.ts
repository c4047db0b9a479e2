// The English the CLI prints, held as readable snapshots: test/fixtures/cli-english/*.txt, one
// file per command (per preset for the layouts), each case's command, status, stdout and stderr.
// A change shows as lines in git's diff; `npm run snapshots` records the new text once it is meant.
// test/fixtures/core-english.json, recorded by scripts/i18n/core-english.ts, holds every distinct
// error and note the explorer settings reach.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CASES, capture, SNAPSHOT_DIR, snapshots, type Printed } from '../../scripts/i18n/cli-english.ts';

/** The first lines where two texts differ, as a short diff a reader can act on. */
function firstDifference(want: string, got: string): string {
  const a = want.split('\n');
  const b = got.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const header =
    a
      .slice(0, i)
      .reverse()
      .find((l) => l.startsWith('=== ')) ?? '';
  return [header, `line ${i + 1}:`, ...a.slice(i, i + 6).map((l) => `- ${l}`), ...b.slice(i, i + 6).map((l) => `+ ${l}`)].join('\n');
}

test('the CLI prints the English its snapshots hold (test/fixtures/cli-english/; npm run snapshots records a change)', {
  timeout: 300_000,
}, async () => {
  const printed: Printed[] = [];
  for (const args of CASES) printed.push(await capture(args));
  assert.ok(printed.some((r) => r.status === 2) && printed.some((r) => r.status === 0));
  for (const [name, text] of snapshots(printed)) {
    let want = '';
    try {
      want = readFileSync(`${SNAPSHOT_DIR}${name}`, 'utf8');
    } catch {
      assert.fail(`test/fixtures/cli-english/${name} is missing: run npm run snapshots`);
    }
    if (want !== text)
      assert.fail(`test/fixtures/cli-english/${name} differs (npm run snapshots records it once meant):\n${firstDifference(want, text)}`);
  }
});

test('the core says the recorded English for every error and note the explorer settings reach', async () => {
  const { coreEnglish } = await import('../../scripts/i18n/core-english.ts');
  const want = JSON.parse(readFileSync(new URL('../fixtures/core-english.json', import.meta.url), 'utf8')) as {
    asked: string;
    said: string;
  }[];
  assert.ok(want.length > 800, `only ${want.length} messages recorded`);
  assert.deepEqual(coreEnglish(), want);
});

test('the settings tables and the features’ rules say the recorded English for every error the sweep reaches', async () => {
  const { settingsEnglish } = await import('../../scripts/i18n/settings-english.ts');
  const want = JSON.parse(readFileSync(new URL('../fixtures/settings-english.json', import.meta.url), 'utf8')) as {
    asked: string;
    said: string;
  }[];
  assert.ok(want.length > 1000, `only ${want.length} messages recorded`);
  assert.deepEqual(settingsEnglish(), want);
});
