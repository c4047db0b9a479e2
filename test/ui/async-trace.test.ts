// The asynchronous timeline's pure parts (src/ui/async): the recorded run is the CLI's run (`grpo-sandbox async --json`
// prints the same steps and drops), every completion's stretches by version are cut at the weight updates, the slider
// offers only bounds the framework's own checks accept, the figure marks what was dropped, and the tour states the
// numbers the view shows at each of its steps, in both languages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RULES } from '../../src/core/async/index.ts';
import { asyncFigure } from '../../src/ui/async/async-figure.ts';
import { asyncRequest, boundKey, boundValues } from '../../src/ui/async/async-request.ts';
import { compareAll, segments, traceRun } from '../../src/ui/async/async-trace.ts';
import { en } from '../../src/ui/i18n/en.ts';
import { zhCN } from '../../src/ui/i18n/zh-CN.ts';
import { stepState } from '../../src/ui/tour/tour-state.ts';
import { TOURS } from '../../src/ui/tour/tours.ts';
import { runCli } from '../helpers/cli.ts';

const run = (attrs: Record<string, string>) => {
  const r = asyncRequest(attrs);
  return traceRun(r.workload, r.def, r.values);
};

test('the recorded run is the one `grpo-sandbox async --json` prints, for every framework', async () => {
  for (const def of RULES) {
    const attrs = { framework: def.framework, 'gen-workers': '2', concurrency: '4', steps: '5', seed: '3' };
    const cli = await runCli([
      'async',
      '--framework',
      def.framework,
      '--gen-workers',
      '2',
      '--concurrency',
      '4',
      '--steps',
      '5',
      '--seed',
      '3',
      '--json',
    ]);
    assert.equal(cli.status, 0, cli.stderr);
    const printed = JSON.parse(cli.stdout) as { steps: unknown; dropped: unknown; summary: unknown; settings: unknown };
    const { result } = run(attrs);
    assert.deepEqual(JSON.parse(JSON.stringify(result.steps)), printed.steps, def.framework);
    assert.deepEqual(JSON.parse(JSON.stringify(result.dropped)), printed.dropped, def.framework);
    assert.deepEqual(JSON.parse(JSON.stringify(result.summary)), printed.summary, def.framework);
  }
});

test('the element and `grpo-sandbox async` read the same keys the same way: the same workload, the same one-line refusal', async () => {
  const given = {
    'gen-workers': '3',
    concurrency: '5',
    'train-batch-size': '2',
    k: '6',
    steps: '4',
    'length-distribution': 'long-tail',
    seed: '9',
  };
  const cli = await runCli(['async', '--framework', 'skyrl', ...Object.entries(given).flatMap(([k, v]) => [`--${k}`, v]), '--json']);
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepEqual(asyncRequest({ framework: 'skyrl', ...given }).workload, JSON.parse(cli.stdout).workload);
  for (const [key, bad] of [
    ['k', 'five'],
    ['steps', '0'],
    ['seed', '-1'],
    ['length-distribution', 'zipf'],
    ['gen-workers', '5000'],
    ['step-time', '0'],
  ]) {
    const refused = await runCli(['async', '--framework', 'skyrl', `--${key}`, bad!]);
    assert.equal(refused.status, 2);
    assert.throws(
      () => asyncRequest({ framework: 'skyrl', [key!]: bad }),
      (err: Error) => refused.stderr.trim() === `grpo-sandbox async: ${err.message}`,
      `${key}=${bad}: ${refused.stderr}`,
    );
  }
});

test('every group the rule saw is recorded with its completions; trained ones carry the lengths and versions the steps report', () => {
  const t = run({ framework: 'trl-async', 'max-staleness': '1' });
  assert.deepEqual(
    t.groups.map((g) => g.id),
    t.groups.map((_, i) => i),
  );
  for (const step of t.result.steps)
    for (const s of step.samples) {
      const sample = t.groups[s.group]!.samples[s.index]!;
      assert.equal(sample.length, s.length);
      assert.deepEqual(sample.versions, s.versions ?? [s.version]);
      assert.deepEqual(t.fates[s.group], { kind: 'trained', step: step.step, lag: s.lag });
    }
  assert.ok(t.result.dropped.length > 0);
  for (const d of t.result.dropped) assert.equal(t.fates[d.group]!.kind, 'dropped');
});

