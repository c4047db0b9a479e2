import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultConfig } from '../../src/core/samplers/index.ts';
import { deriveView } from '../../src/ui/explorer-model.ts';
import { promptColour } from '../../src/ui/palette.ts';
import { parseState } from '../../src/ui/url-state.ts';

test('a prompt keeps its colour under every sampler; neighbouring ids never share one', () => {
  for (let p = 0; p < 200; p++) assert.notEqual(promptColour(p), promptColour(p + 1), `P${p} and P${p + 1}`);
  const colourOf = (sampler: 'flow-grpo' | 'trl' | 'dance-grpo') => {
    const config = { ...defaultConfig, sampler, ranks: 4, batch: 4, k: 2, datasetSize: 16 };
    const view = deriveView({ ...parseState('', config, {}), config });
    assert.equal(view.error, null);
    return view.colours;
  };
  const a = colourOf('flow-grpo');
  for (const other of [colourOf('trl'), colourOf('dance-grpo')])
    for (const [id, colour] of other) if (a.has(id)) assert.equal(colour, a.get(id), `P${id}`);
});
