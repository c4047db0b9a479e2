// AReaL's admission rule for asynchronous rollouts, areal/infra/staleness_manager.py StalenessManager @ 4aef98d.
// A rollout is one task (one prompt's group). New tasks may start while get_capacity() > 0:
//   min(max(1, max_concurrent_rollouts) − running,
//       (max_head_offpolicyness + version + 1) × max(1, consumer_batch_size) − (accepted + running)).
// In single-controller mode the RolloutController builds it with max_concurrent_rollouts (or consumer_batch_size when
// unset) and consumer_batch_size as configured; the SPMD WorkflowExecutor divides both by the data-parallel size.

export interface RolloutStat {
  accepted: number;
  enqueued: number;
  rejected: number;
  running: number;
}

export class StalenessManager {
  readonly stat: RolloutStat = { accepted: 0, enqueued: 0, rejected: 0, running: 0 };

  constructor(
    readonly maxConcurrentRollouts: number,
    readonly consumerBatchSize: number,
    readonly maxStaleness: number,
    /** The current weight version (AReaL asks its version provider each time). */
    public version = 0,
  ) {}

  /** get_pending_limit: (max_staleness + 1) × consumer_batch_size (without the max(1, …) of get_capacity). */
  pendingLimit(): number {
    return (this.maxStaleness + 1) * this.consumerBatchSize;
  }

  /** get_capacity: new rollout slots now; negative when over either limit. */
  capacity(): number {
    const concurrency = Math.max(1, this.maxConcurrentRollouts) - this.stat.running;
    const samples = this.stat.accepted + this.stat.running;
    const staleness = (this.maxStaleness + this.version + 1) * Math.max(1, this.consumerBatchSize) - samples;
    return Math.min(concurrency, staleness);
  }

  /** on_version_recovered: after a checkpoint, count the recovered versions' batches as accepted. */
  versionRecovered(version: number): void {
    this.stat.accepted = version * Math.max(1, this.consumerBatchSize);
  }

  enqueued(): void {
    this.stat.enqueued += 1;
  }

  submitted(): void {
    this.stat.enqueued -= 1;
    this.stat.running += 1;
  }

  accepted(): void {
    this.stat.running -= 1;
    this.stat.accepted += 1;
  }

  rejected(): void {
    this.stat.running -= 1;
    this.stat.rejected += 1;
  }
}
