// Reads the JSON Lines log that probe/grpo_sandbox_probe.py writes during a real run: one header
// per rank (framework, version, the settings it read) and one record per (step, rank). Pure: the
// CLI reads the file, this checks every line and names the line and field of the first problem.
import { ConfigError } from '../errors.ts';
import type { LayoutConfig, SamplerName } from '../layout/types.ts';
import { LAYOUT_SETTINGS } from '../settings.ts';

/** The probe_version this sandbox reads; a newer probe's log is refused by name, not misread. */
export const PROBE_VERSION = 1;

export interface ProbeHeader {
  framework: string;
  frameworkVersion: string;
  /** The settings the probe read, in the sandbox's names; fields the framework has not are absent. */
  settings: Partial<LayoutConfig> & { sampler: SamplerName };
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
      if (!ok) throw bad(line, `field 'settings.${key}' = ${JSON.stringify(value)} must be an integer in [${s.min}, ${s.max}]`);
    } else if (typeof value !== 'string') throw bad(line, `field 'settings.${key}' must be a sampler name`);
    out[key] = value;
  }
  if (out.sampler === undefined) throw bad(line, `field 'settings.sampler' is missing`);
  return out as ProbeHeader['settings'];
}

function readHeader(obj: Record<string, unknown>, line: number): ProbeHeader {
  if (obj.probe !== 'grpo-sandbox')
    throw bad(line, `field 'probe' = ${JSON.stringify(obj.probe)}; a grpo-sandbox probe writes "grpo-sandbox"`);
  if (obj.probe_version !== PROBE_VERSION) {
    throw bad(
      line,
      `field 'probe_version' = ${JSON.stringify(obj.probe_version)} is unknown; this grpo-sandbox reads version ${PROBE_VERSION} ` +
        `(use the probe/grpo_sandbox_probe.py of this release)`,
    );
  }
  for (const f of ['framework', 'framework_version']) {
    if (typeof obj[f] !== 'string') throw bad(line, `field '${f}' must be a string`);
  }
  return {
    framework: obj.framework as string,
    frameworkVersion: obj.framework_version as string,
    settings: readSettings(obj.settings, line),
    line,
  };
}

function readRecord(obj: Record<string, unknown>, line: number): ProbeRecord {
  for (const f of ['step', 'rank', 'ids']) if (!(f in obj)) throw bad(line, `field '${f}' is missing (a record is {"step","rank","ids"})`);
  if (!isCount(obj.step)) throw bad(line, `field 'step' = ${JSON.stringify(obj.step)} must be an integer ≥ 0`);
  if (!isCount(obj.rank)) throw bad(line, `field 'rank' = ${JSON.stringify(obj.rank)} must be an integer ≥ 0`);
  const ids = obj.ids;
  if (!Array.isArray(ids)) throw bad(line, `field 'ids' must be an array of dataset indices`);
  const at = ids.findIndex((v) => !isCount(v));
  if (at >= 0) throw bad(line, `field 'ids[${at}]' = ${JSON.stringify(ids[at])} must be an integer ≥ 0`);
  return { step: obj.step, rank: obj.rank, ids: ids as number[], line };
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
      const truncated = i === lines.length - 1 || lines.slice(i + 1).every((l) => l.trim() === '');
      throw bad(line, truncated ? 'not complete JSON: the log is truncated (the run was cut off mid-write?)' : 'not a JSON object');
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) throw bad(line, 'not a JSON object');
    const o = obj as Record<string, unknown>;
    if ('probe' in o) {
      const h = readHeader(o, line);
      if (!header) header = h;
      else {
        // Every rank writes its own header; they must describe the same run.
        const a = JSON.stringify(header.settings);
        const b = JSON.stringify(h.settings);
        if (a !== b || h.framework !== header.framework) {
          throw bad(line, `field 'settings' differs from line ${header.line}'s (${b} vs ${a}): two runs appended to one log?`);
        }
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
  const ranks = header.settings.ranks;
  for (const byRank of records.values()) {
    for (const r of byRank.values()) {
      if (ranks !== undefined && r.rank >= ranks) throw bad(r.line, `field 'rank' = ${r.rank} but the header's settings.ranks = ${ranks}`);
    }
  }
  return { header, records, lastStep };
}
