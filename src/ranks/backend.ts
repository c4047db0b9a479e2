// How a collective whose ranks disagree (shapes, dtypes, or which collective) ends, as each real
// torch.distributed backend shows it. The simulated world always detects the disagreement at once
// (every rank reads every rank's header); the backend behaviour decides what the user then sees:
//   nccl    NCCL does not compare what the ranks posted: the collective hangs (or returns wrong data)
//           until torch's watchdog times out; then the last collective each rank entered, as a table in
//           the manner of torch's NCCL flight recorder, and the sandbox's diagnosis;
//   gloo    gloo's own error, worded as torch 2.13 with gloo raised it on real processes;
//   detail  TORCH_DISTRIBUTED_DEBUG=DETAIL: torch checks each collective's fingerprint first and raises
//           on every rank, worded as torch 2.13 does;
//   sandbox the sandbox's own diagnosis at once on every rank (no real backend does this).
// The gloo and DETAIL texts were reproduced by scripts/golden/dist_errors.py (test/fixtures/dist-errors.json);
// nothing here is NCCL output: the watchdog lines follow torch's ProcessGroupNCCL wording as users' logs show it.
import { groupByLabel, rankList } from './faults.ts';

export const BACKEND_BEHAVIOURS = ['nccl', 'gloo', 'detail', 'sandbox'] as const;
export type BackendBehaviour = (typeof BACKEND_BEHAVIOURS)[number];

export const BACKEND_ABOUT: Record<BackendBehaviour, string> = {
  nccl: "NCCL: a mismatched collective hangs until torch's watchdog times out, then a flight-recorder-style table and the diagnosis",
  gloo: 'gloo: raises its own error, worded as torch 2.13 with gloo raised it on real processes',
  detail: "TORCH_DISTRIBUTED_DEBUG=DETAIL: torch's collective fingerprint mismatch on every rank, worded as torch 2.13 raised it",
  sandbox: "the sandbox's own diagnosis at once on every rank, naming every rank's shapes (no real backend does this)",
};

/** The torch version whose gloo and DETAIL wording is reproduced (scripts/golden/dist_errors.py). */
export const TORCH_WORDING = 'torch 2.13.0';

/** What one rank posted for one collective (read from its header in the arena). */
export interface PostedCollective {
  rank: number;
  seq: number;
  /** The sandbox's collective name (allGather, …). */
  kind: string;
  /** null when the rank posted no payload (barrier, a non-root broadcast without one). */
  dtype: string | null;
  shape: readonly number[];
  /** World size, for output sizes. */
  world: number;
}

/** torch's OpType for each sandbox collective (allGatherObject and allGatherVariable are all_gathers in torch). */
const OP_TYPE: Record<string, string> = {
  barrier: 'BARRIER',
  broadcast: 'BROADCAST',
  allGather: 'ALLGATHER',
  allGatherVariable: 'ALLGATHER',
  allGatherObject: 'ALLGATHER',
  gatherObject: 'GATHER',
  allReduce: 'ALLREDUCE',
};
export const opType = (kind: string): string => OP_TYPE[kind] ?? kind.toUpperCase();

const numel = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** The output shape torch gives this collective: all_gather stacks the world on dim 0. */
function outputShape(p: PostedCollective): number[] {
  if (p.dtype === null) return [];
  if (opType(p.kind) === 'ALLGATHER') return p.shape.length === 0 ? [p.world] : [p.world * p.shape[0]!, ...p.shape.slice(1)];
  return [...p.shape];
}

/** torch's dtype names as its fingerprints print them (c10 ScalarType). */
const TORCH_DTYPE: Record<string, string> = {
  float32: 'Float',
  float64: 'Double',
  int32: 'Int',
  uint8: 'Byte',
  int8: 'Char',
  int16: 'Short',
  uint16: 'UInt16',
  uint32: 'UInt32',
  bigint64: 'Long',
};
export const torchDtype = (dtype: string | null): string => (dtype === null ? '' : (TORCH_DTYPE[dtype] ?? dtype));

/** Right-pads the columns of `rows` (the first row is the header). */
function columns(rows: string[][], indent: string): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => indent + r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  '));
}

/**
 * The last collective each rank entered, one row per group of ranks that posted the same, with the
 * fields torch's NCCL flight recorder keeps per entry (collective_seq_id, op, input and output sizes,
 * dtypes, state); the layout is the sandbox's, not fr_trace's.
 */
export function flightRecorderTable(posted: readonly PostedCollective[], state: string): string[] {
  const row = (p: PostedCollective) => [
    String(p.seq),
    opType(p.kind),
    p.dtype === null ? '[]' : `[[${p.shape.join(', ')}]]`,
    p.dtype === null ? '[]' : `[[${outputShape(p).join(', ')}]]`,
    torchDtype(p.dtype) || '-',
    state,
  ];
  const groups = groupByLabel(posted.map((p) => row(p).join('\u0000')));
  const rows = [['ranks', 'collective_seq_id', 'op', 'input_sizes', 'output_sizes', 'dtype', 'state']];
  for (const g of groups) rows.push([rankList(g.ranks), ...g.label.split('\u0000')]);
  return columns(rows, '    ');
}

