// `layout --sampler NAME` for every framework home, as a user meets it: its own keys as flags, its own
// config file with --config, the same layout from a config as from the equivalent flags, and one line on
// stderr (exit 2) for every mistake.
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FRAMEWORK_HOMES } from '../../src/core/frameworks/index.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const configs = readdirSync(new URL('../fixtures/configs/', import.meta.url));
const configPath = (file: string) => new URL(`../fixtures/configs/${file}`, import.meta.url).pathname;

for (const home of FRAMEWORK_HOMES) {
  test(`${home.name}: --help lists its own keys with their shipped defaults and its pinned commit`, async () => {
    const res = await runCli(['layout', '--sampler', home.name, '--help']);
    assert.equal(res.status, 0, res.stderr);
    assert.ok(res.stdout.includes(home.pinned.commit.slice(0, 7)));
    for (const k of home.keys) assert.ok(res.stdout.includes(`--${k.flag}`) && res.stdout.includes(k.key), k.key);
  });

  test(`${home.name}: the layout says how its default advantage scheme groups the completions`, async () => {
    const res = await runCli(['layout', '--sampler', home.name, '--preset', home.presets[0]!.name, '--json']);
    assert.equal(res.status, 0, res.stderr);
    const { groups } = JSON.parse(res.stdout);
    const own = home.advantages[0]!;
    assert.deepEqual(groups, { scheme: own.scheme, groupBy: own.groupBy });
  });

  const example = configs.find((f) => f.startsWith(`${home.name}-`));
  if (!example) continue;
  test(`${home.name}: --config ${example} gives the layout of the flags it reads`, async () => {
    const fromFile = await runCli(['layout', '--sampler', home.name, '--config', configPath(example), '--json']);
    if (fromFile.status === 2) {
      // The framework refuses its own example as the sandbox models it: said in one line.
      assert.equal(fromFile.stderr.trim().split('\n').length, 1, fromFile.stderr);
      return;
    }
    assert.equal(fromFile.status, 0, fromFile.stderr);
    const out = JSON.parse(fromFile.stdout);
    assert.equal(out.framework, home.name);
    assert.ok(out.config.read.length > 0);
    assert.ok(out.steps.length > 0 && Array.isArray(out.steps[0].ranks));
    const flags = out.config.read.flatMap(({ key, value }: { key: string; value: unknown }) => {
      const k = home.keys.find((x) => x.key === key)!;
      return [`--${k.flag}`, value === null ? 'null' : String(value)];
    });
    const fromFlags = await runCli(['layout', '--sampler', home.name, ...flags, '--json']);
    assert.equal(fromFlags.status, 0, fromFlags.stderr);
    const flagged = JSON.parse(fromFlags.stdout);
    assert.deepEqual(flagged.settings, out.settings);
    assert.deepEqual(flagged.steps, out.steps);
  });
}

test('mistakes are one line on stderr with exit 2: a bad value, an unknown flag, a missing or broken config', async () => {
  const dir = tempDir('framework-layout-');
  const broken = join(dir, 'broken.yaml');
  writeFileSync(broken, 'grpo:\n  num_prompts_per_step: [1,\n');
  const cases: [string[], RegExp][] = [
    [['--sampler', 'nemo-rl', '--train-batch-size', 'many'], /--train-batch-size must be a whole number, got "many"/],
    [['--sampler', 'nemo-rl', '--shuffle', 'maybe'], /--shuffle must be true or false/],
    [['--sampler', 'nemo-rl', '--num-workers', '2'], /unknown flag/],
    [['--sampler', 'nemo-rl', '--config', join(dir, 'nope.yaml')], /cannot read --config .*nope\.yaml: no such file/],
    [['--sampler', 'nemo-rl', '--config', broken], /is not valid YAML/],
  ];
  for (const [args, pattern] of cases) {
    const res = await runCli(['layout', ...args]);
    assert.equal(res.status, 2, args.join(' '));
    assert.equal(res.stdout, '');
    assert.match(res.stderr, pattern, args.join(' '));
    assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
  }
});

