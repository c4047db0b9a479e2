// The English the CLI prints is byte-identical to what it printed before the core's messages
// became facts (a message id and its parameters) rendered by one English renderer: the fixture
// test/fixtures/cli-english.json was recorded by scripts/i18n/cli-english.ts before that change.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CASES, capture } from '../../scripts/i18n/cli-english.ts';

const recorded = JSON.parse(readFileSync(new URL('../fixtures/cli-english.json', import.meta.url), 'utf8')) as Awaited<
  ReturnType<typeof capture>
>[];

test('the CLI prints the recorded English for layouts, ConfigErrors, schedule and dynamic, byte for byte', {
  timeout: 300_000,
}, async () => {
  assert.deepEqual(
    CASES.map((c) => c.join(' ')),
    recorded.map((r) => r.args.join(' ')),
    'the fixture was recorded from these cases',
  );
  assert.ok(recorded.some((r) => r.status === 2) && recorded.some((r) => r.status === 0));
  for (const want of recorded) {
    const got = await capture(want.args);
    assert.equal(got.stderr, want.stderr, want.args.join(' '));
    assert.equal(got.stdout, want.stdout, want.args.join(' '));
    assert.equal(got.status, want.status, want.args.join(' '));
  }
});
