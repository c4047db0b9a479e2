// SkyRL's home against data made by SkyRL's own code (scripts/golden/skyrl_*.py → golden-skyrl-*.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parse } from 'yaml';
import { ConfigError } from '../../../src/core/errors.ts';
import { keptPrompts, skyrlDispatch } from '../../../src/core/frameworks/skyrl/dispatch.ts';
import { home } from '../../../src/core/frameworks/skyrl/index.ts';
import { SkyrlPromptOrder } from '../../../src/core/frameworks/skyrl/order.ts';
import { skyrlMicroBatches } from '../../../src/core/frameworks/skyrl/packing.ts';
import { defaultSettings, readConfig } from '../../../src/core/frameworks/settings.ts';
import type { FrameworkSettings } from '../../../src/core/frameworks/types.ts';

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8'));

interface PyError {
  type: string;
  message: string;
  statement: string | null;
}
interface LayoutCase {
  settings: Record<string, number | boolean | null>;
  error: PyError | null;
  len_dataloader?: number;
  total_training_steps?: number;
  steps?: {
    epoch: number;
    step: number;
    drawn: number[];
    prompts: number[];
    error?: PyError;
    boundaries?: [number, number][];
    sources?: number[][][];
    padding?: number[][];
  }[];
}
const layoutFx: { commit: string; source: string; cases: LayoutCase[] } = read('golden-skyrl-layout.json');
const advFx: {
  commit: string;
  cases: {
    rewards: number[];
    promptIds: number[];
    k: number;
    schemes: Record<string, { advantages: (number | null)[]; warnings: string[] }>;
  }[];
} = read('golden-skyrl-advantages.json');
const packFx: {
  commit: string;
  cases: {
    seqlens: number[];
    ranks: number;
    micro: number;
    maxTokens: number;
    packed: { ranks: number[][][]; microBatchesPerRank: number };
  }[];
} = read('golden-skyrl-packing.json');

/** The home's settings for a fixture case (Python names → flags). */
function settingsOf(s: LayoutCase['settings']): FrameworkSettings {
  const flags: Record<string, string> = {
    seed: 'seed',
    num_workers: 'dataloader-num-workers',
    persistent_workers: 'persistent-workers',
    dataset_size: 'dataset-size',
    train_batch_size: 'train-batch-size',
    epochs: 'epochs',
    policy_mini_batch_size: 'policy-mini-batch-size',
    n_samples_per_prompt: 'k',
    policy_num_gpus_per_node: 'policy-num-gpus-per-node',
    policy_num_nodes: 'policy-num-nodes',
    policy_sequence_parallel_size: 'policy-sequence-parallel-size',
    ref_num_gpus_per_node: 'ref-num-gpus-per-node',
    ref_num_nodes: 'ref-num-nodes',
    ref_sequence_parallel_size: 'ref-sequence-parallel-size',
    use_kl_loss: 'use-kl-loss',
    use_kl_in_reward: 'use-kl-in-reward',
    max_training_steps: 'max-training-steps',
    micro_train_batch_size_per_gpu: 'micro-train-batch-size-per-gpu',
  };
  const out = defaultSettings(home.keys);
  for (const [k, v] of Object.entries(s)) {
    assert.ok(k in flags, `unmapped fixture setting ${k}`);
    out[flags[k]!] = v;
  }
  return out;
}

function expectSkyrlError(fn: () => unknown, e: PyError, what: string): void {
  assert.throws(
    fn,
    (err: unknown) => {
      assert.ok(err instanceof ConfigError, what);
      if (e.type === 'ZeroDivisionError') assert.ok(err.message.includes('ZeroDivisionError'), what);
      else if (e.message) assert.ok(err.message.includes(`${e.type}: ${e.message}`), `${what}: ${err.message} lacks ${e.message}`);
      else if (e.statement) assert.ok(err.message.includes(e.statement), `${what}: ${err.message} lacks ${e.statement}`);
      else assert.ok(err.message.includes(e.type), `${what}: ${err.message}`);
      assert.ok(err.message.includes('(SkyRL a956457)'), what);
      return true;
    },
    what,
  );
}

test('fixtures are from the pinned commit', () => {
  for (const fx of [layoutFx, advFx, packFx]) assert.equal(fx.commit, home.pinned.commit);
  assert.ok(layoutFx.cases.length > 80 && advFx.cases.length > 90 && packFx.cases.length >= 100);
});

test("prompt order equals build_dataloader's StatefulDataLoader, epoch after epoch", () => {
  let checked = 0;
  for (const c of layoutFx.cases) {
    if (c.error || !c.steps) continue;
    const s = c.settings;
    const order = new SkyrlPromptOrder({
      seed: s.seed as number,
      datasetSize: s.dataset_size as number,
      workers: (s.num_workers as number | null) ?? 8,
      persistentWorkers: s.persistent_workers === true,
    });
    const tbs = s.train_batch_size as number;
    let epoch = -1;
    let perm: Int32Array = new Int32Array();
    for (const st of c.steps) {
      while (epoch < st.epoch) {
        perm = order.nextEpoch();
        epoch++;
      }
      assert.deepEqual(Array.from(perm.subarray(st.step * tbs, (st.step + 1) * tbs)), st.drawn, JSON.stringify(s));
      checked++;
    }
  }
  assert.ok(checked > 300);
});

