// The PyTorch-exact CPU generator and the draws the samplers need.
export { Mt19937 } from './mt19937.ts';
export { seedToUint64, seedLow32, type Seed } from './seed.ts';
export { randperm, modSafe, mod64, RANDPERM_LARGE_N, RANDPERM_MAX_N, type RandpermOptions } from './randperm.ts';
export { rand, randint, RANDINT_MAX_RANGE } from './rand.ts';
export { Mt19937Words } from './mt19937-array.ts';
export { PythonRandom, sampleUsesPool, seedWords } from './python-random.ts';
export { NumpyRandomState } from './numpy-random.ts';
