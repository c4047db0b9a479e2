// The sampler homes' one list (src/core/frameworks/sampler-homes.ts) is what every area registry lists: the
// samplers, the steps models, the advantage schemes, the sampler defaults, the `--emit` targets, the version
// rules and TRL's readings, each in the list's order, and every home folder with such a piece is in the list.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { EMIT_TARGETS, emitterOf } from '../../../src/core/bridge/emit.ts';
import { versionNote } from '../../../src/core/bridge/versions.ts';
import { TRL_FRAMEWORKS } from '../../../src/core/frameworks/trl/wrappers.ts';
import { SAMPLER_HOMES } from '../../../src/core/frameworks/sampler-homes.ts';
import { frameworkDefaults } from '../../../src/core/grpo/framework-defaults.ts';
import { ADVANTAGE_SCHEMES, schemeDefOf } from '../../../src/core/grpo/schemes.ts';
import { samplerNames, samplers } from '../../../src/core/samplers/index.ts';
import { FRAMEWORK_NAMES, FRAMEWORKS, type FrameworkSpec } from '../../../src/core/steps/frameworks.ts';
import type { SchemeDef } from '../../../src/core/grpo/scheme-types.ts';

const frameworksDir = new URL('../../../src/core/frameworks/', import.meta.url);

test('the homes have unique names, and each folder home is the one its index.ts exports', async () => {
  const names = SAMPLER_HOMES.map((h) => h.name);
  assert.equal(new Set(names).size, names.length, names.join(', '));
  for (const home of SAMPLER_HOMES) {
    if (home.name === 'contiguous') continue; // the generic sampler's entry (src/core/samplers/contiguous-home.ts)
    const mod = await import(new URL(`${home.name}/index.ts`, frameworksDir).href);
    assert.equal(mod.home, home, home.name);
  }
});

test('every folder with a sampler, a steps model or a reading of TRL is in the list (its one registry line)', () => {
  const pieces = ['sampler.ts', 'steps.ts', 'trl-reading.ts'];
  const folders = readdirSync(frameworksDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && pieces.some((p) => existsSync(new URL(`${d.name}/${p}`, frameworksDir))))
    .map((d) => d.name);
  const listed = new Set(SAMPLER_HOMES.map((h) => h.name));
  assert.deepEqual(
    folders.filter((f) => !listed.has(f)),
    [],
  );
  assert.ok(folders.length >= 7, folders.join(', '));
});

test('the samplers are the homes’ samplers, in the homes’ order, each with its home’s default', () => {
  assert.deepEqual(
    samplerNames,
    SAMPLER_HOMES.flatMap((h) => h.samplers.map((s) => s.name)),
  );
  for (const home of SAMPLER_HOMES) {
    for (const spec of home.samplers) assert.equal(samplers[spec.name], spec, spec.name);
    // One default per sampler of the home, for its own samplers only.
    assert.deepEqual(
      home.samplerDefaults.map((d) => d.sampler),
      home.samplers.map((s) => s.name),
      home.name,
    );
  }
  assert.deepEqual(Object.keys(frameworkDefaults), samplerNames);
});

test('the steps models, the schemes and the emit targets are the homes’, in the homes’ order', () => {
  const steps = SAMPLER_HOMES.flatMap<FrameworkSpec>((h) => h.steps);
  assert.deepEqual(
    FRAMEWORK_NAMES,
    steps.map((s) => s.name),
  );
  for (const spec of steps) assert.equal(FRAMEWORKS[spec.name], spec);
  const schemes = SAMPLER_HOMES.flatMap<SchemeDef>((h) => h.schemes);
  assert.deepEqual(
    ADVANTAGE_SCHEMES,
    schemes.map((s) => s.scheme),
  );
  for (const def of schemes) assert.equal(schemeDefOf(def.scheme as (typeof ADVANTAGE_SCHEMES)[number]), def);
  const emitters = SAMPLER_HOMES.flatMap((h) => ('absent' in h.emitter ? [] : [h.emitter]));
  assert.deepEqual(
    EMIT_TARGETS,
    emitters.map((e) => e.target),
  );
  for (const e of emitters) assert.equal(emitterOf(e.target), e);
});

test('each home’s version rule answers for its probe name; a home without one says why', () => {
  for (const home of SAMPLER_HOMES) {
    const rule = home.versionRule;
    if ('absent' in rule) {
      assert.ok(rule.absent.length > 20, home.name);
      continue;
    }
    // The registry finds the home's rule by the name its probe logs: the same verdict as the rule's own.
    const own = rule.check('0.0.1', (what) => what, false);
    assert.notEqual(own.modelled, null, home.name);
    assert.equal(versionNote(rule.probeName, '0.0.1').modelled, own.modelled, home.name);
  }
  assert.equal(versionNote('no-such-framework', '1.0').modelled, null);
});

test('TRL’s readings of the batch settings are the homes’ trlReadings', () => {
  assert.deepEqual(
    Object.keys(TRL_FRAMEWORKS),
    SAMPLER_HOMES.flatMap((h) => h.trlReadings.map((r) => r.name)),
  );
  for (const reading of SAMPLER_HOMES.flatMap((h) => h.trlReadings)) assert.equal(TRL_FRAMEWORKS[reading.name], reading);
});
