// The side-by-side comparison (src/core/grpo/compare.ts) on the inputs of every golden advantages
// fixture: each scheme's column is exactly that scheme's own output on the same input (the
// sandbox's schemes.ts on one rank, each framework home's compute, whatever the registry holds),
// a refusal is the scheme's own ConfigError; the sandbox's columns equal the numbers the frameworks'
// own code produced (the fixtures); slime's whole-batch fallback and a mixed position group are
// flagged; the summary reads its own column.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { homeAdvantageSchemes } from '../../../src/core/frameworks/index.ts';
import { compareAdvantages, comparedSchemes, type CompareInput, type SchemeColumn, ZERO } from '../../../src/core/grpo/compare.ts';
import { ADVANTAGE_SCHEMES, type AdvantageScheme, schemeAdvantages } from '../../../src/core/grpo/schemes.ts';
import { ConfigError } from '../../../src/core/errors.ts';
import { fixture } from '../../helpers/fixtures.ts';

interface Batch {
  rewards: number[];
  promptIds?: number[];
  uids?: number[];
  k: number;
  ranks?: number;
}

const FIXTURES = [
  'golden-advantages-frameworks.json',
  'golden-advantages.json',
  'golden-slime-advantages.json',
  'golden-nemo-rl-advantages.json',
  'golden-easyr1-advantages.json',
  'golden-areal-advantages.json',
  'golden-skyrl-advantages.json',
  'golden-trl-async-advantages.json',
] as const;

/** Every fixture case that gives a prompt id per reward and a group size: the inputs the frameworks' own code was run on. */
const inputs: { name: string; input: CompareInput }[] = FIXTURES.flatMap((file) =>
  fixture<{ cases: Batch[] }>(file)
    // SkyRL's fixture marks k as informational with 0; the comparison (as the CLI) needs a group size.
    .cases.filter((c) => c.promptIds !== undefined && c.promptIds.length === c.rewards.length && c.k >= 1)
    .map((c, i) => ({ name: `${file} case ${i}`, input: { rewards: c.rewards, promptIds: c.promptIds!, k: c.k } })),
);

/** What a scheme says on its own: its advantages (null for NaN), or its refusal. */
function alone(scheme: string, input: CompareInput): { advantages: (number | null)[] | null; refused: string | null } {
  try {
    const own = homeAdvantageSchemes().find((h) => h.def.scheme === scheme);
    const advantages = own
      ? own.def.compute(input).advantages
      : schemeAdvantages(scheme as AdvantageScheme, { ...input, ranks: 1 }).map((a) => (Number.isNaN(a) ? null : a));
    return { advantages, refused: null };
  } catch (err) {
    assert.ok(err instanceof ConfigError, `${scheme} throws a ConfigError, not ${err}`);
    return { advantages: null, refused: err.message };
  }
}

test('the inputs: every golden advantages fixture with prompt ids, hundreds of batches', () => {
  assert.ok(inputs.length > 200, `${inputs.length} inputs`);
});

test('every scheme the registry holds is compared: the sandbox’s, then each home’s, in that order', () => {
  assert.deepEqual(comparedSchemes(), [...ADVANTAGE_SCHEMES, ...homeAdvantageSchemes().map((h) => h.def.scheme)]);
  const { columns } = compareAdvantages(inputs[0]!.input);
  assert.deepEqual(
    columns.map((c) => c.scheme),
    comparedSchemes(),
  );
  for (const { home, def } of homeAdvantageSchemes()) {
    const col = columns.find((c) => c.scheme === def.scheme)!;
    assert.equal(col.framework, home.title);
    assert.equal(col.version, home.pinned.commit.slice(0, 7));
    assert.equal(col.grouping, def.groupBy);
  }
});

test('each column is its scheme’s own output on the same input, on every fixture input', () => {
  let refused = 0;
  for (const { name, input } of inputs) {
    for (const col of compareAdvantages(input).columns) {
      const own = alone(col.scheme, input);
      assert.deepEqual({ advantages: col.advantages, refused: col.refused }, own, `${name}: ${col.scheme}`);
      if (col.refused) refused++;
    }
  }
  assert.ok(refused > 0, 'some fixture batch is refused by some framework (uneven counts)');
});

/** Float64 in another order (as golden-advantages-frameworks.test.ts allows). */
function close(actual: readonly (number | null)[] | null, expected: number[], what: string, rel = 1e-10) {
  assert.ok(actual, `${what}: refused`);
  assert.equal(actual.length, expected.length, what);
  actual.forEach((a, i) =>
    assert.ok(
      a !== null && Math.abs(a - expected[i]!) <= rel * Math.max(1, Math.abs(expected[i]!)),
      `${what}[${i}]: ${a} vs ${expected[i]}`,
    ),
  );
}
const column = (input: CompareInput, scheme: string): SchemeColumn => compareAdvantages(input, [scheme]).columns[0]!;

