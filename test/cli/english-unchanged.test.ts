// The English the CLI prints is byte-identical to what it printed before the core's messages
// became facts (a message id and its parameters) rendered by one English renderer: the fixture
// test/fixtures/cli-english.json was recorded by scripts/i18n/cli-english.ts before that change
// (stderr and the layout notes in clear, all of stdout as its SHA-256); test/fixtures/core-english.json,
// recorded by scripts/i18n/core-english.ts from the same code, holds every distinct error and note
// the explorer settings reach.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CASES, capture, type Printed } from '../../scripts/i18n/cli-english.ts';

const recorded = JSON.parse(readFileSync(new URL('../fixtures/cli-english.json', import.meta.url), 'utf8')) as Printed[];

test('the CLI prints the recorded English for layouts, ConfigErrors, schedule and dynamic, byte for byte', {
  timeout: 300_000,
}, async () => {
  assert.deepEqual(
    CASES.map((c) => c.join(' ')),
    recorded.map((r) => r.args.join(' ')),
    'the fixture was recorded from these cases',
  );
  assert.ok(recorded.some((r) => r.status === 2) && recorded.some((r) => r.status === 0));
  assert.ok(new Set(recorded.flatMap((r) => r.notes)).size > 50, 'the cases reach many distinct notes');
  for (const want of recorded) {
    const got = await capture(want.args);
    assert.equal(got.stderr, want.stderr, want.args.join(' '));
    assert.deepEqual(got.notes, want.notes, want.args.join(' '));
    assert.equal(got.stdoutSha256, want.stdoutSha256, want.args.join(' '));
    assert.equal(got.status, want.status, want.args.join(' '));
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