test('_remove_tail_data, mini-batch boundaries and stage_chunks equal SkyRL dispatch', () => {
  for (const c of layoutFx.cases) {
    if (c.error || !c.steps) continue;
    const s = c.settings;
    const k = s.n_samples_per_prompt as number;
    const w = Math.floor(
      (((s.policy_num_nodes as number) ?? 1) * (s.policy_num_gpus_per_node as number)) / ((s.policy_sequence_parallel_size as number) ?? 1),
    );
    for (const st of c.steps) {
      if (st.error) continue;
      const useRef = (s.use_kl_loss ?? true) || s.use_kl_in_reward === true;
      const refDp = Math.floor(
        (((s.ref_num_nodes as number) ?? 1) * ((s.ref_num_gpus_per_node as number) ?? 1)) / ((s.ref_sequence_parallel_size as number) ?? 1),
      );
      const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
      const lcm = useRef ? (w / gcd(w, refDp)) * refDp : w;
      assert.equal(keptPrompts(st.drawn.length, k, lcm), st.prompts.length, JSON.stringify(s));
      const d = skyrlDispatch(st.prompts.length, k, s.policy_mini_batch_size as number, w);
      assert.deepEqual(d.perMiniBatch, st.sources, JSON.stringify(s));
      assert.deepEqual(d.padding, st.padding, JSON.stringify(s));
    }
  }
});

test("layout() gives SkyRL's steps, counts and errors for every fixture case", () => {
  let withPadding = 0;
  for (const c of layoutFx.cases) {
    const settings = settingsOf(c.settings);
    const what = JSON.stringify(c.settings);
    if (c.error) {
      expectSkyrlError(() => home.layout(settings), c.error, what);
      continue;
    }
    const stepError = c.steps!.find((st) => st.error)?.error;
    if (stepError) {
      expectSkyrlError(() => home.layout(settings), stepError, what);
      continue;
    }
    const out = home.layout(settings);
    const count = (name: string) => out.counts.find((x) => x.name === name)!.value;
    assert.equal(count('len(train_dataloader)'), c.len_dataloader, what);
    assert.equal(count('total_training_steps'), c.total_training_steps, what);
    assert.equal(out.steps.length, c.steps!.length, what);
    const k = c.settings.n_samples_per_prompt as number;
    out.steps.forEach((step, i) => {
      const want = c.steps![i]!;
      assert.equal(step.epoch, want.epoch, what);
      assert.equal(step.step, want.step, what);
      assert.deepEqual(step.prompts, want.prompts, what);
      assert.deepEqual(
        step.sources,
        want.sources!.map((mbs) => mbs.flat()),
        what,
      );
      assert.deepEqual(
        step.ranks,
        step.sources.map((src) => src.map((x) => want.prompts[Math.floor(x / k)])),
        what,
      );
    });
    if (c.steps!.some((st) => st.padding!.flat().some((p) => p > 0))) withPadding++;
    // Every real sample is trained once per pass: the sources cover generation order exactly.
    for (const step of out.steps)
      assert.deepEqual(
        step.sources.flat().sort((a, b) => a - b),
        Array.from({ length: step.prompts.length * k }, (_, i) => i),
      );
  }
  assert.ok(withPadding > 0, 'a case where stage_chunks pads');
});

test('the shipped defaults lay out GSM8K as SkyRL would (1024 prompts × 5, 1 GPU, 8 workers)', () => {
  const out = home.layout(defaultSettings(home.keys));
  assert.equal(out.steps.length, 7);
  assert.equal(out.steps[0]!.ranks.length, 1);
  assert.equal(out.steps[0]!.ranks[0]!.length, 5120);
  assert.ok(out.notes.some((n) => n.includes('makes 8')));
});

/** Samples whose uid group has one repeated reward (more than one member). */
function equalGroupMembers(rewards: number[], promptIds: number[]): Set<number> {
  const groups = new Map<number, number[]>();
  promptIds.forEach((p, i) => groups.set(p, [...(groups.get(p) ?? []), i]));
  const out = new Set<number>();
  for (const m of groups.values()) if (m.length > 1 && m.every((i) => rewards[i] === rewards[m[0]!])) for (const i of m) out.add(i);
  return out;
}

