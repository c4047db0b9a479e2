// JSON input (src/cli/json-input.ts): completeness detection and one-line parse errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/core/errors.ts';
import { jsonCompletion, jsonSyntaxError, lineColumn, parseJsonText } from '../../src/cli/json-input.ts';

test('jsonCompletion: complete once the top-level object or array closes, across chunks, strings respected', () => {
  const c = jsonCompletion();
  assert.equal(c('  {"a": "}]\\"'), false);
  assert.equal(c('{", "b": [1, {'), false);
  assert.equal(c('}]'), false);
  assert.equal(c('}\n'), true);
  const arr = jsonCompletion();
  assert.equal(arr('[[]'), false);
  assert.equal(arr(']'), true);
  const scalar = jsonCompletion();
  assert.equal(scalar('12'), false); // a number is complete only at end-of-file
  assert.equal(scalar('34'), false);
});

test('jsonSyntaxError agrees with JSON.parse on what is valid', () => {
  const valid = ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', '"s"', '0', '[{"a":{}}]'];
  const invalid = [
    '{',
    '{"a":}',
    '[1,]',
    '{"a" 1}',
    '[01]',
    '{"a":1}}',
    "{'a':1}",
    '[1 2]',
    '"\\x"',
    '-',
    'tru',
    '{"a":1,}',
    '[',
    '"a\nb"',
  ];
  for (const t of valid) {
    assert.doesNotThrow(() => JSON.parse(t));
    assert.equal(jsonSyntaxError(t), null, t);
  }
  for (const t of invalid) {
    assert.throws(() => JSON.parse(t));
    assert.notEqual(jsonSyntaxError(t), null, t);
  }
  // Deep nesting is scanned without recursion.
  assert.notEqual(jsonSyntaxError('['.repeat(1_000_000)), null);
});

test('parse errors: one line, line and column, at most 40 characters quoted, newlines escaped', () => {
  const text = '{\n  "logp": [[0.1, 0.2,]],\n  "advantages": [1]\n}';
  try {
    parseJsonText(text, 'stdin');
    assert.fail('expected a ConfigError');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.ok(!err.message.includes('\n'));
    assert.match(err.message, /^stdin is not valid JSON at line 2, column 22: expected a value, found '\]' \(near '(.+)'\)$/);
    const near = /near '(.*)'\)$/.exec(err.message)![1]!;
    assert.ok(near.replace(/\\n/g, '\n').length <= 40);
    assert.match(near, /\\n/);
  }
  assert.throws(() => parseJsonText('   ', 'stdin'), /stdin is empty/);
  assert.deepEqual(lineColumn('ab\ncd\nef', 7), { line: 3, column: 2 });
});
