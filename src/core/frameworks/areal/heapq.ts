// CPython's heapq.heappush / heappop (_siftdown / _siftup) over a caller's `less`, so equal keys pop in
// exactly Python's order.
export function heapPush<T>(heap: T[], item: T, less: (a: T, b: T) => boolean): void {
  heap.push(item);
  siftDown(heap, 0, heap.length - 1, less);
}

export function heapPop<T>(heap: T[], less: (a: T, b: T) => boolean): T {
  const last = heap.pop() as T;
  if (heap.length === 0) return last;
  const top = heap[0] as T;
  heap[0] = last;
  const end = heap.length;
  let pos = 0;
  let child = 1;
  while (child < end) {
    const right = child + 1;
    if (right < end && !less(heap[child] as T, heap[right] as T)) child = right;
    heap[pos] = heap[child] as T;
    pos = child;
    child = 2 * pos + 1;
  }
  heap[pos] = last;
  siftDown(heap, 0, pos, less);
  return top;
}

function siftDown<T>(heap: T[], start: number, pos: number, less: (a: T, b: T) => boolean): void {
  const item = heap[pos] as T;
  while (pos > start) {
    const parentPos = (pos - 1) >> 1;
    const parent = heap[parentPos] as T;
    if (!less(item, parent)) break;
    heap[pos] = parent;
    pos = parentPos;
  }
  heap[pos] = item;
}
