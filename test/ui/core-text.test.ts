import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clausesText, withCode } from '../../src/ui/core-text.ts';
import { validateConfig, defaultConfig } from '../../src/core/samplers/index.ts';
import { say } from '../../src/core/messages/index.ts';

test("the core's facts in the page's English: setting labels for flags, NaN in words, the rest as the CLI says it", () => {
  const nan = validateConfig({ ...defaultConfig, k: Number.NaN });
  assert.ok(nan?.clauses);
  assert.match(nan.message, /got NaN$/, 'the CLI quotes the value');
  assert.doesNotMatch(clausesText(nan.clauses), /NaN|--/);
  assert.match(clausesText(nan.clauses), /^k must be a whole number ≥ 1, got an empty or non-numeric value$/);
  // A fix naming a flag: the page says the setting's label.
  const fix = { id: 'fix.sampler', params: { sampler: 'flow-grpo' } } as const;
  assert.equal(say(fix), 'use --sampler flow-grpo');
  assert.doesNotMatch(clausesText([fix]), /--/);
  // A rule with its fixes: the same clauses as the CLI's message, joined the same way (the flag said as its label).
  const k3 = validateConfig({ ...defaultConfig, k: 3 });
  assert.ok(k3?.clauses);
  assert.equal(clausesText(k3.clauses), k3.message.replace('use --sampler', 'use sampler'));
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

test('advantageErrorWords: TRL rows, slice back (the core’s facts), and anything else prefixed in words', async () => {
  const { advantageErrorWords } = await import('../../src/ui/core-text.ts');
  const { trlAdvantages, sliceToRanks } = await import('../../src/core/grpo/advantages.ts');
  const messageOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e;
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
  assert.equal(advantageErrorWords(new Error('something odd: `x`')), 'No advantages for this regrouping: something odd: `x`');
});
