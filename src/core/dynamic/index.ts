// Dynamic sampling (seed-002, seed-004): the synchronized protocol, its shortage policies, the
// scenarios' presets and the sparsity sweep. Pure: the rank world and the CLI drive it.
export * from './types.ts';
export * from './rewards.ts';
export * from './filter.ts';
export * from './messages.ts';
export * from './protocol.ts';
export * from './local-world.ts';
export * from './presets.ts';
export * from './sweep.ts';