test('advantages equal compute_grpo_outcome_advantage and compute_rloo_outcome_advantage (float32)', () => {
  let noise = 0;
  for (const c of advFx.cases) {
    const equal = equalGroupMembers(c.rewards, c.promptIds);
    for (const def of home.advantages) {
      const want = c.schemes[def.scheme]!;
      assert.ok(want, def.scheme);
      const got = def.compute({ rewards: c.rewards, promptIds: c.promptIds, k: c.k });
      assert.equal(got.advantages.length, want.advantages.length);
      got.advantages.forEach((v, i) => {
        const w = want.advantages[i]!;
        assert.ok(v !== null && w !== null);
        if (def.scheme === 'skyrl' && equal.has(i) && w !== 0) {
          // Known float32 divergence: for a group of one repeated reward torch's float32 mean can miss the
          // reward by an ulp (k = 7, 8, 16 …), and dividing by (std ≈ 1e-8) + 1e-6 turns that into |A| of a few
          // hundredths. The sandbox's float64 statistics give the exact 0.
          assert.equal(v, 0);
          assert.ok(Math.abs(w) < 0.1, `${w}`);
          noise++;
          return;
        }
        assert.ok(Math.abs(v - w) <= 2e-6 * Math.max(1, Math.abs(w)), `${def.scheme} ${v} vs ${w}`);
      });
      assert.deepEqual(got.warnings, want.warnings);
    }
  }
  assert.ok(noise > 0 && noise < 250, `${noise}`);
  assert.equal(home.advantages[0]!.scheme, 'skyrl');
});

test('micro-batches equal stage_chunks + get_microbatch_iterator (sample-based and the balanced packer)', () => {
  for (const c of packFx.cases) {
    const got = skyrlMicroBatches(c.seqlens, c.ranks, c.micro, c.maxTokens);
    assert.deepEqual(got, c.packed, JSON.stringify({ ranks: c.ranks, micro: c.micro, maxTokens: c.maxTokens }));
  }
  assert.ok('pack' in home.packing);
  const settings = { ...defaultSettings(home.keys), ranks: 2, 'max-tokens-per-microbatch': 1000 };
  const c = packFx.cases.find((x) => x.ranks === 2 && x.maxTokens === 1000)!;
  if ('pack' in home.packing) assert.deepEqual(home.packing.pack(c.seqlens, settings), c.packed);
});

test('the shipped example run_gsm8k.sh reads as SkyRL runs it', () => {
  const text = readFileSync(new URL('../../fixtures/configs/skyrl-run_gsm8k.yaml', import.meta.url), 'utf8');
  assert.match(text.split('\n')[0]!, /run_gsm8k\.sh, NovaSky-AI\/SkyRL @ a9564572eb8e91076be43c1bd5e4615e3de17265/);
  const { settings, ignored } = readConfig(home.keys, parse(text));
  assert.deepEqual(ignored, []);
  assert.deepEqual(readConfig(home.keys, home.presets[0]!.config).settings, settings, 'the preset restates the same keys');
  assert.equal(home.presets[0]!.name, 'skyrl-gsm8k');
  assert.equal(settings['policy-num-gpus-per-node'], 4);
  assert.equal(settings.ranks, null);
  assert.equal(settings['ref-num-gpus-per-node'], 4);
  assert.equal(settings['train-batch-size'], 1024);
  assert.equal(settings.k, 5);
  assert.equal(settings.epochs, 20);
  assert.equal(settings['policy-mini-batch-size'], 256);
  assert.equal(settings['micro-train-batch-size-per-gpu'], 64);
  assert.equal(settings['use-kl-loss'], true);
  assert.equal(settings['dataloader-num-workers'], null);
  const out = home.layout({ ...settings, 'dataset-size': 2048 });
  const count = (name: string) => out.counts.find((x) => x.name === name)!.value;
  assert.equal(count('len(train_dataloader)'), 2);
  assert.equal(count('total_training_steps'), 40);
  assert.equal(count('policy_mini_batch_size_per_gpu'), 320);
  assert.equal(count('policy_steps_per_train_batch'), 4);
  assert.equal(count('micro-batches per mini-batch per rank'), 5);
  // 4 mini-batches of 256 prompts, each cut into 4 pieces of 320 samples = 64 whole prompts.
  const step = out.steps[0]!;
  assert.equal(step.ranks.length, 4);
  assert.deepEqual(step.sources[1]!.slice(0, 3), [320, 321, 322]);
  assert.deepEqual(step.sources[1]!.slice(320, 323), [1280 + 320, 1280 + 321, 1280 + 322]);
});

test("SkyRL's other errors: megatron is refused, and settings below 1 say so", () => {
  assert.throws(() => home.layout({ ...defaultSettings(home.keys), strategy: 'megatron' }), ConfigError);
  assert.throws(() => home.layout({ ...defaultSettings(home.keys), k: 0 }), ConfigError);
  const warned = home.layout({ ...defaultSettings(home.keys), strategy: 'fsdp2', 'dataset-size': 1024 });
  assert.deepEqual(warned.warnings, ["DeprecationWarning: trainer.strategy='fsdp2' has been renamed to 'fsdp'; use 'fsdp' instead."]);
});