test('a completion generated across updates is cut at the ends of the steps that made each new version', () => {
  let multi = 0;
  for (const framework of ['areal', 'nemo-rl', 'trl-async', 'verl']) {
    const t = run({ framework, 'max-staleness': framework === 'verl' ? '1' : '2' });
    const ends = new Set(t.result.steps.map((s) => s.end));
    for (const g of t.groups)
      for (const s of g.samples) {
        const segs = segments(s, t.result.steps, t.end);
        if (s.start < 0) {
          assert.deepEqual(segs, []);
          continue;
        }
        assert.deepEqual(
          segs.map((x) => x.version),
          s.versions,
        );
        assert.equal(segs[0]!.from, s.start);
        assert.equal(segs.at(-1)!.to, s.end < 0 ? t.end : s.end);
        for (let i = 1; i < segs.length; i++) {
          assert.equal(segs[i]!.from, segs[i - 1]!.to, 'contiguous');
          assert.ok(ends.has(segs[i]!.from), `${framework}: a cut at ${segs[i]!.from} is a step's end`);
          assert.equal(segs[i]!.from, t.result.steps[segs[i]!.version - 1]!.end);
          multi++;
        }
      }
  }
  assert.ok(multi > 20, `${multi} cuts checked`);
});

test('the slider offers the bounds the framework accepts, its shipped default among them; slime has none', () => {
  const w = asyncRequest({}).workload;
  const values = (framework: string) => {
    const def = RULES.find((d) => d.framework === framework)!;
    return boundValues(def, boundKey(def)!, w, null);
  };
  assert.deepEqual(values('areal').slice(0, 3), [0, 1, 2]);
  assert.equal(values('open-instruct')[0], 1, 'async_steps ≥ 1');
  assert.equal(values('openrlhf')[0], 1, 'async_queue_size ≥ 1');
  const roll = values('roll');
  assert.ok(roll.includes(0) && roll.includes(1) && roll.includes(1.5) && !roll.includes(0.5), `ROLL: 0 or ≥ 1, got ${roll}`);
  assert.ok(values('verl').includes(0.1), "verl's shipped 0.1");
  assert.equal(boundKey(RULES.find((d) => d.framework === 'slime')!), null);
  assert.throws(() => asyncRequest({ framework: 'nope' }), /unknown framework 'nope'; choose one of areal, nemo-rl/);
  assert.throws(() => asyncRequest({ k: 'five' }), /k/);
});

