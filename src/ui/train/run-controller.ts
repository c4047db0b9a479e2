// A training run's lifecycle in the page (a Lit reactive controller: logic, no template): start
// `grpo-sandbox train`'s loop (src/train/run.ts) with each rank a module Web Worker, collect the
// steps, stop at a step boundary, reset; when a run ends, evaluate the learned policy per budget in
// a worker (policy-worker.ts). Callbacks of an older run (after a reset) are ignored.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { TrainConfig } from '../../train/config.ts';
import { type RunNotice, train, type StepRecord } from '../../train/run.ts';
import { type Said, saidOf } from '../core-text.ts';
import { deviceNotice } from './messages.ts';
import type { PolicyAnswer } from './policy-worker.ts';

export type Phase = 'idle' | 'starting' | 'running' | 'stopping' | 'done' | 'failed';

export interface RunEvents {
  /** A step arrived (after it is in `records`). */
  step(record: StepRecord): void;
  /** The steps were cleared (a new run, a reset). */
  cleared(): void;
  /** The run ended, or the policy table arrived: redraw. */
  changed(): void;
}

export class RunController implements ReactiveController {
  phase: Phase = 'idle';
  /** The error to show (a setting's, or why the run or the policy table failed), as the core said it. */
  error: Said | null = null;
  /** The error is a failure of the run or of the policy table (shown after "The run failed:"), not a setting's. */
  failure = false;
  notice: string | null = null;
  bands: PolicyAnswer | null = null;
  policyState: 'none' | 'pending' | 'failed' = 'none';
  /** Steps of the current (or last) run, as they arrived. */
  records: StepRecord[] = [];
  /** The configuration the current (or last) run trains with. */
  config: TrainConfig | null = null;
  preset: string | undefined;
  device = '';
  /** performance.now() when the run's workers were up, and when its last step arrived (0: none yet). */
  t0 = 0;
  tLast = 0;
  private stopRequested = false;
  /** Bumped by reset: callbacks of an older run are ignored. */
  private generation = 0;
  private running: Promise<void> | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly events: RunEvents,
  ) {
    host.addController(this);
  }

  /** A removed dashboard stops its run at the next step boundary (its workers are terminated). */
  hostDisconnected(): void {
    this.stopRequested = true;
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** Starts a run of `config` (no-op while one runs). */
  async start(config: TrainConfig, preset: string | undefined): Promise<void> {
    if (this.running) return;
    this.clear();
    this.config = config;
    this.preset = preset;
    this.set({ phase: 'starting' });
    this.stopRequested = false;
    const generation = this.generation;
    const notices: RunNotice[] = [];
    const mine = () => generation === this.generation;
    this.running = (async () => {
      try {
        const result = await train({
          config,
          shouldStop: () => this.stopRequested || !mine(),
          onNotice: (notice) => {
            notices.push(notice);
            if (mine()) this.set({ notice: deviceNotice(config.backend, notices) });
          },
          onStart: (device) => {
            if (!mine()) return;
            this.device = device;
            this.t0 = performance.now();
            this.tLast = this.t0;
            this.set({ phase: 'running' });
          },
          onStep: (record) => {
            if (!mine()) return;
            this.records.push(record);
            this.tLast = performance.now();
            this.events.step(record);
          },
        });
        if (!mine()) return;
        this.set({ phase: 'done' });
        this.events.changed();
        if (result.stopped && this.stopRequested) this.stopRequested = false;
        void this.evaluatePolicy(config, result.final.params, generation);
      } catch (err) {
        if (!mine()) return;
        this.set({ phase: 'failed', error: firstLine(saidOf(err, true)), failure: true });
      }
    })();
    try {
      await this.running;
    } finally {
      if (mine()) this.running = null;
    }
  }

  /** Asks the run to stop at the next step boundary; resolves once it has. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.stopRequested = true;
    if (this.phase === 'running' || this.phase === 'starting') this.set({ phase: 'stopping' });
    await this.running;
  }

  /** Stops any run and clears its metrics and policy table. */
  async reset(): Promise<void> {
    const run = this.running;
    this.generation++;
    this.stopRequested = true;
    this.running = null;
    this.clear();
    this.config = null;
    this.set({ phase: 'idle' });
    if (run) await run;
  }

  /** Steps per second since the workers were up (the start of the workers is not training). */
  stepsPerSecond(): number {
    const seconds = (this.tLast - this.t0) / 1000;
    return this.records.length > 0 && seconds > 0 ? this.records.length / seconds : 0;
  }

  /** A settings error (or none) to show. */
  setError(error: Said | null): void {
    if (error?.message !== this.error?.message) this.set({ error, failure: false });
  }

  private set(change: Partial<Pick<RunController, 'phase' | 'error' | 'failure' | 'notice' | 'bands' | 'policyState'>>): void {
    Object.assign(this, change);
    this.host.requestUpdate();
  }

  private clear(): void {
    this.records = [];
    this.device = '';
    this.t0 = this.tLast = 0;
    this.set({ error: null, failure: false, notice: null, bands: null, policyState: 'none' });
    this.events.cleared();
  }

  private async evaluatePolicy(config: TrainConfig, params: Float32Array, generation: number): Promise<void> {
    this.set({ policyState: 'pending' });
    const worker = new Worker(new URL('./policy-worker.ts', import.meta.url), { type: 'module', name: 'policy per budget' });
    try {
      const answer = await new Promise<PolicyAnswer>((resolve, reject) => {
        worker.onmessage = (ev: MessageEvent<{ ok: true; answer: PolicyAnswer } | { ok: false; message: string }>) =>
          ev.data.ok ? resolve(ev.data.answer) : reject(new Error(ev.data.message));
        worker.onerror = (ev) => {
          ev.preventDefault();
          reject(new Error(ev.message || 'the policy worker failed to load'));
        };
        worker.postMessage({ config, params });
      });
      if (generation !== this.generation) return;
      this.set({ bands: answer, policyState: 'none' });
      this.events.changed();
    } catch (err) {
      if (generation !== this.generation) return;
      this.set({ policyState: 'failed', error: saidOf(err, true), failure: true });
    } finally {
      worker.terminate();
    }
  }
}

/** An error's first line (a stack or a worker's trace may follow it). */
function firstLine(said: Said): Said {
  return { ...said, message: said.message.split('\n')[0]! };
}
