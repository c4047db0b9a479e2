// Reads the JSON Lines log that probe/grpo_sandbox_probe.py writes during a real run: one header
// per rank (framework, version, the settings it read) and one record per (step, rank). Pure: the
// CLI reads the file, this checks every line and names the line and field of the first problem.
import { ConfigError } from '../errors.ts';
import { FRAMEWORK_HOMES } from '../frameworks/index.ts';
import { checkValue } from '../frameworks/settings.ts';
import type { FrameworkHome, FrameworkSettings } from '../frameworks/types.ts';
import type { LayoutConfig, SamplerName } from '../layout/types.ts';
import { LAYOUT_SETTINGS } from '../settings.ts';

/** The probe_version this sandbox reads; a newer probe's log is refused by name, not misread. */
export const PROBE_VERSION = 1;

export interface ProbeHeader {
  framework: string;
  frameworkVersion: string;
  /**
   * The settings the probe read, in the sandbox's names; fields the framework has not are absent. Null in a log
   * of a framework with a home (`home`), whose settings are the home's own (`homeSettings`).
   */
  settings: (Partial<LayoutConfig> & { sampler: SamplerName }) | null;
  /** The framework home (src/core/frameworks/) the log's `framework` names, if any: its `name`. */
  home?: string;
  /** A home log's logged settings, by the home's flag (FrameworkKey.flag); only those it logged. */
  homeSettings?: Partial<FrameworkSettings>;
  line: number;
}

export interface ProbeRecord {
  step: number;
  rank: number;
  ids: number[];
  line: number;
}

export interface ProbeLog {
  header: ProbeHeader;
  /** records[step][rank], for every logged step (0 … last); undefined where a rank logged nothing. */
  records: Map<number, Map<number, ProbeRecord>>;
  lastStep: number;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function bad(line: number, what: string): ConfigError {
  return new ConfigError(`log line ${line}: ${what}`);
}

function readSettings(raw: unknown, line: number): ProbeHeader['settings'] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad(line, `field 'settings' must be an object`);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const s = LAYOUT_SETTINGS.find((x) => x.field === key);
    if (!s) throw bad(line, `field 'settings.${key}' is not a sandbox setting (known: ${LAYOUT_SETTINGS.map((x) => x.field).join(', ')})`);
    if (s.kind === 'int') {
      const ok = typeof value === 'number' && Number.isSafeInteger(value) && value >= s.min && value <= s.max;
      if (!ok) throw bad(line, `field 'settings.${key}' = ${shown(value)} must be an integer in [${s.min}, ${s.max}]`);
    } else if (s.kind === 'bool') {
      if (typeof value !== 'boolean') throw bad(line, `field 'settings.${key}' = ${shown(value)} must be true or false`);
    } else if (typeof value !== 'string') throw bad(line, `field 'settings.${key}' must be a sampler name`);
    out[key] = value;
  }
  if (out.sampler === undefined) throw bad(line, `field 'settings.sampler' is missing`);
  return out as ProbeHeader['settings'];
}

function readHeader(obj: Record<string, unknown>, line: number): ProbeHeader {
  if (obj.probe !== 'grpo-sandbox') throw bad(line, `field 'probe' = ${shown(obj.probe)}; a grpo-sandbox probe writes "grpo-sandbox"`);
  if (obj.probe_version !== PROBE_VERSION) {
    throw bad(
      line,
      `field 'probe_version' = ${shown(obj.probe_version)} is unknown; this grpo-sandbox reads version ${PROBE_VERSION} ` +
        `(use the probe/grpo_sandbox_probe.py of this release)`,
    );
  }
  for (const f of ['framework', 'framework_version']) {
    if (typeof obj[f] !== 'string') throw bad(line, `field '${f}' must be a string`);
  }
  const framework = obj.framework as string;
  const home = homeOfFramework(framework);
  if (home) {
    return {
      framework,
      frameworkVersion: obj.framework_version as string,
      settings: null,
      home: home.name,
      homeSettings: obj.settings === undefined ? {} : readHomeSettings(home, obj.settings, line),
      line,
    };
  }
  return { framework, frameworkVersion: obj.framework_version as string, settings: readSettings(obj.settings, line), line };
}

/**
 * The home a logged framework name names: its CLI name as the probe's log_step writes it ('nemo-rl'), or the same
 * in other case or with '_' ('NeMo-RL', 'prime_rl', 'AReaL').
 */
export function homeOfFramework(framework: string): FrameworkHome | undefined {
  const name = framework.trim().toLowerCase().replaceAll('_', '-');
  return FRAMEWORK_HOMES.find((h) => h.name === name);
}