test('the figure: one bar per started completion, the dropped ones outlined and crossed, two colours where an update reached one', () => {
  const t = run({ framework: 'trl-async', 'max-staleness': '1' });
  const svg = asyncFigure(t, en.async.figure);
  const started = t.groups.flatMap((g) => g.samples).filter((s) => s.start >= 0).length;
  assert.equal([...svg.matchAll(/<g class="completion /g)].length, started);
  const droppedBars = t.groups.filter((g) => t.fates[g.id]!.kind === 'dropped').flatMap((g) => g.samples.filter((s) => s.start >= 0));
  assert.equal([...svg.matchAll(/<g class="completion dropped"/g)].length, droppedBars.length);
  assert.equal([...svg.matchAll(/stroke="#c00" stroke-width="1.6"/g)].length, droppedBars.length, 'a red ✕ each');
  const twoColours = [
    ...svg.matchAll(/<g class="completion [a-z]+"[^>]*data-versions="(\d+) (\d+)"><title>[^<]*<\/title>(<rect [^>]*\/>)(<rect [^>]*\/>)/g),
  ];
  assert.ok(twoColours.length > 0);
  for (const m of twoColours) assert.notEqual(/fill="(#\w+)"/.exec(m[3]!)![1], /fill="(#\w+)"/.exec(m[4]!)![1]);
  assert.equal([...svg.matchAll(/<g class="step"/g)].length, t.result.steps.length);
  assert.ok([...svg.matchAll(/<g class="idle"/g)].length > 0, "the trainer's waits are drawn");
});

test('the figure drawn for a 358 px column: the time axis scaled to fit, every bar, step and tick inside, labels apart', () => {
  const t = run({ framework: 'trl-async', 'max-staleness': '1' });
  const wide = asyncFigure(t, en.async.figure);
  const svg = asyncFigure(t, en.async.figure, 358);
  assert.equal(/<svg[^>]* width="(\d+)"/.exec(svg)![1], '358');
  const rights = [...svg.matchAll(/<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/g)].map((m) => Number(m[1]) + Number(m[2]));
  assert.ok(rights.length > 0 && Math.max(...rights) <= 358, `drawn to ${Math.max(...rights)}`);
  // The same bars and steps as at full width.
  for (const re of [/<g class="completion /g, /<g class="step"/g, /<g class="idle"/g])
    assert.equal([...svg.matchAll(re)].length, [...wide.matchAll(re)].length, re.source);
  // The axis's tick labels at least 40 px apart (fewer ticks on a short axis).
  const ticks = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+" text-anchor="middle" fill="#333">[\d.]+<\/text>/g)].map((m) =>
    Number(m[1]),
  );
  assert.ok(ticks.length >= 2, `${ticks.length} ticks`);
  for (let i = 1; i < ticks.length; i++) assert.ok(ticks[i]! - ticks[i - 1]! >= 40, `ticks at ${ticks.join(', ')}`);
});

test('the async tour states the numbers the view shows at each step, in English and in Chinese', () => {
  const tour = TOURS['async-grpo']!;
  const at = (i: number) => run(stepState(tour, i).set);
  const says = (i: number, ...facts: string[]) => {
    for (const text of [en.tours.steps['async-grpo']![i]!, zhCN.tours.steps['async-grpo']![i]!])
      for (const f of facts) assert.ok(text.includes(f), `step ${i + 1} says ${f}: ${text}`);
  };
  const one = at(0).result;
  assert.equal(one.summary.maxLag, 0);
  assert.ok(
    one.steps.every((s) => Object.keys(s.byVersion).join() === String(s.version)),
    'one version per step',
  );
  says(0, one.summary.trainerIdle.toFixed(1), one.summary.makespan.toFixed(1), '= 0');
  const two = at(1);
  const s2 = two.result.summary;
  assert.ok(
    two.result.steps.some((s) => Object.keys(s.byVersion).length > 1),
    'batches mix versions',
  );
  assert.ok(
    two.groups.some((g) => g.samples.some((s) => s.versions.length > 1)),
    'a completion of two versions',
  );
  assert.equal(two.result.settings['rollout.max_head_offpolicyness'], 2);
  says(1, s2.trainerIdle.toFixed(1), one.summary.trainerIdle.toFixed(1), s2.makespan.toFixed(1), `${s2.maxLag}`, '= 2');
  assert.ok(s2.maxLag > 2);
  const three = at(2).result;
  const hard3 = three.summary.lengthBias.byDifficulty.hard!;
  assert.equal(hard3.trained, 0);
  assert.ok(three.dropped.every((d) => d.why === 'stale-at-consumption'));
  says(
    2,
    `${three.dropped.length} `,
    `${hard3.generated} `,
    three.summary.lengthBias.trainedMean.toFixed(0),
    three.summary.lengthBias.generatedMean.toFixed(0),
    `${(three.summary.lengthBias.bias * 100).toFixed(1).replace('-', '−')}%`,
    '= 1',
  );
  const four = at(3).result;
  const count = (why: string) => four.dropped.filter((d) => d.why === why).length;
  assert.equal(four.settings['async_rl.sampler.name'], 'windowed');
  assert.equal(four.settings['async_rl.sampler.max_staleness_versions'], 1);
  assert.equal(count('evicted') + count('aborted-in-flight'), four.dropped.length);
  assert.equal(four.summary.lengthBias.byDifficulty.hard!.trained, 0);
  says(3, `${count('evicted')} `, `${count('aborted-in-flight')} `, `${four.summary.lengthBias.byDifficulty.hard!.generated} `);
  // The table: every framework at its shipped settings on the tour's workload.
  const rows = compareAll(asyncRequest(stepState(tour, 4).set).workload);
  const row = (f: string) => rows.find((r) => r.def.framework === f)!.result.summary;
  const idle = Math.max(...rows.map((r) => r.result.summary.trainerIdle));
  for (const f of ['areal', 'roll']) {
    assert.equal(row(f).maxLag, 0, f);
    assert.equal(row(f).trainerIdle, idle, `${f} idles longest`);
  }
  for (const f of ['prime-rl', 'open-instruct', 'skyrl', 'slime']) {
    assert.equal(row(f).dropped, 0, f);
    assert.equal(row(f).maxLag, 5, f);
  }
  assert.deepEqual(
    rows.filter((r) => r.result.summary.dropped === 0 && r.result.summary.maxLag === 5).map((r) => r.def.framework),
    ['prime-rl', 'open-instruct', 'skyrl', 'slime'],
  );
  says(4, idle.toFixed(1), ' 5');
});
