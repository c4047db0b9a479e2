// str() of a 1-D NumPy integer array (numpy 2.x defaults: linewidth 75, threshold 1000, edgeitems 3), as AReaL's
// ffd_allocate prints `values` in its capacity error. numpy/_core/arrayprint.py _formatArray, restated.
const LINE_WIDTH = 75;
const THRESHOLD = 1000;
const EDGE_ITEMS = 3;

export function numpyIntArrayStr(values: readonly number[]): string {
  if (values.length === 0) return '[]';
  const summary = values.length > THRESHOLD;
  const shown = summary ? [...values.slice(0, EDGE_ITEMS), ...values.slice(-EDGE_ITEMS)] : [...values];
  const width = Math.max(...shown.map((v) => String(v).length));
  const words = shown.map((v) => String(v).padStart(width));
  if (summary) words.splice(EDGE_ITEMS, 0, '...');
  // Every element, the last one too, must leave room for the closing bracket.
  const elemWidth = LINE_WIDTH - 1;
  let out = '';
  let line = '[';
  words.forEach((word, i) => {
    if (line.length + word.length > elemWidth) {
      out += `${line.trimEnd()}\n`;
      line = ' ';
    }
    line += word;
    if (i < words.length - 1) line += ' ';
  });
  return `${out}${line}]`;
}