/** A home log's settings: each key the home's flag or its own key ('grpo.num_prompts_per_step'), its value checked as --config's. */
function readHomeSettings(home: FrameworkHome, raw: unknown, line: number): Partial<FrameworkSettings> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad(line, `field 'settings' must be an object`);
  const out: Partial<FrameworkSettings> = {};
  for (const [name, value] of Object.entries(raw)) {
    const k = home.keys.find((x) => x.flag === name) ?? home.keys.find((x) => x.key === name);
    if (!k)
      throw bad(
        line,
        `field 'settings.${name}' is not one of ${home.title}'s keys the sandbox reads (\`layout --sampler ${home.name} --help\` lists them)`,
      );
    if (value !== null && typeof value === 'object')
      throw bad(line, `field 'settings.${name}' = ${shown(value)} must be a number, boolean or string`);
    try {
      out[k.flag] = checkValue(k, value, `field 'settings.${name}'`);
    } catch (err) {
      if (err instanceof ConfigError) throw bad(line, err.message);
      throw err;
    }
  }
  return out;
}

function readRecord(obj: Record<string, unknown>, line: number): ProbeRecord {
  for (const f of ['step', 'rank', 'ids']) if (!(f in obj)) throw bad(line, `field '${f}' is missing (a record is {"step","rank","ids"})`);
  if (!isCount(obj.step)) throw bad(line, `field 'step' = ${shown(obj.step)} must be an integer ≥ 0`);
  if (!isCount(obj.rank)) throw bad(line, `field 'rank' = ${shown(obj.rank)} must be an integer ≥ 0`);
  const ids = obj.ids;
  if (!Array.isArray(ids)) throw bad(line, `field 'ids' must be an array of dataset indices`);
  const at = ids.findIndex((v) => !isCount(v));
  if (at >= 0) throw bad(line, `field 'ids[${at}]' = ${shown(ids[at])} must be an integer ≥ 0`);
  return { step: obj.step, rank: obj.rank, ids: ids as number[], line };
}

/** The first field where a rank's header disagrees with the first header (line `first.line`), both values named; undefined when they agree. */
function headerDifference(first: ProbeHeader, other: ProbeHeader): string | undefined {
  const pairs: [string, unknown, unknown][] = [
    ['framework', other.framework, first.framework],
    ['framework_version', other.frameworkVersion, first.frameworkVersion],
  ];
  const a = (first.settings ?? first.homeSettings ?? {}) as Record<string, unknown>;
  const b = (other.settings ?? other.homeSettings ?? {}) as Record<string, unknown>;
  const fields =
    first.settings || other.settings ? LAYOUT_SETTINGS.map((s) => s.field) : [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const f of fields) pairs.push([`settings.${f}`, b[f], a[f]]);
  const at = pairs.find(([, here, there]) => here !== there);
  if (!at) return undefined;
  const [field, here, there] = at;
  const where = `line ${first.line}`;
  if (here === undefined) return `field '${field}' is absent, but ${where} has ${shown(there)}`;
  if (there === undefined) return `field '${field}' = ${shown(here)} is absent from ${where}`;
  return `field '${field}' = ${shown(here)} differs from ${where}'s ${shown(there)}`;
}

/**
 * Whether `text` (which JSON.parse refused) is the beginning of some valid JSON value: what a line cut
 * off mid-write looks like, as opposed to a line that is no JSON at all. A scan with an explicit stack
 * (a line of 100 000 brackets must not overflow the call stack) that reports running out of text
 * instead of failing.
 */
