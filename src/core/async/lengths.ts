// Completion lengths per prompt: given ones, or a named distribution drawn with the sandbox's PyTorch
// generator (torch.manual_seed(seed), then each prompt's draws in prompt order, so prompt p's lengths do not
// depend on how many prompts a framework ends up dispatching, and every framework sees the same workload).
import { ConfigError } from '../errors.ts';
import { Mt19937, rand, randint } from '../rng/index.ts';
import type { LengthDistribution, LengthSource } from './types.ts';

/** Longest completion the long-tail distribution draws. */
export const LONG_TAIL_MAX = 8192;

export const LENGTH_ABOUT: Record<LengthDistribution, string> = {
  bimodal:
    'each prompt is hard with probability 1/4 (torch.rand < 0.25): hard prompts draw lengths randint(1024, 4096), easy ones randint(64, 512)',
  uniform: 'every completion randint(64, 1024)',
  'long-tail': `every completion 64 + floor(−256·ln(1 − u)), u = torch.rand(float64), at most ${LONG_TAIL_MAX}: an exponential tail`,
};

/** Prompt → its k lengths and difficulty, drawn lazily in prompt order. */
export class PromptLengths {
  private readonly gen: Mt19937;
  private readonly drawn: number[][] = [];
  private readonly labels: (string | null)[] = [];

  constructor(
    private readonly source: LengthSource,
    private readonly k: number,
    seed: number,
  ) {
    this.gen = new Mt19937(seed);
    if (source.kind === 'given') {
      source.lengths.forEach((row, p) => {
        if (row.length !== k)
          throw new ConfigError(`--lengths: prompt ${p} has ${row.length} lengths, but --k is ${k}; give k lengths per prompt`);
      });
    }
  }

  /** How many prompts there are (null: as many as asked for). */
  get available(): number | null {
    return this.source.kind === 'given' ? this.source.lengths.length : null;
  }

  lengths(prompt: number): readonly number[] {
    if (this.source.kind === 'given') {
      const row = this.source.lengths[prompt];
      if (!row) throw new ConfigError(`--lengths has ${this.source.lengths.length} prompts, but the run needs prompt ${prompt}; give more`);
      return row;
    }
    while (this.drawn.length <= prompt) this.drawOne(this.source.name);
    return this.drawn[prompt]!;
  }

  difficulty(prompt: number): string | null {
    if (this.source.kind === 'given') return this.source.difficulty?.[prompt] ?? null;
    this.lengths(prompt);
    return this.labels[prompt]!;
  }

  private drawOne(name: LengthDistribution): void {
    const k = this.k;
    if (name === 'bimodal') {
      const hard = rand(this.gen, 1)[0]! < 0.25;
      this.labels.push(hard ? 'hard' : 'easy');
      this.drawn.push(Array.from(hard ? randint(this.gen, 1024, 4096, k) : randint(this.gen, 64, 512, k)));
    } else if (name === 'uniform') {
      this.labels.push(null);
      this.drawn.push(Array.from(randint(this.gen, 64, 1024, k)));
    } else {
      this.labels.push(null);
      const u = rand(this.gen, k, 'float64');
      this.drawn.push(Array.from(u, (x) => Math.min(LONG_TAIL_MAX, 64 + Math.floor(-256 * Math.log(1 - x)))));
    }
  }
}

/** Reads `--lengths`' JSON: [[k lengths] per prompt], a flat list cut into k per prompt, or {"lengths": …, "difficulty": [...]}. */
export function parseGivenLengths(json: unknown, k: number, source: string): LengthSource {
  const obj = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  const raw = obj ? obj.lengths : json;
  if (!Array.isArray(raw) || raw.length === 0)
    throw new ConfigError(`${source}: give a JSON array of per-prompt length arrays, or {"lengths": [...], "difficulty": [...]}`);
  const rows: unknown[][] = raw.every(Array.isArray)
    ? (raw as unknown[][])
    : Array.from({ length: Math.ceil(raw.length / k) }, (_, p) => raw.slice(p * k, p * k + k));
  rows.forEach((row, p) => {
    if (row.length !== k)
      throw new ConfigError(`${source}: prompt ${p} has ${row.length} lengths, but --k is ${k}; give k lengths per prompt`);
    const bad = row.findIndex((x) => typeof x !== 'number' || !Number.isSafeInteger(x) || x < 1 || x > 1_000_000);
    if (bad >= 0)
      throw new ConfigError(
        `${source}: prompt ${p}'s length ${bad} is ${JSON.stringify(row[bad])}; give whole numbers of tokens in 1 … 1000000`,
      );
  });
  let difficulty: string[] | null = null;
  if (obj && obj.difficulty !== undefined) {
    const d = obj.difficulty;
    if (!Array.isArray(d) || d.length !== rows.length || !d.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 40))
      throw new ConfigError(`${source}: "difficulty" must be one short label per prompt (${rows.length} of them)`);
    difficulty = d as string[];
  }
  return { kind: 'given', lengths: rows as number[][], difficulty };
}
