import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig } from '../../src/core/samplers/index.ts';
import { deriveView } from '../../src/ui/explorer-model.ts';
import { caption } from '../../src/ui/story.ts';
import { parseState } from '../../src/ui/url-state.ts';

/** The scatter caption for a configuration, with the facts it reads taken from the core. */
function scatterCaption(config: typeof defaultConfig): string {
  return caption('scatter', deriveView({ ...parseState('', config, {}), config }).caption);
}

test('the scatter caption says what the layout really did with the copies', () => {
  // seed-000 (flow_grpo, seed 42): rank 3 holds two copies of p13, so "all on different ranks" would be false.
  assert.match(scatterCaption(defaultConfig), /up to 2 on one rank in one step\): no rank receives a whole group/);
  // contiguous (DanceGRPO): every group sits whole on one rank.
  assert.match(scatterCaption({ ...defaultConfig, sampler: 'contiguous', batch: 4 }), /a rank can receive all 4 copies/);
  // one slot per rank: the copies can only land on different ranks.
  assert.match(scatterCaption({ ...defaultConfig, batch: 1, k: 4 }), /land on 4 different ranks/);
});