export function jsonPrefix(text: string): boolean {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  /** Reads a string from its opening quote; false when the text ends inside it, throws on a bad escape. */
  const str = (): boolean => {
    for (i++; i < text.length; i++) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return true;
      }
      if (c < ' ') throw new SyntaxError('control character');
      if (c !== '\\') continue;
      const e = text[++i];
      if (e === undefined) return false;
      if (e === 'u') {
        const hex = text.slice(i + 1, i + 5);
        if (!/^[0-9a-fA-F]*$/.test(hex)) throw new SyntaxError('bad \\u escape');
        if (hex.length < 4) return false;
        i += 4;
      } else if (!'"\\/bfnrt'.includes(e)) throw new SyntaxError('bad escape');
    }
    return false;
  };
  /** Reads a number or literal; false when it reaches the end of the text and could still go on (`12` → `123`, `tr` → `true`). */
  const scalar = (): boolean => {
    const token = /^[-+0-9.eE]+|^[a-z]+/.exec(text.slice(i))?.[0] ?? '';
    i += token.length;
    const words = ['true', 'false', 'null'];
    if (i >= text.length && (/^-?$|^-?(0|[1-9]\d*)(\.\d*|(\.\d+)?[eE][-+]?\d*)?$/.test(token) || words.some((w) => w.startsWith(token))))
      return false;
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(token) && !words.includes(token)) throw new SyntaxError('bad value');
    return true;
  };
  const closers: string[] = [];
  let expect: 'value' | 'valueOrClose' | 'key' | 'keyOrClose' | 'colon' | 'next' = 'value';
  try {
    for (;;) {
      // A whole value read: JSON.parse refused the text, so something follows it: not a prefix.
      if (expect === 'next' && closers.length === 0) return false;
      ws();
      if (i >= text.length) return true;
      const c = text[i]!;
      if ((expect === 'valueOrClose' || expect === 'keyOrClose') && c === closers.at(-1)) {
        i++;
        closers.pop();
        expect = 'next';
      } else if (expect === 'key' || expect === 'keyOrClose') {
        if (c !== '"') return false;
        if (!str()) return true;
        expect = 'colon';
      } else if (expect === 'colon') {
        if (c !== ':') return false;
        i++;
        expect = 'value';
      } else if (expect === 'next') {
        if (c === ',') expect = closers.at(-1) === '}' ? 'key' : 'value';
        else if (c === closers.at(-1)) closers.pop();
        else return false;
        i++;
      } else if (c === '{' || c === '[') {
        i++;
        closers.push(c === '{' ? '}' : ']');
        expect = c === '{' ? 'keyOrClose' : 'valueOrClose';
      } else {
        if (!(c === '"' ? str() : scalar())) return true;
        expect = 'next';
      }
    }
  } catch (e) {
    if (e instanceof SyntaxError) return false;
    throw e;
  }
}

/**
 * A logged value as a message shows it: at most 40 characters of its JSON. A deeply nested value
 * overflows JSON.stringify's stack and a long one floods the line, so arrays and objects with
 * nested parts are named by their kind instead.
 */
function shown(v: unknown): string {
  if (Array.isArray(v) && (v.length > 40 || v.some((x) => typeof x === 'object' && x !== null))) return `an array of ${v.length}`;
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const values = Object.values(v);
    if (values.length > 10 || values.some((x) => typeof x === 'object' && x !== null)) return 'an object';
  }
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Why a line is not JSON: cut off (the last line, and a beginning of valid JSON) or not JSON at all. */
function notJson(raw: string, last: boolean): string {
  const start = JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);
  if (!jsonPrefix(raw)) return `not JSON (it reads ${start}): the probe writes one JSON object per line`;
  return last
    ? 'not complete JSON: the log is truncated (the run was cut off mid-write?)'
    : `not complete JSON (it reads ${start}), and lines follow it: a line cut off mid-write, then more appended?`;
}

/** Parses and checks a whole log; throws ConfigError naming the line and field of the first problem. */
export function parseProbeLog(text: string): ProbeLog {
  const lines = text.split('\n');
  let header: ProbeHeader | undefined;
  const records = new Map<number, Map<number, ProbeRecord>>();
  let lastStep = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    let obj: unknown;
    try {
      obj = JSON.parse(raw);
    } catch {
      throw bad(
        line,
        notJson(
          raw,
          lines.slice(i + 1).every((l) => l.trim() === ''),
        ),
      );
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw bad(line, 'not a JSON object');
    const o = obj as Record<string, unknown>;
    if ('probe' in o) {
      const h = readHeader(o, line);
      if (!header) header = h;
      else {
        // Every rank writes its own header; they must describe the same run.
        const differs = headerDifference(header, h);
        if (differs) throw bad(line, `${differs}: two runs appended to one log?`);
      }
      continue;
    }
    const r = readRecord(o, line);
    let byRank = records.get(r.step);
    if (!byRank) records.set(r.step, (byRank = new Map()));
    const twice = byRank.get(r.rank);
    if (twice) throw bad(line, `step ${r.step}, rank ${r.rank} is logged twice (also line ${twice.line}): two runs appended to one log?`);
    byRank.set(r.rank, r);
    lastStep = Math.max(lastStep, r.step);
  }
  if (!header)
    throw new ConfigError(`the log has no header line (a {"probe":"grpo-sandbox",…} line); was it written by probe/grpo_sandbox_probe.py?`);
  if (lastStep < 0)
    throw new ConfigError(`the log has a header but no step records: the run logged nothing (is probe.record called in the loop?)`);
  const ranks = header.settings?.ranks;
  for (const byRank of records.values()) {
    for (const r of byRank.values()) {
      if (ranks !== undefined && r.rank >= ranks) throw bad(r.line, `field 'rank' = ${r.rank} but the header's settings.ranks = ${ranks}`);
    }
  }
  return { header, records, lastStep };
}
