// <grpo-framework>'s settings are the CLI's (parity): the same config text read by the page (pasted) and by
// `grpo-sandbox layout --sampler NAME --config FILE` gives the same settings, origins, keys read and keys
// ignored, for every home's shipped example config in test/fixtures/configs/, with a field over it as a
// flag over the file, for a preset, and for what `--emit` writes; a broken file is refused by both.
// The command line's words are read by one function (src/core/frameworks/argv.ts), which config-file.ts re-exports.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as cliConfig from '../../src/cli/config-file.ts';
import { writeFrameworkConfig } from '../../src/cli/config-file.ts';
import { frameworkSettingsFrom } from '../../src/cli/framework-settings.ts';
import * as argv from '../../src/core/frameworks/argv.ts';
import { ConfigError } from '../../src/core/errors.ts';
import { FRAMEWORK_HOMES } from '../../src/core/frameworks/index.ts';
import type { FrameworkHome } from '../../src/core/frameworks/types.ts';
import * as parsers from '../../src/ui/frameworks/config-parsers.ts';
import { frameworkRequest, PASTED } from '../../src/ui/frameworks/framework-model.ts';

const CONFIGS = new URL('../fixtures/configs/', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'framework-parity-'));

/** The CLI's reading of `text` as a --config file, and the page's reading of it pasted (with the same flags/fields). */
function both(home: FrameworkHome, text: string, flags: Record<string, string> = {}) {
  const path = join(dir, `${home.name}.config`);
  writeFileSync(path, text);
  const cli = frameworkSettingsFrom(home, { config: path, ...flags });
  const page = frameworkRequest({ framework: home.name, ...flags }, { text, parsers });
  return { cli, page: page.reading, parents: page.parents };
}

function assertSame(home: FrameworkHome, text: string, flags: Record<string, string> = {}) {
  const { cli, page } = both(home, text, flags);
  assert.deepEqual(page.settings, cli.settings, `${home.name}: settings`);
  assert.deepEqual(page.origins, cli.origins, `${home.name}: origins`);
  assert.deepEqual(page.config?.read, cli.config?.read, `${home.name}: keys read`);
  assert.deepEqual(page.config?.ignored, cli.config?.ignored, `${home.name}: keys ignored`);
  assert.equal(page.config?.path, PASTED);
  return cli;
}

const examples = readdirSync(CONFIGS);

for (const home of FRAMEWORK_HOMES) {
  const file = examples.find((f) => f.startsWith(`${home.name}-`));
  if (!file) continue;
  test(`${home.name}: its shipped example (${file}) pasted reads as the CLI reads the file, a field over it as a flag`, () => {
    const text = readFileSync(new URL(file, CONFIGS), 'utf8');
    // NeMo RL's example names no defaults: parent here (a file that did would be read with it by the CLI only).
    assert.doesNotMatch(text, /^defaults:/m);
    const cli = assertSame(home, text);
    assert.ok((cli.config?.read.length ?? 0) > 0, `${home.name}: the example sets some of the framework's keys`);
    // A field of the form wins over the pasted file as a flag wins over --config.
    const key =
      home.keys.find((k) => k.kind === 'int' && !k.sandbox && cli.origins[k.flag] === 'config') ?? home.keys.find((k) => k.kind === 'int')!;
    const flagged = assertSame(home, text, { [key.flag]: '3' });
    assert.equal(flagged.settings[key.flag], 3);
    assert.equal(flagged.origins[key.flag], 'flag');
  });
}

test('a launch command line: a bare switch before a word that is not a boolean reads the same on the page and in the CLI', () => {
  let checked = 0;
  for (const home of FRAMEWORK_HOMES.filter((h) => h.configFormat === 'argv')) {
    const switchKey = home.keys.find((k) => k.kind === 'bool' && !k.sandbox);
    const intKey = home.keys.find((k) => k.kind === 'int' && !k.sandbox)!;
    if (!switchKey) continue;
    // `--switch train.py`: a switch takes the next word only when it reads as a boolean.
    const cli = assertSame(home, `python train.py \\\n  --${intKey.key} 3 \\\n  --${switchKey.key} train.py`);
    assert.equal(cli.settings[switchKey.flag], true, `${home.name}: --${switchKey.key} is a bare switch`);
    checked++;
  }
  assert.ok(checked >= 2, `${checked} command lines compared`);
});

test('every home: what --emit writes for its preset reads back the same on the page and in the CLI', () => {
  let checked = 0;
  for (const home of FRAMEWORK_HOMES) {
    for (const preset of home.presets) {
      const viaPreset = frameworkSettingsFrom(home, { preset: preset.name });
      assert.deepEqual(frameworkRequest({ framework: home.name, preset: preset.name }, null).reading, viaPreset, `${home.name} --preset`);
      const settings = home.resolve?.(viaPreset.settings) ?? viaPreset.settings;
      let text: string;
      try {
        text = writeFrameworkConfig(home, settings, 'written by the parity test');
      } catch (e) {
        assert.ok(e instanceof ConfigError, (e as Error).message); // TOML has no null: the CLI says so too
        continue;
      }
      assertSame(home, text);
      checked++;
    }
  }
  assert.ok(checked >= 8, `${checked} emitted configs compared`);
});

test('a broken config is refused by both readers, each a ConfigError naming the format', () => {
  const broken: Record<string, string> = { yaml: 'a: [1, 2', 'yaml-defaults': 'a: [1, 2', toml: 'a = [1, 2', kwargs: '{"a": 1,' };
  for (const home of FRAMEWORK_HOMES) {
    const text = broken[home.configFormat];
    if (text === undefined) continue;
    const path = join(dir, `${home.name}.broken`);
    writeFileSync(path, text);
    assert.throws(
      () => frameworkSettingsFrom(home, { config: path }),
      (e: unknown) => e instanceof ConfigError && /is not valid/.test(e.message),
    );
    assert.throws(
      () => frameworkRequest({ framework: home.name }, { text, parsers }),
      (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${PASTED} is not valid`),
    );
  }
});

test("NeMo RL: a pasted file's defaults: parent is set aside and named; the child's keys are read over the shipped defaults", () => {
  const home = FRAMEWORK_HOMES.find((h) => h.configFormat === 'yaml-defaults')!;
  // The CLI opens the parent beside the file: an empty one, so both read the child's keys alone.
  writeFileSync(join(dir, 'grpo_math_1B.yaml'), '{}\n');
  const { cli, page, parents } = both(home, 'defaults: grpo_math_1B.yaml\ngrpo:\n  num_prompts_per_step: 8\n');
  assert.deepEqual(page, { ...cli, config: { ...cli.config!, path: PASTED } });
  assert.deepEqual(parents, ['grpo_math_1B.yaml']);
  assert.deepEqual(page.config?.read, [{ key: 'grpo.num_prompts_per_step', value: 8 }]);
  assert.deepEqual(page.config?.ignored, []);
});

test('the command line is read by one function: config-file.ts re-exports argv.ts, and a launch script reads the same', () => {
  assert.equal(cliConfig.shellWords, argv.shellWords);
  assert.equal(cliConfig.argvObject, argv.argvObject);
  const words = argv.shellWords("python train.py \\\n  --rollout-batch-size 32 # the batch\n  --rollout-shuffle --lr '1e-6'");
  assert.deepEqual(words, ['python', 'train.py', '--rollout-batch-size', '32', '--rollout-shuffle', '--lr', '1e-6']);
  assert.deepEqual(argv.argvObject(words, new Set(['rollout-shuffle'])), {
    'rollout-batch-size': '32',
    'rollout-shuffle': true,
    lr: '1e-6',
  });
});
