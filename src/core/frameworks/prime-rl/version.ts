// The prime-rl commit every fact in this folder was read from.
export const PRIME_RL_COMMIT = '559b44772e471d1538537b8805cc77f3824a5e64';
export const PRIME_RL_VERSION = '(prime-rl 559b447)';
