import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageWords, withCode } from '../../src/ui/page-text.ts';
import { validateConfig, defaultConfig } from '../../src/core/samplers/index.ts';

test("the core's CLI wording is said in the page's words: setting labels for flags, NaN in words", () => {
  const text = pageWords(
    '--sampler trl does not use --batches-per-epoch: only flow-grpo read(s) it; leave it out or use --sampler flow-grpo',
  );
  assert.doesNotMatch(text, /--/);
  assert.match(text, /^sampler trl does not use batches per epoch: /);
  const nan = validateConfig({ ...defaultConfig, k: Number.NaN });
  assert.ok(nan);
  assert.doesNotMatch(pageWords(nan.message), /NaN|--/);
  assert.equal(pageWords('--fault shape'), '--fault shape', 'flags that are not settings stay as they are');
});

test('backticks become code spans', () => {
  const parts = withCode('use `grpo-sandbox ranks --fault shape` here');
  assert.equal(parts.length, 3);
  assert.equal(parts[0], 'use ');
  assert.equal(typeof parts[1], 'object');
});
