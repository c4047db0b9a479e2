// dependency-cruiser's configuration: the import rules of docs/architecture.md (the table lives in
// scripts/import-rules.cjs), checked by `npm test`. scripts/test.js runs dependency-cruiser under
// Deno (it needs Node ≥ 22) and it parses TypeScript with @swc/core (it does not support TypeScript 7).

const { MAY_IMPORT, EXCEPTIONS } = require('./scripts/import-rules.cjs');

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const forbidden = Object.entries(MAY_IMPORT).map(([folder, allowed]) => {
  const own = [folder, ...allowed].map((p) => `^src/${escape(p)}${p.endsWith('.ts') ? '$' : '/'}`);
  const exceptions = EXCEPTIONS.filter(([from]) => from.startsWith(`src/${folder}/`));
  return {
    name: `${folder}-may-import-${allowed.length ? allowed.join('+') : 'only-core'}`,
    comment: `src/${folder} may import ${allowed.length ? allowed.map((p) => `src/${p}`).join(', ') : 'nothing outside itself'} (docs/architecture.md)`,
    severity: 'error',
    from: { path: `^src/${folder}/`, pathNot: exceptions.map(([from]) => `^${escape(from)}$`) },
    // core is pure: not even node builtins or npm packages; the others only name folders of src/.
    to: folder === 'core' ? { pathNot: own } : { path: '^src/', pathNot: own },
  };
});
for (const [from, to, why] of EXCEPTIONS) {
  const folder = from.split('/')[1];
  const own = [folder, ...MAY_IMPORT[folder]].map((p) => `^src/${escape(p)}${p.endsWith('.ts') ? '$' : '/'}`);
  forbidden.push({
    name: `${from.replace(/^src\//, '').replace(/[/.]/g, '-')}-exception`,
    comment: `${from} may also import ${to}: ${why}`,
    severity: 'error',
    from: { path: `^${escape(from)}$` },
    to: { path: '^src/', pathNot: [...own, `^${escape(to)}`] },
  });
}
forbidden.push(
  {
    name: 'no-unresolvable',
    comment: 'every import must resolve to a file (explicit .ts extensions)',
    severity: 'error',
    from: { path: '^src/' },
    to: { couldNotResolve: true },
  },
  {
    name: 'no-circular',
    comment: 'no import cycles between modules (type-only imports, erased at run time, may close one)',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
  },
);

module.exports = {
  forbidden,
  options: {
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    // Resolve packages through their `exports` as Node does (e.g. tsx/esm/api).
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    combinedDependencies: false,
  },
};
