// The import rules of docs/architecture.md are the ones dependency-cruiser enforces
// (.dependency-cruiser.cjs, built from scripts/import-rules.cjs), and they catch bad imports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { MAY_IMPORT } = createRequire(import.meta.url)('../scripts/import-rules.cjs') as { MAY_IMPORT: Record<string, string[]> };

test('the "may import" column of docs/architecture.md is exactly the enforced table', () => {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const documented: Record<string, string[]> = {};
  for (const line of doc.split('\n')) {
    const cells = line.split(' | ');
    const folder = /`src\/([a-z]+)\/`/.exec(cells[0] ?? '')?.[1];
    if (!line.startsWith('| ') || !folder) continue;
    const column = cells
      .at(-1)!
      .replace(/\s*\|\s*$/, '')
      .trim();
    documented[folder] = column === 'nothing outside core' ? [] : column.split(', ').map((c) => c.replace(/`/g, ''));
  }
  assert.deepEqual(documented, MAY_IMPORT);
});

test('a deliberately bad import fails the check, naming the rule and the import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'grpo-imports-'));
  const files: Record<string, string> = {
    'src/core/bad.ts': "import { x } from '../gpu/x.ts';\nexport const bad = x;\n",
    'src/core/io.ts': "import { readFileSync } from 'node:fs';\nexport const io = readFileSync;\n",
    'src/gpu/x.ts': 'export const x = 1;\n',
    'src/gpu/y.ts': "import { z } from '../train/z.ts';\nexport const y = z;\n",
    'src/train/z.ts': 'export const z = 2;\n',
    'src/ops/t.ts': "import type { Z } from '../cli/c.ts';\nexport type T = Z;\n",
    'src/cli/c.ts': 'export type Z = number;\n',
    'src/ops/fine.ts': "import { z } from '../core/ok.ts';\nexport const fine = z;\n",
    'src/core/ok.ts': 'export const z = 3;\n',
  };
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const res = spawnSync(
      join(root, 'node_modules/.bin/deno'),
      [
        'run',
        '-A',
        join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
        '--config',
        join(root, '.dependency-cruiser.cjs'),
        '--output-type',
        'err',
        'src',
      ],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    const out = res.stdout + res.stderr;
    assert.notEqual(res.status, 0, out);
    assert.match(out, /core-may-import-only-core: src\/core\/bad\.ts → src\/gpu\/x\.ts/);
    assert.match(out, /core-may-import-only-core: src\/core\/io\.ts → (node:)?fs/);
    assert.match(out, /gpu-may-import-core\+ops: src\/gpu\/y\.ts → src\/train\/z\.ts/);
    assert.match(out, /ops-may-import-core: src\/ops\/t\.ts → src\/cli\/c\.ts/, 'type-only imports count');
    assert.doesNotMatch(out, /src\/ops\/fine\.ts/);
    assert.match(out, /4 dependency violations/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no line in src, test, bench or scripts is longer than 160 characters (break long strings and comments)', () => {
  const long: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'fixtures' && name !== 'node_modules') walk(path);
      } else if (/\.(ts|js|cjs|mjs|py|wgsl)$/.test(name)) {
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (line.length > 160) long.push(`${relative(root, path)}:${i + 1} (${line.length})`);
          });
      }
    }
  };
  for (const dir of ['src', 'test', 'bench', 'scripts', 'shaders']) walk(join(root, dir));
  assert.deepEqual(long, []);
});
