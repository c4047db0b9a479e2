// Node only: it runs Vite's production build (Rolldown's native binding), as `npm run build` does.
// The sizes docs/browser.md quotes are the build's (scripts/build-sizes.ts): every claim is in the doc,
// each number within the stated tolerance (a tenth, and at least 2 kB; counts exact), and no other kB
// in the doc; the check itself fails on a doc with a number off, a count off by one, a size it does not
// know or a claim reworded. Also what the doc says of the build in words: the files it names under
// dist/ exist, the Chinese pack and the explorer's rest are chunks of their own, and the first
// picture's scripts are the entry and the explorer chunk, both with V8's compile hint.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { type BuildSizes, CLAIMS, DOC, docProblems, measureBuild, render, rewriteDoc } from '../../scripts/build-sizes.ts';

let sizes: BuildSizes;
const doc = readFileSync(DOC, 'utf8');

before(async () => {
  sizes = await measureBuild();
});

test("every size docs/browser.md quotes is the build's, within the tolerance", () => {
  assert.deepEqual(docProblems(doc, sizes), []);
});

test('the check fails on a size off by more than the tolerance, a count off by one, an unknown kB or a reworded claim', () => {
  const first = render(CLAIMS[0]!, sizes);
  assert.ok(doc.includes(first), 'the first claim stands in the doc on one line');
  const kb = Math.round(sizes.firstPicture.bytes / 1000);
  const files = sizes.firstPicture.files.length;
  const with_ = (from: string, to: string) => doc.replace(first, first.replace(from, to));
  // Within the tolerance: passes.
  assert.deepEqual(docProblems(with_(`(${kb} kB`, `(${kb + 2} kB`), sizes), []);
  // A fifth more: fails, naming the number.
  const off = Math.round(kb * 1.2);
  assert.match(docProblems(with_(`(${kb} kB`, `(${off} kB`), sizes).join('\n'), new RegExp(`the doc says ${off} kB, the build has ${kb}`));
  assert.match(docProblems(with_(`${files} scripts`, `${files + 1} scripts`), sizes).join('\n'), /files: the doc says \d+, the build has/);
  assert.match(docProblems(`${doc}\nThe new chunk weighs 12 kB.\n`, sizes).join('\n'), /"12 kB" is not one of the claims/);
  assert.match(docProblems(with_('first picture', 'first pictures'), sizes).join('\n'), /not in the doc/);
  // --write puts the build's numbers back.
  assert.deepEqual(docProblems(rewriteDoc(with_(`(${kb} kB`, `(${off} kB`), sizes), sizes), []);
});

test('what the doc says of the build in words: the files under dist/, the chunks of their own, the first picture with its compile hint', () => {
  for (const m of doc.matchAll(/`dist\/([\w.-]+)`/g))
    assert.ok(sizes.files.includes(m[1]!), `dist/${m[1]} (named in the doc) is in the build`);
  assert.ok(
    sizes.files.some((f) => f.startsWith('assets/')),
    'dist/assets/',
  );
  for (const module of ['src/ui/i18n/zh-pack.ts', 'src/ui/explorer-rest.ts']) {
    assert.ok(doc.includes(`\`${module}\``), `the doc names ${module}`);
    assert.ok(sizes.ownChunks.includes(module), `${module} is a chunk of its own`);
  }
  assert.equal(sizes.firstPicture.files.length, 2, 'the entry and the explorer chunk');
  assert.deepEqual(sizes.firstPicture.files, [...sizes.pageEntry.files, ...sizes.explorerChunk.files].sort());
  assert.deepEqual([...sizes.hinted].sort(), sizes.firstPicture.files, 'both carry //# allFunctionsCalledOnLoad, and only they');
});