test("NeMo RL's defaults: a child config overrides its parent file key by key", async () => {
  const dir = tempDir('framework-layout-');
  writeFileSync(
    join(dir, 'base.yaml'),
    'grpo:\n  num_prompts_per_step: 4\n  num_generations_per_prompt: 2\n  seed: 7\ndata:\n  shuffle: true\n',
  );
  writeFileSync(join(dir, 'child.yaml'), 'defaults: base.yaml\ngrpo:\n  num_prompts_per_step: 8\n');
  const res = await runCli(['layout', '--sampler', 'nemo-rl', '--config', join(dir, 'child.yaml'), '--dataset-size', '64', '--json']);
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.equal(out.settings['train-batch-size'], 8);
  assert.equal(out.settings.k, 2);
  assert.equal(out.settings.seed, 7);
  assert.equal(out.steps[0].prompts.length, 8);
});

test('a launch script is read as its --flags: quotes, continuations and comments', async () => {
  const dir = tempDir('framework-layout-');
  const script = join(dir, 'run.sh');
  writeFileSync(
    script,
    '#!/bin/bash\nROLLOUT_ARGS=(\n  --rollout-batch-size 8 \\\n  --n-samples-per-prompt "4"   # four answers\n  --rollout-shuffle\n)\n' +
      'python train.py "$ROLLOUT_ARGS" --num-epoch \'1\' --actor-num-gpus-per-node 2\n',
  );
  const res = await runCli(['layout', '--sampler', 'slime', '--config', script, '--dataset-size', '32', '--json']);
  assert.equal(res.status, 0, res.stderr);
  const out = JSON.parse(res.stdout);
  assert.equal(out.settings['train-batch-size'], 8);
  assert.equal(out.settings.k, 4);
  assert.equal(out.settings.shuffle, true);
  assert.equal(out.steps[0].ranks.length, 2);
});

test('advantages --scheme takes every home’s schemes and says the framework version', async () => {
  for (const home of FRAMEWORK_HOMES) {
    const scheme = home.advantages[0]!.scheme;
    const res = await runCli(['advantages', '--scheme', scheme, '--k', '2'], '{"rewards":[1,0,1,1],"promptIds":[0,0,1,1]}');
    assert.equal(res.status, 0, `${scheme}: ${res.stderr}`);
    const out = JSON.parse(res.stdout);
    assert.equal(out.advantages.length, 4);
    assert.ok(out.framework.startsWith(home.name));
  }
});

for (const home of FRAMEWORK_HOMES) {
  test(`${home.name}: --emit writes its own config, and --config reads it back into the same layout`, async () => {
    const dir = tempDir('framework-emit-');
    const given = ['--train-batch-size', '8', '--k', '4', '--ranks', '2', '--epochs', '1', '--dataset-size', '64', '--seed', '3'];
    const direct = await runCli(['layout', '--sampler', home.name, ...given, '--json']);
    assert.equal(direct.status, 0, direct.stderr);
    const emitted = await runCli(['layout', '--sampler', home.name, ...given, '--emit', home.name]);
    assert.equal(emitted.status, 0, emitted.stderr);
    const ext = { yaml: 'yaml', 'yaml-defaults': 'yaml', kwargs: 'yaml', toml: 'toml', argv: 'sh' }[home.configFormat];
    const file = join(dir, `emitted.${ext}`);
    writeFileSync(file, emitted.stdout);
    // The sandbox-only settings travel as flags beside the file, as the emitted header says.
    const sandbox = home.keys.filter((k) => k.sandbox).map((k) => `--${k.flag}`);
    const alongside = given.flatMap((v, i) => (i % 2 === 0 && sandbox.includes(v) ? [v, given[i + 1]!] : []));
    const back = await runCli(['layout', '--sampler', home.name, '--config', file, ...alongside, '--json']);
    assert.equal(back.status, 0, back.stderr);
    assert.deepEqual(JSON.parse(back.stdout).steps, JSON.parse(direct.stdout).steps);
  });
}

test('--preset NAME alone finds its framework and gives the layout of the shipped example file', async () => {
  for (const home of FRAMEWORK_HOMES) {
    const example = configs.find((f) => f.startsWith(`${home.name}-`));
    for (const preset of home.presets) {
      const viaPreset = await runCli(['layout', '--preset', preset.name, '--json']);
      const viaFile = await runCli(['layout', '--sampler', home.name, '--config', configPath(example!), '--json']);
      assert.equal(viaPreset.status, viaFile.status, `${preset.name}: ${viaPreset.stderr}`);
      if (viaFile.status !== 0) continue;
      assert.deepEqual(JSON.parse(viaPreset.stdout).steps, JSON.parse(viaFile.stdout).steps, preset.name);
    }
  }
});
