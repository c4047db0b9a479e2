// Drives the story over time (a Lit reactive controller: logic, no rendering). Each step
// forward shows the next phase's caption first, pauses, then moves the tiles ("text, then
// the action"); while playing it dwells and continues. Per-frame progress goes to a
// callback (the canvas redraws) without re-rendering the host; the host re-renders only
// when the phase, stage or play state changes. Frame times are recorded for measurement.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type StoryStage = 'idle' | 'caption' | 'move' | 'dwell';

/** Milliseconds at speed 1. While playing, a caption stays at least its reading time (readingMs) before the tiles move. */
export const timing = { caption: 900, move: 1500, dwell: 1000 };

/** Reading pace: 200 words a minute (300 ms a word); a CJK character counts as two thirds of a word (about 300 characters a minute). */
export const READING = { msPerWord: 300, msPerCjk: 200 };

/** How long `text` takes to read at the READING pace (ms). */
export function readingMs(text: string): number {
  const cjk = text.match(/[\u3000-\u9fff\uff00-\uffef]/g)?.length ?? 0;
  const words = text
    .replace(/[\u3000-\u9fff\uff00-\uffef]/g, ' ')
    .split(/\s+/)
    .filter((w) => /\w/.test(w)).length;
  return words * READING.msPerWord + cjk * READING.msPerCjk;
}

export class StoryController implements ReactiveController {
  phase = 0;
  /** Movement into `phase` from the phase before it: 0 = still at the old places, 1 = arrived. */
  progress = 1;
  stage: StoryStage = 'idle';
  playing = false;
  speed = 1;
  /** While this returns true for the phase, the caption stage waits (a quiz question is open: predict, then reveal). */
  holdCaption: (phase: number) => boolean = () => false;
  /** The reading time of the phase's caption (ms at speed 1): while playing, the tiles wait at least that long. */
  captionMs: (phase: number) => number = () => 0;
  /** prefers-reduced-motion: tiles jump to their places instead of moving (the caption still comes first). */
  reducedMotion = false;
  /** requestAnimationFrame deltas (ms) recorded while tiles move. */
  readonly frameDeltas: number[] = [];

  private stageStart = 0;
  /** captionWait() for the current caption stage, worked out once (reading the caption's words) rather than every frame; null: not yet. */
  private captionWaitNow: number | null = null;
  private lastFrame = 0;
  private raf = 0;

  constructor(
    private readonly host: ReactiveControllerHost,
    readonly phaseCount: number,
    /** Called every animation frame with the phase and its progress. */
    private readonly onFrame: (phase: number, progress: number) => void,
    /** Called when the phase or play state changes (e.g. to write the URL). */
    private readonly onChange: () => void,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  /**
   * Shows `phase` as it ends (no movement); keeps playing if playing. A phase whose caption is
   * held (an open quiz question) is shown before its movement instead, waiting in its caption,
   * so a jump does not give the answer away.
   */
  jump(phase: number): void {
    this.phase = Math.max(0, Math.min(this.phaseCount - 1, phase));
    if (this.phase > 0 && this.holdCaption(this.phase)) {
      this.progress = 0;
      this.setStage('caption');
      return;
    }
    this.progress = 1;
    this.setStage(this.playing && this.phase < this.phaseCount - 1 ? 'dwell' : 'idle');
  }

  /** Goes to the next phase: caption, then movement. */
  forward(): void {
    if (this.phase >= this.phaseCount - 1) {
      this.playing = false;
      this.setStage('idle');
      return;
    }
    this.phase += 1;
    this.progress = 0;
    this.setStage('caption');
  }

  /** Back one phase, shown as it ends; pauses. */
  back(): void {
    this.playing = false;
    this.jump(this.phase - 1);
  }

  play(): void {
    this.playing = true;
    if (this.phase >= this.phaseCount - 1) {
      this.phase = 0;
      this.progress = 1;
    }
    if (this.stage === 'idle') this.forward();
    else this.changed();
  }

  /** Stops after the current movement (never freezes tiles half-way). */
  pause(): void {
    this.playing = false;
    if (this.stage === 'dwell') this.setStage('idle');
    else this.changed();
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  /** The caption's pause at speed 1: a step shows its text briefly; Play waits the caption's reading time. */
  captionWait(): number {
    return this.playing ? Math.max(timing.caption, this.captionMs(this.phase)) : timing.caption;
  }

  private setStage(stage: StoryStage): void {
    this.stage = stage;
    this.captionWaitNow = null;
    this.stageStart = performance.now();
    this.lastFrame = 0;
    if (stage !== 'idle' && this.raf === 0) this.raf = requestAnimationFrame(this.tick);
    this.onFrame(this.phase, this.progress);
    this.changed();
  }

  private changed(): void {
    this.captionWaitNow = null; // playing or paused: the caption's wait may differ
    this.host.requestUpdate();
    this.onChange();
  }

  private readonly tick = (now: number): void => {
    this.raf = 0;
    if (this.stage === 'idle') return;
    const elapsed = now - this.stageStart;
    const scale = 1 / this.speed;
    if (this.stage === 'caption' && this.holdCaption(this.phase)) {
      this.stageStart = now; // the pause after the answer is the caption's full time again
    } else if (this.stage === 'caption' && elapsed >= (this.captionWaitNow ??= this.captionWait()) * scale) {
      if (this.reducedMotion) {
        this.progress = 1;
        if (this.phase >= this.phaseCount - 1) this.playing = false;
        this.setStage(this.playing ? 'dwell' : 'idle');
      } else this.setStage('move');
      return;
    }
    if (this.stage === 'move') {
      if (this.lastFrame > 0 && this.frameDeltas.length < 100_000) this.frameDeltas.push(now - this.lastFrame);
      this.lastFrame = now;
      this.progress = Math.min(1, Math.max(0, elapsed / (timing.move * scale)));
      this.onFrame(this.phase, this.progress);
      if (this.progress >= 1) {
        if (this.phase >= this.phaseCount - 1) this.playing = false;
        this.setStage(this.playing ? 'dwell' : 'idle');
        return;
      }
    }
    if (this.stage === 'dwell' && elapsed >= timing.dwell * scale) {
      this.forward();
      return;
    }
    this.raf = requestAnimationFrame(this.tick);
  };
}
