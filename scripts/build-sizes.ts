// The sizes docs/browser.md quotes, measured on `npm run build`'s output (the same Vite config, its
// files kept in memory, not written): what the explorer's first picture waits for, the overview
// worker, what one library tag loads, and the workers a run starts. kB = 1000 bytes, as Vite prints;
// gzip at level 9. Each sentence of the doc that quotes a size is a claim below (its words, with
// {names} where the numbers go): test/scripts/build-sizes.node.test.ts fails when a claim is missing
// from the doc, when the doc quotes a kB this list does not hold, or when a number differs from the
// build by more than TOLERANCE.
//   node --import tsx scripts/build-sizes.ts          prints each claim with the build's numbers
//   node --import tsx scripts/build-sizes.ts --write  puts them into docs/browser.md
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
export const DOC = join(root, 'docs/browser.md');

/** How far a size in the doc may be from the build's: a tenth, and never less than 2 kB. Counts must be exact. */
export const TOLERANCE = { relative: 0.1, minKb: 2 };

/** Some files of the build, together. */
export interface Part {
  files: string[];
  bytes: number;
  gzip: number;
}

export interface BuildSizes {
  /** The page's entry chunk and every chunk it imports statically: what the explorer's first picture waits for. */
  firstPicture: Part;
  /** The explorer's shared chunk (vite.config.ts: what the first picture runs, and Lit). */
  explorerChunk: Part;
  /** The page's entry chunk (routing, `<grpo-explorer>`). */
  pageEntry: Part;
  overviewWorker: Part;
  /** `grpo-sandbox.js` and what it loads before it watches the page: its static imports and every view of src/ui/views.ts with theirs. */
  library: Part;
  libraryEntry: Part;
  /** The library's chunks other than its entry and the explorer chunk: the views' own code. */
  libraryViews: Part;
  /** The training run's rank worker, the WebGPU kernels it imports when a rank opens a device, and the dynamic view's rank worker. */
  trainRankWorker: Part;
  kernels: Part;
  dynamicRankWorker: Part;
  policyWorker: Part;
  sweepWorker: Part;
  /**
   * Facts of the build the doc states in words: every file it writes, the source modules that are
   * chunks of their own, the files that carry V8's compile hint.
   */
  files: string[];
  ownChunks: string[];
  hinted: string[];
}

type Output = Rolldown.OutputChunk | Rolldown.OutputAsset;

/** The site as `npm run build` makes it, in memory. */
async function buildOutput(): Promise<Output[]> {
  const result = await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { write: false } });
  const outputs = Array.isArray(result) ? result : [result];
  return outputs.flatMap((o) => ('output' in o ? o.output : []));
}

const bytesOf = (o: Output) => Buffer.from(o.type === 'chunk' ? o.code : o.source);

function part(files: Output[]): Part {
  const unique = [...new Set(files)];
  return {
    files: unique.map((f) => f.fileName).sort(),
    bytes: unique.reduce((n, f) => n + bytesOf(f).length, 0),
    gzip: unique.reduce((n, f) => n + gzipSync(bytesOf(f), { level: 9 }).length, 0),
  };
}

