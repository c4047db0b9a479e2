// The shared flag parser (src/cli/flags.ts): every mistake is one ConfigError line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/core/errors.ts';
import { choiceFlag, intFlag, ownEntry, parseFlags, quote } from '../../src/cli/flags.ts';

const spec = {
  sampler: { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  tag: { type: 'string', multiple: true },
} as const;

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, String(err));
    assert.ok(!err.message.includes('\n'), `one line: ${err.message}`);
    return err.message;
  }
  assert.fail('expected a ConfigError');
}

test('values: --name value, --name=value, booleans, negative numbers, multiple', () => {
  assert.deepEqual({ ...parseFlags(['--sampler', 'trl', '--seed=-5', '--json'], spec) }, { sampler: 'trl', seed: '-5', json: true });
  assert.deepEqual({ ...parseFlags(['--seed', '-5'], spec) }, { seed: '-5' });
  assert.deepEqual({ ...parseFlags(['--seed', '-1e3'], spec) }, { seed: '-1e3' });
  assert.deepEqual({ ...parseFlags(['--tag', 'a', '--tag', 'b'], spec) }, { tag: ['a', 'b'] });
  assert.deepEqual({ ...parseFlags(['-h'], spec) }, { help: true });
});

test('a missing value names the flag, also when the next word is a flag', () => {
  assert.match(
    message(() => parseFlags(['--sampler'], spec)),
    /^--sampler needs a value/,
  );
  assert.match(
    message(() => parseFlags(['--sampler', '--json'], spec)),
    /^--sampler needs a value, but is followed by the flag '--json'/,
  );
  assert.match(
    message(() => parseFlags(['--seed', '--5'], spec)),
    /^--seed needs a value, but is followed by the flag '--5'/,
  );
});

test('repeated flags are an error (the last value is not silently taken)', () => {
  assert.equal(
    message(() => parseFlags(['--seed', '1', '--seed', '2'], spec)),
    "--seed is given twice ('1' and '2'); give it once",
  );
  assert.equal(
    message(() => parseFlags(['--json', '--json'], spec)),
    '--json is given twice; give it once',
  );
});

test('unknown flags, stray words, values for booleans', () => {
  assert.match(
    message(() => parseFlags(['--nope'], spec)),
    /^unknown flag '--nope' \(known flags: --sampler, --seed, --json, --tag\)$/,
  );
  assert.match(
    message(() => parseFlags(['--__proto__', 'x'], spec)),
    /^unknown flag '--__proto__'/,
  );
  assert.match(
    message(() => parseFlags(['--toString'], spec)),
    /^unknown flag '--toString'/,
  );
  assert.match(
    message(() => parseFlags(['trl'], spec)),
    /^unexpected argument 'trl'/,
  );
  assert.match(
    message(() => parseFlags(['--json=yes'], spec)),
    /^--json takes no value/,
  );
});

test('quote: at most 40 characters, control characters escaped', () => {
  assert.equal(quote('a\nb\tc'), "'a\\nb\\tc'");
  assert.equal(quote('x'.repeat(100)), `'${'x'.repeat(40)}…'`);
  assert.match(
    message(() => parseFlags([`--${'y'.repeat(500)}\n`], spec)),
    /^unknown flag '--y{38}…'/,
  );
});

test('intFlag and choiceFlag: own values only', () => {
  assert.equal(intFlag('12', 'k', 1), 12);
  assert.match(
    message(() => intFlag('1.5', 'k', 1)),
    /--k must be a whole number, got '1.5'/,
  );
  assert.match(
    message(() => intFlag('9'.repeat(400), 'k', 1)),
    /^--k must be between 1 and \d+, got '9{40}…'$/,
  );
  assert.equal(choiceFlag('cpu', 'backend', ['cpu', 'webgpu']), 'cpu');
  assert.match(
    message(() => choiceFlag('__proto__', 'backend', ['cpu', 'webgpu'])),
    /^unknown --backend '__proto__'; choose one of cpu, webgpu$/,
  );
  const map = { a: 1 };
  assert.equal(ownEntry(map, 'a'), 1);
  for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) assert.equal(ownEntry(map, key), undefined);
});