test('the sandbox’s columns are the frameworks’ own numbers (flow_grpo and verl run, TRL and DanceGRPO transcribed)', () => {
  type Frameworks = Batch & {
    flowGrpo: { globalStd: number[]; promptStd: number[] };
    verl: { normByStd: number[]; noStd: number[] };
    danceGrpo: { useGroup: number[]; noGroup: number[] };
  };
  for (const c of fixture<{ cases: Frameworks[] }>('golden-advantages-frameworks.json').cases) {
    const byId = { rewards: c.rewards, promptIds: c.promptIds!, k: c.k };
    const byUid = { ...byId, promptIds: c.uids! };
    close(column(byId, 'flow-grpo').advantages, c.flowGrpo.globalStd, 'flow-grpo');
    close(column(byId, 'flow-grpo-prompt-std').advantages, c.flowGrpo.promptStd, 'flow-grpo-prompt-std');
    close(column(byUid, 'verl').advantages, c.verl.normByStd, 'verl');
    close(column(byUid, 'verl-no-std').advantages, c.verl.noStd, 'verl-no-std');
    close(column(byId, 'dance-nogroup').advantages, c.danceGrpo.noGroup, 'dance-nogroup');
    // The comparison runs on one rank: DanceGRPO's per-rank groups are the fixture's only where it ran one rank.
    if (c.ranks === 1) close(column(byId, 'dance').advantages, c.danceGrpo.useGroup, 'dance');
  }
  type Trl = Batch & {
    trl: { group: number[]; batch: number[]; none: number[] };
    danceGrpo: number[];
    flowGrpo: { global: number[]; perPrompt: number[] };
    verl: number[];
  };
  for (const c of fixture<{ cases: Trl[] }>('golden-advantages.json').cases) {
    const byId = { rewards: c.rewards, promptIds: c.promptIds!, k: c.k };
    close(column(byId, 'trl-group').advantages, c.trl.group, 'trl-group');
    close(column(byId, 'trl-batch').advantages, c.trl.batch, 'trl-batch');
    close(column(byId, 'trl-none').advantages, c.trl.none, 'trl-none');
    close(column(byId, 'dance').advantages, c.danceGrpo, 'dance');
    close(column(byId, 'flow-grpo').advantages, c.flowGrpo.global, 'flow-grpo');
    close(column(byId, 'flow-grpo-prompt-std').advantages, c.flowGrpo.perPrompt, 'flow-grpo-prompt-std');
    // As golden-advantages.test.ts says: this transcription gave a lone uid a float64 std of 1, verl's own code a float32 one.
    close(column({ ...byId, promptIds: c.uids! }, 'verl').advantages, c.verl, 'verl', 1e-7);
  }
});

test('slime’s whole-batch fallback is flagged where slime’s own code normalised the batch as one group', () => {
  if (!comparedSchemes().includes('slime')) return;
  type Slime = Batch & { note: string; rolloutBatchSize: number };
  const uneven = fixture<{ cases: Slime[] }>('golden-slime-advantages.json').cases.filter(
    (c) => /one group for the whole batch/.test(c.note) && new Set(c.promptIds).size === c.rolloutBatchSize,
  );
  assert.ok(uneven.length > 0);
  for (const c of uneven) {
    const col = column({ rewards: c.rewards, promptIds: c.promptIds!, k: c.k }, 'slime');
    assert.ok(
      col.warnings.some((w) => w.kind === 'framework' && /whole batch/.test(w.text)),
      `${c.note}: ${JSON.stringify(col.warnings)}`,
    );
  }
});

test('a position group holding two prompts is flagged as mixed for TRL and DanceGRPO, not for flow_grpo or verl', () => {
  // Prompt 0's copies at positions 0 and 2: view(-1, 2) pairs (0,1) and (2,3).
  const input = { rewards: [1, 3, 0, 2], promptIds: [0, 1, 0, 1], k: 2 };
  const { columns } = compareAdvantages(input, ['trl-group', 'dance', 'flow-grpo', 'verl']);
  const mixed = (s: string) => columns.find((c) => c.scheme === s)!.warnings.filter((w) => w.kind === 'mixed');
  assert.deepEqual(mixed('trl-group'), [
    {
      kind: 'mixed',
      groups: [
        { group: 0, positions: [0, 1], promptIds: [0, 1] },
        { group: 1, positions: [2, 3], promptIds: [0, 1] },
      ],
    },
  ]);
  assert.equal(mixed('dance').length, 1);
  assert.equal(mixed('flow-grpo').length, 0);
  assert.equal(mixed('verl').length, 0);
});

test('the summary reads its own column at the highest and lowest reward; a refused column has none', () => {
  for (const { input } of inputs.slice(0, 60)) {
    const r = compareAdvantages(input);
    assert.equal(input.rewards[r.best], Math.max(...input.rewards));
    assert.equal(input.rewards[r.worst], Math.min(...input.rewards));
    assert.equal(input.rewards.indexOf(input.rewards[r.best]!), r.best, 'the first, on a tie');
    for (const col of r.columns) {
      if (!col.advantages) {
        assert.equal(col.summary, null);
        continue;
      }
      assert.equal(col.summary!.best, col.advantages[r.best]);
      assert.equal(col.summary!.worst, col.advantages[r.worst]);
      assert.equal(col.summary!.zero, col.advantages.filter((a) => a !== null && Math.abs(a) < ZERO).length);
      assert.equal(col.summary!.nan, col.advantages.filter((a) => a === null).length);
    }
  }
});

test('a malformed batch or an unknown scheme is a ConfigError naming the field', () => {
  assert.throws(() => compareAdvantages({ rewards: [], promptIds: [], k: 2 }), /rewards is empty/);
  assert.throws(() => compareAdvantages({ rewards: [1, 0], promptIds: [0], k: 2 }), /promptIds has 1 entries but rewards has 2/);
  assert.throws(() => compareAdvantages({ rewards: [1, 0], promptIds: [0, 0], k: 0 }), /k must be a whole number ≥ 1, got 0/);
  assert.throws(() => compareAdvantages({ rewards: [1, 0], promptIds: [0, 0], k: 2 }, ['trl-group', 'nope']), /unknown scheme 'nope'/);
});
