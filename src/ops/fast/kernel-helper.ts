// The helper's side of kernel-team.ts: a thread given over to running rows of its owner's large
// products. It waits for its owner's next product, claims rows of it with its own instance of the
// kernel on the owner's shared memory until none is left, and goes back to waiting. It blocks its
// thread for good (the owner's world terminates it).
import { claimRows, type HelperSetup, type PortLike, WORD } from './kernel-team.ts';
import { kernelInstance } from './simd.ts';

/** Makes this thread a kernel helper once its owner sends the team's memory over `port`. */
export function serveKernelHelper(port: PortLike): void {
  port.addEventListener('message', (ev) => help(ev.data as HelperSetup));
  port.start?.();
}

function help({ memory, control }: HelperSetup): never {
  const ctrl = new Int32Array(control);
  const instances = new Map<boolean, ReturnType<typeof kernelInstance>>();
  let seen = 0;
  for (;;) {
    Atomics.wait(ctrl, WORD.seq, seen);
    seen = Atomics.load(ctrl, WORD.seq);
    try {
      const relaxed = ctrl[WORD.relaxed] === 1;
      if (!instances.has(relaxed)) instances.set(relaxed, kernelInstance(relaxed, memory));
      const fns = instances.get(relaxed);
      if (!fns) throw new Error('this thread cannot run the kernel variant its owner runs');
      claimRows(fns.matmul, ctrl, seen);
    } catch {
      Atomics.store(ctrl, WORD.failed, 1);
      Atomics.notify(ctrl, WORD.done);
    }
  }
}