/** The modules src/ui/views.ts loads (`import('./train/train-dashboard.ts')` …), as absolute paths. */
function viewModules(): string[] {
  const file = join(root, 'src/ui/views.ts');
  return [...readFileSync(file, 'utf8').matchAll(/import\('(\.[^']+)'\)/g)].map((m) => resolve(dirname(file), m[1]!));
}

/** Measures the build. */
export async function measureBuild(): Promise<BuildSizes> {
  const output = await buildOutput();
  const byName = new Map(output.map((o) => [o.fileName, o]));
  const chunks = output.filter((o): o is Rolldown.OutputChunk => o.type === 'chunk');
  const one = (what: string, test: (o: Output) => boolean): Output => {
    const found = output.filter(test);
    if (found.length !== 1) throw new Error(`the build has ${found.length} files for ${what}: ${found.map((f) => f.fileName).join(', ')}`);
    return found[0]!;
  };
  /** A chunk and every chunk it imports statically, transitively. */
  const closure = (start: Rolldown.OutputChunk[]): Rolldown.OutputChunk[] => {
    const seen = new Set<Rolldown.OutputChunk>();
    const visit = (c: Rolldown.OutputChunk) => {
      if (seen.has(c)) return;
      seen.add(c);
      for (const f of c.imports) visit(byName.get(f) as Rolldown.OutputChunk);
    };
    for (const c of start) visit(c);
    return [...seen];
  };
  const asset = (prefix: string, test: (source: string) => boolean = () => true) =>
    one(prefix, (o) => o.type === 'asset' && o.fileName.startsWith(`assets/${prefix}-`) && test(String(o.source)));

  const pageEntry = one(
    'the page entry',
    (o) => o.type === 'chunk' && o.isEntry && !!o.facadeModuleId?.endsWith('/index.html'),
  ) as Rolldown.OutputChunk;
  const libraryEntry = one('grpo-sandbox.js', (o) => o.fileName === 'grpo-sandbox.js') as Rolldown.OutputChunk;
  const explorerChunk = one('the explorer chunk', (o) => o.type === 'chunk' && !o.isEntry && o.name === 'explorer');
  const views = new Set(viewModules());
  const viewChunks = chunks.filter((c) => c.isDynamicEntry && c.facadeModuleId && views.has(c.facadeModuleId));
  if (viewChunks.length !== views.size)
    throw new Error(`${views.size} views in src/ui/views.ts, ${viewChunks.length} view chunks in the build`);
  const library = closure([libraryEntry, ...viewChunks]);
  // The two rank workers: the training run's imports the WebGPU kernels; the dynamic view's does not.
  const kernels = asset('kernels');
  const importsKernels = (source: string) => source.includes(`./${kernels.fileName.slice('assets/'.length)}`);

  return {
    firstPicture: part(closure([pageEntry])),
    explorerChunk: part([explorerChunk]),
    pageEntry: part([pageEntry]),
    overviewWorker: part([asset('overview-worker')]),
    library: part(library),
    libraryEntry: part([libraryEntry]),
    libraryViews: part(library.filter((c) => c !== libraryEntry && c !== explorerChunk)),
    trainRankWorker: part([asset('rank-worker', importsKernels)]),
    kernels: part([kernels]),
    dynamicRankWorker: part([asset('rank-worker', (s) => !importsKernels(s))]),
    policyWorker: part([asset('policy-worker')]),
    sweepWorker: part([asset('sweep-worker')]),
    // What Vite writes: the bundle, and public/ copied as it is.
    files: [...output.map((o) => o.fileName), ...readdirSync(join(root, 'public'), { recursive: true, encoding: 'utf8' })].sort(),
    ownChunks: chunks.flatMap((c) => (c.isDynamicEntry && c.facadeModuleId ? [c.facadeModuleId.slice(root.length)] : [])).sort(),
    hinted: chunks.filter((c) => c.code.startsWith('//# allFunctionsCalledOnLoad\n')).map((c) => c.fileName),
  };
}

const kB = (bytes: number) => Math.round(bytes / 1000);

/** A sentence of the doc that quotes the build: its words with `{name}` where a number goes, and each number from the build. */
export interface Claim {
  text: string;
  values: (s: BuildSizes) => Record<string, number>;
  /** Names of values that are counts (exact), not kB. */
  counts?: string[];
}

export const CLAIMS: Claim[] = [
  {
    text:
      "# static site in dist/: index.html, the first picture's {files} scripts ({kb} kB, {gz} kB gzipped) " +
      'and the overview worker ({workerKb} kB, {workerGz} kB gzipped)',
    values: (s) => ({
      files: s.firstPicture.files.length,
      kb: kB(s.firstPicture.bytes),
      gz: kB(s.firstPicture.gzip),
      workerKb: kB(s.overviewWorker.bytes),
      workerGz: kB(s.overviewWorker.gzip),
    }),
    counts: ['files'],
  },
  {
    text: 'so the picture waits for {files} scripts (the entry, {entryKb} kB, and that chunk, {chunkKb} kB)',
    values: (s) => ({ files: s.firstPicture.files.length, entryKb: kB(s.pageEntry.bytes), chunkKb: kB(s.explorerChunk.bytes) }),
    counts: ['files'],
  },
  {
    text:
      '`grpo-sandbox.js` and the {files} chunks it loads before it watches the page (it loads every view) weigh {kb} kB ' +
      '(about {gz} kB gzip): `grpo-sandbox.js` {entryKb} kB, the explorer chunk {chunkKb} kB, the views and what they ' +
      'share {viewsKb} kB. Workers load only when a run starts: the training ranks {trainKb} kB (and {kernelsKb} kB ' +
      "of WebGPU kernels on a device), the dynamic view's ranks {dynamicKb} kB, the policy {policyKb} kB, the sweep {sweepKb} kB.",
    values: (s) => ({
      files: s.library.files.length - 1,
      kb: kB(s.library.bytes),
      gz: kB(s.library.gzip),
      entryKb: kB(s.libraryEntry.bytes),
      chunkKb: kB(s.explorerChunk.bytes),
      viewsKb: kB(s.libraryViews.bytes),
      trainKb: kB(s.trainRankWorker.bytes),
      kernelsKb: kB(s.kernels.bytes),
      dynamicKb: kB(s.dynamicRankWorker.bytes),
      policyKb: kB(s.policyWorker.bytes),
      sweepKb: kB(s.sweepWorker.bytes),
    }),
    counts: ['files'],
  },
];

const escapeRegExp = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
/** The claim's text as a pattern: whitespace matches any run of whitespace (the doc wraps its lines), each `{name}` a number. */
function pattern(claim: Claim): { re: RegExp; names: string[] } {
  if (/\d/.test(claim.text.replace(/\{\w+\}/g, ''))) throw new Error(`a claim's words hold a digit: ${claim.text}`);
  const names: string[] = [];
  const source = claim.text
    .split(/(\{\w+\})/)
    .map((piece) => {
      const name = /^\{(\w+)\}$/.exec(piece)?.[1];
      if (name) {
        names.push(name);
        return '(\\d+)';
      }
      return escapeRegExp(piece).replace(/\s+/g, '\\s+').replace(/[{}]/g, '\\$&');
    })
    .join('');
  return { re: new RegExp(source), names };
}

/** The claim's text with the build's numbers. */
export function render(claim: Claim, sizes: BuildSizes): string {
  const values = claim.values(sizes);
  return claim.text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}

/** What differs between the doc and the build, one line each; empty when every claim is there and within tolerance. */
export function docProblems(doc: string, sizes: BuildSizes): string[] {
  const problems: string[] = [];
  const claimed: [number, number][] = [];
  for (const claim of CLAIMS) {
    const { re, names } = pattern(claim);
    const m = re.exec(doc);
    if (!m) {
      problems.push(`not in the doc (reworded? then change CLAIMS in scripts/build-sizes.ts): "${render(claim, sizes)}"`);
      continue;
    }
    claimed.push([m.index, m.index + m[0].length]);
    const values = claim.values(sizes);
    names.forEach((name, i) => {
      const said = Number(m[i + 1]);
      const built = values[name]!;
      const exact = claim.counts?.includes(name);
      const allowed = exact ? 0 : Math.max(TOLERANCE.minKb, TOLERANCE.relative * built);
      if (Math.abs(said - built) > allowed) {
        problems.push(`${name}: the doc says ${said}${exact ? '' : ' kB'}, the build has ${built} (in "${render(claim, sizes)}")`);
      }
    });
  }
  // Any other size in the doc is not kept true by anything.
  for (const m of doc.matchAll(/\d+\s?kB/g)) {
    if (!claimed.some(([from, to]) => m.index >= from && m.index < to)) {
      const line = doc.slice(0, m.index).split('\n').length;
      problems.push(`docs/browser.md:${line}: "${m[0]}" is not one of the claims in scripts/build-sizes.ts (add it there, or remove it)`);
    }
  }
  return problems;
}

/** The doc with every claim's numbers set to the build's (claims not found are left as they are). */
export function rewriteDoc(doc: string, sizes: BuildSizes): string {
  let out = doc;
  for (const claim of CLAIMS) {
    const { re, names } = pattern(claim);
    const values = claim.values(sizes);
    // Keep the doc's own line breaks: replace the numbers only, in order (a claim's words hold no digits).
    out = out.replace(re, (whole: string) => {
      let i = 0;
      return whole.replace(/\d+/g, () => String(values[names[i++]!]));
    });
  }
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const sizes = await measureBuild();
  if (process.argv.includes('--write')) {
    const doc = readFileSync(DOC, 'utf8');
    const next = rewriteDoc(doc, sizes);
    writeFileSync(DOC, next);
    const problems = docProblems(next, sizes);
    console.log(problems.length ? problems.join('\n') : "docs/browser.md: every size is the build's");
    process.exitCode = problems.length ? 1 : 0;
  } else {
    for (const claim of CLAIMS) console.log(`${render(claim, sizes)}\n`);
  }
}
