// The attributes of <grpo-schedule> and <grpo-dynamic>, named like the CLI flags,
// turned into the simulators' configurations by the CLI's rules, with one-line errors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DYNAMIC_PRESETS } from '../../src/core/dynamic/index.ts';
import { schedulePresets, simulateSchedules } from '../../src/core/schedule/index.ts';
import { dynamicRequest } from '../../src/ui/dynamic/dynamic-request.ts';
import { scheduleRequest } from '../../src/ui/schedule/schedule-request.ts';
import { clausesText, type SaidFact } from '../../src/ui/core-text.ts';

test('schedule attributes: seed-001 by default (20T serially, 5T per rank), flags applied over the preset', () => {
  const seed = scheduleRequest({}, null);
  assert.deepEqual(seed.config, schedulePresets['seed-001']!.config);
  const r = simulateSchedules(seed.config);
  assert.deepEqual(
    r.schemes.map((s) => [s.scheme, s.makespan]),
    [
      ['serial-dp', 20],
      ['per-rank-serial', 5],
      ['per-rank-batched', 5],
      ['by-structure', 5],
      ['spread', 5.1],
    ],
  );
  const custom = scheduleRequest({ ranks: '2', alpha: '0.5', 'max-batch': '3', 'config-time': '40', schemes: 'spread,serial-dp' }, null);
  assert.equal(custom.config.ranks, 2);
  assert.equal(custom.config.alpha, 0.5);
  assert.equal(custom.config.maxBatch, 3);
  assert.deepEqual(custom.config.latency, { kind: 'constant', t: 40, unit: 'ms' });
  assert.deepEqual(custom.schemes, ['serial-dp', 'spread']);
  assert.equal(
    scheduleRequest({ policy: 'uniform' }, null).config.latency.kind,
    'controller',
    'policy implies the controller latency, as --policy does',
  );
});

test('schedule attributes: mistakes are one line naming the attribute', () => {
  const err = (a: Record<string, string>) => {
    try {
      scheduleRequest(a, null);
    } catch (e) {
      const clauses = (e as { clauses: readonly SaidFact[] | null }).clauses;
      return clauses ? clausesText(clauses, true) : (e as Error).message;
    }
    return 'no error';
  };
  assert.equal(err({ k: 'five' }), "k must be a whole number, got 'five'");
  assert.equal(err({ alpha: '2' }), 'alpha must be between 0 and 1, got 2');
  assert.equal(
    err({ latency: 'constant', policy: 'uniform' }),
    'policy draws configurations for latency controller; drop latency constant or policy',
  );
  assert.equal(err({ policy: 'trained' }), 'policy trained needs a run of `grpo-sandbox train`: give its checkpoint.json and config.json');
  assert.match(err({ batch: '100', k: '100' }), /^batch × k = 10000 configurations is more than this view draws \(4096\)/);
  assert.equal(err({ preset: '__proto__' }), "unknown preset '__proto__'; schedule presets: seed-001");
});

test('dynamic attributes: seed-002 by default, seed-004 runs the device fix off then on, preset none draws random rewards', () => {
  const d = dynamicRequest({});
  assert.equal(d.preset, 'seed-002');
  assert.equal(d.config.policy, 'naive');
  assert.deepEqual(d.rewards, DYNAMIC_PRESETS['seed-002']!.rewards);
  assert.deepEqual(d.fixes, [true]);
  assert.deepEqual(dynamicRequest({ preset: 'seed-004' }).fixes, [false, true]);
  assert.deepEqual(dynamicRequest({ preset: 'seed-004', 'device-fix': 'on' }).fixes, [true]);
  assert.equal(dynamicRequest({ preset: 'seed-002', policy: 'rebalance' }).config.policy, 'rebalance');
  const random = dynamicRequest({ preset: 'none', ranks: '2', 'per-rank': '8', k: '4', p: '0.3', seed: '7' });
  assert.deepEqual(random.rewards, { kind: 'bernoulli', p: 0.3, seed: 7 });
  assert.equal(random.config.ranks, 2);
  assert.throws(
    () => dynamicRequest({ preset: 'seed-002', ranks: '8' }),
    /^ConfigError: --preset seed-002 fixes --ranks, --per-rank, --k and the reward draws; leave them out or use --preset none$/,
  );
  assert.throws(() => dynamicRequest({ preset: 'none', 'per-rank': '6', k: '4' }), /per-rank batch 6 must be a multiple of k = 4/);
  assert.throws(
    () => dynamicRequest({ policy: 'greedy' }),
    /^ConfigError: --policy must be one of fallback, pad, rebalance, raise, raise-nemo, stream, naive, got 'greedy'$/,
  );
});