/**
 * NCCL: the lines torch's watchdog logs when a collective times out (ProcessGroupNCCL's wording, as
 * users' logs of torch 2.x show it), one per group of ranks that posted the same.
 */
export function ncclWatchdogLines(posted: readonly PostedCollective[], timeoutMs: number, ranForMs: number): string[] {
  const groups = groupByLabel(posted.map((p) => `${p.seq}|${opType(p.kind)}|${numel(p.shape)}|${numel(outputShape(p))}`));
  return groups.flatMap((g) => {
    const p = posted[g.ranks[0]!]!;
    const work = `WorkNCCL(SeqNum=${p.seq}, OpType=${opType(p.kind)}, NumelIn=${p.dtype === null ? 0 : numel(p.shape)}, NumelOut=${
      p.dtype === null ? 0 : numel(outputShape(p))
    }, Timeout(ms)=${timeoutMs})`;
    const who = g.ranks.length === 1 ? `[Rank ${g.ranks[0]}]` : `[Rank ${g.ranks[0]}] (and ${rankList(g.ranks.slice(1))} alike)`;
    return [`${who} Watchdog caught collective operation timeout: ${work} ran for ${ranForMs} milliseconds before timing out.`];
  });
}

/** The whole NCCL-behaviour report: what happened, the watchdog's lines, the table, the sandbox's diagnosis. */
export function ncclHangReport(posted: readonly PostedCollective[], timeoutMs: number, ranForMs: number, diagnosis: string): string {
  const first = posted[0]!;
  return [
    `as NCCL would behave (imitated, no NCCL runs here): NCCL does not compare what the ranks posted, so ${first.kind} ` +
      `#${first.seq} hangs (or returns wrong data) until torch's watchdog times out after ${timeoutMs} ms ` +
      `(torch's default: 10 minutes; --watchdog-ms):`,
    ...ncclWatchdogLines(posted, timeoutMs, ranForMs).map((l) => `  ${l}`),
    '  Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations ' +
      'might run on corrupted/incomplete data. To avoid data inconsistency, we are taking the entire process down.',
    "  (torch's ProcessGroupNCCL wording as users' logs of torch 2.x show it; the flight recorder dumps with TORCH_NCCL_TRACE_BUFFER_SIZE > 0)",
    '  last collective each rank entered (flight-recorder fields, the sandbox’s layout):',
    ...flightRecorderTable(posted, 'started, never completed'),
    `  sandbox diagnosis: ${diagnosis}`,
  ].join('\n');
}

// ---- TORCH_DISTRIBUTED_DEBUG=DETAIL (torch 2.13 with gloo, reproduced) ---------------------------------

/** c10's TensorOptions as DETAIL prints it for a CPU tensor (reproduced for float32; other dtypes by c10's names). */
const OPTIONS_DTYPE: Record<string, string> = { float32: 'float (default)', float64: 'double', int32: 'int', uint8: 'unsigned char' };
const tensorOptions = (dtype: string) =>
  `TensorOptions(dtype=${OPTIONS_DTYPE[dtype] ?? dtype}, device=cpu, layout=Strided (default), requires_grad=false (default), ` +
  'pinned_memory=false (default), memory_format=(nullopt))';

/** torch counts a process group's collectives from 0; the sandbox numbers them from #1. */
const torchSeq = (p: PostedCollective) => p.seq - 1;

/** `CollectiveFingerPrint(…)` as DETAIL prints it; a collective without tensors (barrier) has no comma after its number. */
export function fingerprint(p: PostedCollective): string {
  if (p.dtype === null) return `CollectiveFingerPrint(SequenceNumber=${torchSeq(p)}OpType=${opType(p.kind)})`;
  return (
    `CollectiveFingerPrint(SequenceNumber=${torchSeq(p)}, OpType=${opType(p.kind)}, TensorShape=[${p.shape.join(', ')}], ` +
    `TensorDtypes=${torchDtype(p.dtype)}, TensorDeviceTypes=${tensorOptions(p.dtype)})`
  );
}

