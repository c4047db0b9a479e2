// What every framework home promises, whichever framework it is: the common flags keep one meaning,
// every key's default is a value of its kind, the advantage schemes and the packer are declared, and
// the shipped example config in test/fixtures/configs/ reads into settings that lay out.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../../../src/core/errors.ts';
import { FRAMEWORK_HOMES, frameworkHome } from '../../../src/core/frameworks/index.ts';
import { checkValue, defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import { argvObject, shellWords } from '../../../src/cli/config-file.ts';

/** The flags every home reads with the same meaning (issue: every framework a GRPO user runs). */
const COMMON = ['ranks', 'train-batch-size', 'k', 'seed', 'dataset-size', 'epochs'];

test('every home is registered once, under a unique name', () => {
  const names = FRAMEWORK_HOMES.map((h) => h.name);
  assert.equal(new Set(names).size, names.length);
  for (const name of names) assert.equal(frameworkHome(name)?.name, name);
  assert.ok(names.length >= 6, names.join(', '));
});

for (const home of FRAMEWORK_HOMES) {
  test(`${home.name}: keys and flags are unique, the common flags are there, every default is a value of its kind`, () => {
    const flags = home.keys.map((k) => k.flag);
    assert.equal(new Set(flags).size, flags.length, 'a flag named twice');
    const keys = home.keys.map((k) => k.key);
    assert.equal(new Set(keys).size, keys.length, 'a key named twice');
    for (const common of COMMON) assert.ok(flags.includes(common), `${home.name} lacks --${common}`);
    for (const k of home.keys) {
      assert.ok(k.about.length > 10, `${k.key} says what it does`);
      assert.deepEqual(checkValue(k, k.default, k.key), k.default, `${k.key}'s default`);
    }
    assert.match(home.pinned.commit, /^[0-9a-f]{7,40}$/);
    assert.match(home.pinned.date, /^\d{4}-\d\d-\d\d$/);
    assert.ok(home.pinned.files.length > 0);
    assert.ok(home.checkedBy.length > 0);
  });

  test(`${home.name}: advantage schemes and the packer are declared (a missing one says why)`, () => {
    assert.ok(home.advantages.length > 0);
    const schemes = home.advantages.map((a) => a.scheme);
    assert.equal(new Set(schemes).size, schemes.length);
    for (const a of home.advantages) assert.ok(a.about.length > 10, a.scheme);
    if ('absent' in home.packing) assert.ok(home.packing.absent.length > 10);
    else
      for (const flag of home.packing.flags)
        assert.ok(
          home.keys.some((k) => k.flag === flag),
          `packer flag --${flag}`,
        );
  });

  test(`${home.name}: the common flags alone give a layout, and --ranks is its data-parallel size`, () => {
    for (const ranks of [2, 4]) {
      const settings = { ...defaultSettings(home.keys), 'train-batch-size': 8, k: 4, epochs: 1, 'dataset-size': 64, ranks };
      const layout = home.layout(settings);
      assert.ok(layout.steps.length > 0);
      for (const step of layout.steps) {
        assert.equal(step.ranks.length, ranks, `${home.name} step ${step.step}`);
        // Every sample of the step is on some rank (a framework that drops samples says so in a count or warning).
        assert.equal(step.ranks.flat().length, step.sources.flat().length);
      }
    }
  });
}

/** The settings of a home's shipped example config (test/fixtures/configs/<name>-*), read as the CLI reads it. */
function exampleSettings(name: string) {
  const file = readdirSync(new URL('../../fixtures/configs/', import.meta.url)).find((f) => f.startsWith(`${name}-`));
  if (!file) return {};
  const text = readFileSync(new URL(`../../fixtures/configs/${file}`, import.meta.url), 'utf8');
  const home = frameworkHome(name)!;
  const parsed =
    home.configFormat === 'toml'
      ? parseToml(text)
      : home.configFormat === 'argv'
        ? argvObject(shellWords(text), new Set(home.keys.filter((k) => k.kind === 'bool').map((k) => k.key)))
        : (parseYaml(text) as Record<string, unknown>);
  return readConfig(home.keys, parsed).settings;
}

test('each shipped example config reads into settings that lay out, or that the framework itself refuses in its words', () => {
  const files = readdirSync(new URL('../../fixtures/configs/', import.meta.url));
  let laidOut = 0;
  for (const home of FRAMEWORK_HOMES) {
    if (!files.some((f) => f.startsWith(`${home.name}-`))) continue;
    try {
      const layout = home.layout(exampleSettings(home.name));
      assert.ok(layout.steps.length > 0, home.name);
      laidOut++;
    } catch (e) {
      assert.ok(e instanceof ConfigError, `${home.name}: ${(e as Error).message}`);
    }
  }
  assert.ok(laidOut >= 4, `${laidOut} example configs laid out`);
});

test("each home's presets restate its shipped example: the same settings as the file's excerpt, names unique", async () => {
  const { presets: sandboxPresets } = await import('../../../src/core/presets.ts');
  const names = FRAMEWORK_HOMES.flatMap((h) => h.presets.map((p) => p.name));
  assert.equal(new Set(names).size, names.length);
  for (const name of names) assert.ok(!(name in sandboxPresets), `${name} is also a sandbox preset`);
  for (const home of FRAMEWORK_HOMES) {
    for (const preset of home.presets) {
      assert.deepEqual(readConfig(home.keys, preset.config).settings, exampleSettings(home.name), preset.name);
      assert.match(preset.source, new RegExp(` @ ${home.pinned.commit.slice(0, 7)}$`));
    }
  }
});
