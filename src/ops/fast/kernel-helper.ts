// The helper's side of kernel-team.ts: a thread given over to running rows of its owner's large
// products. It waits for its owner's next product, claims rows of it with its own instance of the
// kernel on the owner's shared memory until none is left, and goes back to waiting. It waits with
// Atomics.waitAsync, in its event loop, not blocked in Atomics.wait: Deno did not always end a process
// whose terminated worker was blocked there (a one-rank run under Deno finished its steps and then
// never exited). The owner's world terminates it.
import { claimRows, type HelperSetup, helpersRunHere, type PortLike, WORD } from './kernel-team.ts';
import { waitAsync } from '../../core/wait-async.ts';
import { kernelInstance } from './simd.ts';

/** Makes this thread a kernel helper once its owner sends the team's memory over `port`. */
export function serveKernelHelper(port: PortLike): void {
  if (!helpersRunHere())
    throw new Error('this runtime has no Atomics.waitAsync, which kernel helper threads wait with; start them with helpers: 0');
  port.addEventListener('message', (ev) => void help(ev.data as HelperSetup));
  port.start?.();
}

async function help({ memory, control }: HelperSetup): Promise<never> {
  const ctrl = new Int32Array(control);
  const instances = new Map<boolean, ReturnType<typeof kernelInstance>>();
  let seen = 0;
  for (;;) {
    const wait = waitAsync(ctrl, WORD.seq, seen);
    if (wait.async) await wait.value;
    seen = Atomics.load(ctrl, WORD.seq);
    try {
      const relaxed = ctrl[WORD.relaxed] === 1;
      if (!instances.has(relaxed)) instances.set(relaxed, kernelInstance(relaxed, memory));
      const fns = instances.get(relaxed);
      if (!fns) throw new Error('this thread cannot run the kernel variant its owner runs');
      claimRows(fns, ctrl, seen);
    } catch {
      Atomics.store(ctrl, WORD.failed, 1);
      Atomics.notify(ctrl, WORD.done);
    }
  }
}
