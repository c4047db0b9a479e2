import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  advantagesOfRegroup,
  danceGrpoAdvantages,
  flowGrpoAdvantages,
  sliceToRanks,
  trlAdvantages,
  verlAdvantages,
} from '../../../src/core/grpo/advantages.ts';
import { gathers } from '../../../src/core/layout/index.ts';
import { buildLayout, defaultConfig } from '../../../src/core/samplers/index.ts';

// Expected values come from numpy 2.4 running each framework's formula on the same rewards
// (np.std ddof 0 for flow_grpo, ddof 1 wherever torch.std is used).
const rewards = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8, 0.4];

function close(actual: number[], expected: number[], tol = 1e-9): void {
  assert.equal(actual.length, expected.length);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]!) <= tol, `index ${i}: ${a} vs ${expected[i]}`));
}

test('flow_grpo: mean per prompt (a prompt drawn twice is one 2k group), global ddof-0 std + 1e-4', () => {
  const prompts = [3, 7, 3, 7, 5, 5, 3, 3];
  close(
    flowGrpoAdvantages(rewards, prompts),
    [0.921211777583, -0.368484711033, -0.55272706655, 0.368484711033, 0.921211777583, -0.921211777583, 0.55272706655, -0.921211777583],
  );
});

test("flow_grpo without global_std: std over each prompt's own rewards (ddof 0)", () => {
  const prompts = [3, 7, 3, 7, 5, 5, 3, 3];
  close(
    flowGrpoAdvantages(rewards, prompts, false),
    [1.212090175085, -0.999000999001, -0.727254105051, 0.999000999001, 0.999600159936, -0.999600159936, 0.727254105051, -1.212090175085],
  );
});

test('TRL view(-1, G): per-row mean, unbiased std, scale_rewards group | batch | none', () => {
  close(
    trlAdvantages(rewards, 4, 'group'),
    [1.317079497087, -1.024395164401, 0.146342166343, -0.439026499029, 0.635258223842, -1.179765272849, 0.99826292318, -0.453755874173],
  );
  close(
    trlAdvantages(rewards, 4, 'batch'),
    [1.551123398486, -1.206429309933, 0.172347044276, -0.517041132829, 0.603214654967, -1.120255787795, 0.947908743519, -0.43086761069],
  );
  close(trlAdvantages(rewards, 4, 'none'), [0.45, -0.35, 0.05, -0.15, 0.175, -0.325, 0.275, -0.125]);
});

test('TRL: a reward count that is not a multiple of G is refused with the numbers', () => {
  assert.throws(() => trlAdvantages([1, 2, 3], 2), /3 rewards cannot be viewed as rows of 2/);
});

test('verl: groups by uid, unbiased std + 1e-6; a singleton uid has mean 0 and std 1 (a float32 tensor: 1 + 1e-6 rounds to float32)', () => {
  const uids = ['a', 'b', 'a', 'b', 'c', 'a', 'd', 'd'];
  close(verlAdvantages(rewards, uids), [
    1.044070822363,
    -0.707101781222,
    -0.094915529306,
    0.707101781222,
    0.7 / Math.fround(1 + 1e-6),
    -0.949155293057,
    0.707104281195,
    -0.707104281195,
  ]);
});

test('DanceGRPO: consecutive local groups of G, unbiased std + 1e-8', () => {
  close(
    danceGrpoAdvantages(rewards, 2),
    [0.707106768687, -0.707106768687, 0.707106731187, -0.707106731187, 0.707106761187, -0.707106761187, 0.707106756187, -0.707106756187],
  );
});

test('a group whose rewards all tie gets zero advantages in every framework (no signal)', () => {
  const flat = [1, 1, 1, 1];
  assert.deepEqual(trlAdvantages(flat, 4), [0, 0, 0, 0]);
  assert.deepEqual(verlAdvantages(flat, ['u', 'u', 'u', 'u']), [0, 0, 0, 0]);
  assert.deepEqual(danceGrpoAdvantages(flat, 2), [0, 0, 0, 0]);
  assert.deepEqual(flowGrpoAdvantages(flat, [0, 0, 0, 0]), [0, 0, 0, 0]);
});

test('slice back to ranks: reshape(W, -1)[rank] gives each rank its contiguous block', () => {
  assert.deepEqual(sliceToRanks([0, 1, 2, 3, 4, 5], 3), [
    [0, 1],
    [2, 3],
    [4, 5],
  ]);
  assert.throws(() => sliceToRanks([0, 1, 2], 2), /3 gathered values do not split evenly over 2 ranks/);
});

test("each regrouping takes its framework's advantage: prompt-id → flow_grpo, view → TRL, uid → verl", () => {
  const layout = buildLayout({ ...defaultConfig, sampler: 'flow-grpo' });
  const gather = gathers(layout)[0]!;
  const k = layout.config.k;
  const r = gather.samples.map((_, i) => (i * 7919) % 13);
  const ids = gather.samples.map((s) => s.promptId);
  const uids = gather.samples.map((s) => s.uid);
  assert.deepEqual(advantagesOfRegroup('prompt-id', gather, r, k), flowGrpoAdvantages(r, ids));
  assert.deepEqual(advantagesOfRegroup('view', gather, r, k, 'batch'), trlAdvantages(r, k, 'batch'));
  assert.deepEqual(advantagesOfRegroup('uid', gather, r, k), verlAdvantages(r, uids));
  assert.throws(() => advantagesOfRegroup('view', gather, r, gather.samples.length + 1), /cannot be viewed as rows/);
});