/** DETAIL's list of what differs, in its order and spacing ("16 1vs 14 1"). */
function differences(a: PostedCollective, b: PostedCollective): string {
  const parts: string[] = [];
  if (torchSeq(a) !== torchSeq(b)) parts.push(`\t Sequence number: ${torchSeq(a)}vs ${torchSeq(b)}`);
  if (opType(a.kind) !== opType(b.kind)) parts.push(`  Op type: ${opType(a.kind)}vs ${opType(b.kind)}`);
  const shape = (p: PostedCollective) => (p.dtype === null ? '' : p.shape.join(' '));
  if (shape(a) !== shape(b) || (a.dtype === null) !== (b.dtype === null)) parts.push(`  Tensor Tensor shapes: ${shape(a)}vs ${shape(b)}`);
  if (a.dtype !== b.dtype) {
    parts.push(`  Tensor Tensor dtypes: ${torchDtype(a.dtype)}vs ${torchDtype(b.dtype)}`);
    parts.push(
      `  Tensor Tensor devices: ${a.dtype === null ? '' : tensorOptions(a.dtype)}vs ${b.dtype === null ? '' : tensorOptions(b.dtype)}`,
    );
  }
  return parts.join('');
}

/**
 * What `rank` raises under TORCH_DISTRIBUTED_DEBUG=DETAIL: torch all-gathers every rank's fingerprint before the
 * collective, and each rank names the lowest rank whose fingerprint differs from its own. Worded as torch 2.13
 * raised it with gloo on CPU tensors (test/fixtures/dist-errors.json); with a barrier on one side the real
 * partner fingerprint can name another op (REDUCE, GATHER: the wrapper's own collectives), which is not modelled.
 */
export function detailMismatchMessage(posted: readonly PostedCollective[], rank: number, diagnosis: string): string {
  const mine = posted[rank]!;
  const other = posted.find((p) => fingerprint(p) !== fingerprint(mine)) ?? posted.find((p) => p.rank !== rank)!;
  return (
    `(as torch raises it with TORCH_DISTRIBUTED_DEBUG=DETAIL; ${TORCH_WORDING} wording, reproduced with gloo) ` +
    `Detected mismatch between collectives on ranks. Rank ${rank} is running collective: ${fingerprint(mine)}, but Rank ${other.rank} ` +
    `is running collective: ${fingerprint(other)}.Collectives differ in the following aspects: ${differences(mine, other)}\n` +
    `  sandbox diagnosis: ${diagnosis}`
  );
}

// ---- gloo (torch 2.13 with gloo, reproduced) --------------------------------------------------------------

/**
 * What `rank` raises under gloo (reproduced: test/fixtures/dist-errors.json). Different sizes: a rank that
 * receives more bytes than it posted aborts its process (gloo::EnforceNotMet, SIGABRT); the others then raise
 * RuntimeError when the connection drops. Different collectives (reproduced: all_reduce against barrier): no check
 * at all; every rank waits until the process group's timeout ("Timed out waiting … for recv").
 */
export function glooMismatch(
  posted: readonly PostedCollective[],
  rank: number,
  diagnosis: string,
  timeoutMs: number,
): { kind: 'abort' | 'peer-gone' | 'timeout'; name: string; message: string } {
  const bytes = (p: PostedCollective) => (p.dtype === null ? 0 : numel(p.shape));
  const sizes = new Set(posted.map(bytes));
  const ops = new Set(posted.map((p) => opType(p.kind)));
  const shown = `as gloo behaves (${TORCH_WORDING} with gloo, reproduced on real processes)`;
  const tail = `\n  sandbox diagnosis: ${diagnosis}`;
  if (sizes.size === 1 || ops.size > 1)
    return {
      kind: 'timeout',
      name: 'RuntimeError',
      message:
        `(${shown}: nothing checks which collective each rank calls, so every rank waits until the process group's ` +
        `timeout) [gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting ${timeoutMs}ms for recv operation to complete${tail}`,
    };
  const smallest = Math.min(...sizes);
  const aborter = posted.find((p) => bytes(p) === smallest)!.rank;
  if (rank === aborter)
    return {
      kind: 'abort',
      name: 'gloo::EnforceNotMet',
      message:
        `the process of rank ${rank} aborts (SIGABRT, exit code -6) ${shown}: it receives more bytes than it posted:\n` +
        "  terminate called after throwing an instance of 'gloo::EnforceNotMet'\n" +
        '    what():  [enforce fail at gloo/transport/tcp/pair.cc:456] op.preamble.length <= op.nbytes. A vs B. ' +
        "Received data size doesn't match expected size. Is there a distributed collective mismatch in your code?\n" +
        "  (A vs B: the bytes of one chunk of gloo's algorithm, sent and expected; their values are not modelled)" +
        tail,
    };
  return {
    kind: 'peer-gone',
    name: 'RuntimeError',
    message:
      `(${shown}, once rank ${aborter}'s process is gone) [gloo/transport/tcp/pair.cc:537] Read error [127.0.0.1]:PORT: ` +
      'Connection reset by peer. This is typically caused by a remote worker hanging or bugs in the application. ' +
      `Check the logs of the remote worker before reporting an error. GLHF! 🏖️${tail}`,
  };
}
