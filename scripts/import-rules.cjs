// The import rules of docs/architecture.md's folder table, as data: .dependency-cruiser.cjs builds
// its rules from them and test/architecture.test.ts checks that the table's "may import" column
// says exactly this. Change both together.

/** For each folder of src/: the folders of src/ its files may import (besides their own). */
const MAY_IMPORT = {
  core: [],
  ops: ['core'],
  gpu: ['core', 'ops'],
  train: ['core', 'ops', 'gpu', 'ranks'],
  ranks: ['core', 'gpu/device.ts'],
  ui: ['core', 'ranks', 'gpu', 'train'],
  cli: ['core', 'ops', 'gpu', 'train', 'ranks', 'ui'],
};

/** Exceptions, each with its reason: [from file, to path, why]. */
const EXCEPTIONS = [];

module.exports = { MAY_IMPORT, EXCEPTIONS };
