// `train --advantage` takes every framework home's scheme as `advantages --scheme` does: the settings
// reader and checkTrainConfig accept them, the training step's slot advantages are the home's own
// function over the whole gathered batch (sliced per rank, NaN where it gives null), one rank on the
// device (whose kernel has only the sandbox's group rules) is refused, and a short run learns.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { homeAdvantageSchemes } from '../../../src/core/frameworks/index.ts';
import { schemeGroups } from '../../../src/core/grpo/scheme-groups.ts';
import { schemeAdvantages, TRAIN_SCHEMES } from '../../../src/core/grpo/schemes.ts';
import { slotAdvantages } from '../../../src/core/grpo/slot-advantages.ts';
import { checkTrainConfig, DEFAULT_TRAIN, lossNearZeroByConstruction } from '../../../src/train/config.ts';
import { trainConfigFrom } from '../../../src/train/settings.ts';
import { lastMean, randomFraction, runTrain } from '../../train/helpers.ts';

const homes = homeAdvantageSchemes();

/** Two ranks × 8 slots, k = 4: four prompts, rewards with ties and one flat group. */
const input = {
  rewards: [0.5, 1, 0, 0.25, 0.75, 0.75, 0.75, 0.75, 1, 0, 0, 1, 0.125, 0.5, 0.875, 0.25],
  promptIds: [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
  k: 4,
  ranks: 2,
};

test('every home scheme is a train --advantage choice, after the sandbox schemes', () => {
  assert.ok(homes.length >= 20, `${homes.length} home schemes`);
  for (const { def } of homes) assert.ok(TRAIN_SCHEMES.includes(def.scheme), def.scheme);
  const get = (scheme: string) => (key: string) => (key === 'advantage' ? scheme : undefined);
  for (const { def } of homes) {
    const c = trainConfigFrom(get(def.scheme));
    assert.equal(c.advantage, def.scheme);
    checkTrainConfig({ ...c, ranks: 2, batch: 8, k: 4, sampler: 'trl' });
  }
});

test("each home scheme's slot advantages are the home's own function over the whole batch, bit for bit", () => {
  for (const { def } of homes) {
    const want = def.compute({ rewards: input.rewards, promptIds: input.promptIds, k: input.k }).advantages.map((a) => a ?? Number.NaN);
    assert.deepEqual(schemeAdvantages(def.scheme, input), want, def.scheme);
    for (const from of [0, 8]) {
      const got = slotAdvantages(def.scheme, input, from, new Float64Array(8));
      assert.deepEqual(Array.from(got), want.slice(from, from + 8), `${def.scheme} from ${from}`);
    }
  }
});

test('a home scheme has no kernel rule: one rank on webgpu is refused, and its loss is not claimed ~0 by construction', () => {
  const [{ def }] = homes as [(typeof homes)[number]];
  assert.throws(() => schemeGroups(def.scheme, input), /framework home's scheme/);
  assert.throws(
    () => checkTrainConfig({ ...DEFAULT_TRAIN, advantage: def.scheme, backend: 'webgpu', ranks: 1, batch: 8, k: 4, sampler: 'trl' }),
    /the device's kernel cannot compute/,
  );
  assert.equal(lossNearZeroByConstruction({ ...DEFAULT_TRAIN, advantage: def.scheme, beta: 0 }), false);
});

for (const advantage of ['nemo-rl', 'slime', 'ms-swift']) {
  test(`train --advantage ${advantage} beats the random policy`, async () => {
    const r = await runTrain({ ranks: 2, batch: 16, k: 4, sampler: 'trl', steps: 20, advantage });
    assert.ok(lastMean(r.plain, 5) > randomFraction() + 0.05, `last 5 steps at ${lastMean(r.plain, 5)}`);
  });
}
