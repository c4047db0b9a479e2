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

test('advantage errors are said in the page’s words, from the core’s own failures', async () => {
  const { deriveView } = await import('../../src/ui/explorer-model.ts');
  const { parseState } = await import('../../src/ui/url-state.ts');
  // 3 ranks × 1 slot, k = 3: DanceGRPO's local groups would need k samples per rank; a rank holds 2 (2 steps of 1).
  const config = { ...defaultConfig, sampler: 'flow-grpo' as const, ranks: 3, batch: 1, k: 3, datasetSize: 16 };
  assert.equal(validateConfig(config), null);
  const view = deriveView({ ...parseState('', config, {}), config, regroup: 'local' });
  assert.equal(
    view.advantageError,
    "No advantages for this regrouping: DanceGRPO's local groups needs rows of k = 3 samples, but a rank holds 2, which is not a multiple of 3.",
  );
  // The same failure as the second picture of a comparison: the sentence names the rows, then the failure in words.
  const compared = deriveView({ ...parseState('', config, {}), config, regroup: 'prompt-id', compare: 'local' });
  assert.ok(compared.compare);
  assert.match(
    compared.compare.text,
    /^DanceGRPO's local groups on flow_grpo's gather .*\. No advantages for this regrouping: DanceGRPO's local groups needs/,
  );
  assert.doesNotMatch(compared.compare.text + compared.compare.rowsText, /view\(-1, G\)|rewards cannot be viewed/);
  // Before the advantages exist the sentence speaks of rows only.
  assert.doesNotMatch(compared.compare.rowsText, /No advantages|differ|equal/);
  assert.match(compared.compare.rowsText, /compared in the advantages phase/);
  // The other way round: the followed regrouping has no advantages, so nothing is said to "equal" them.
  const reversed = deriveView({ ...parseState('', config, {}), config, regroup: 'local', compare: 'prompt-id' });
  assert.match(reversed.compare!.text, /DanceGRPO's local groups has no advantages here to compare with\.$/);
});

test('advantageErrorWords: TRL rows, slice back, and anything else prefixed in words', async () => {
  const { advantageErrorWords } = await import('../../src/ui/page-text.ts');
  const { trlAdvantages, sliceToRanks } = await import('../../src/core/grpo/advantages.ts');
  const messageOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('expected a throw');
  };
  assert.equal(
    advantageErrorWords(messageOf(() => trlAdvantages([1, 2, 3], 2))),
    "No advantages for this regrouping: TRL's rewards.view(-1, k) needs rows of k = 2 samples, but the gather holds 3, which is not a multiple of 2.",
  );
  assert.equal(
    advantageErrorWords(messageOf(() => sliceToRanks([0, 1, 2], 2))),
    'No advantages to slice back: the 3 gathered samples do not split evenly over 2 ranks.',
  );
  assert.equal(advantageErrorWords('something odd: `x`'), 'No advantages for this regrouping: something odd: `x`');
});
