// A config pasted into <grpo-framework>, read in the framework's own format as the CLI's `--config FILE`
// reads the same text (src/cli/config-file.ts; test/ui/framework-settings.test.ts holds them equal):
// YAML with `yaml`, TOML with `smol-toml` (config-parsers.ts, given by the caller: a chunk loaded on
// paste), GRPOConfig keyword arguments as JSON or YAML, a launch command line with the shared pure reader
// (src/core/frameworks/argv.ts). NeMo RL's `defaults:` names a parent file the page cannot open: it is
// set aside and said (`parents`), and the pasted keys are read.
import { ConfigError } from '../../core/errors.ts';
import { argvObject, shellWords } from '../../core/frameworks/argv.ts';
import type { ConfigObjectReader } from '../../core/frameworks/reading.ts';
import type { ConfigFormat } from '../../core/frameworks/types.ts';

const firstLine = (message: string) => message.split('\n')[0]!.trim();
/** The parsers (config-parsers.ts). */
export type ConfigParsers = typeof import('./config-parsers.ts');

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function yamlObject(parseYaml: ConfigParsers['parseYaml'], text: string, name: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new ConfigError(`${name} is not valid YAML: ${firstLine((e as Error).message)}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new ConfigError(`${name} must hold a mapping of keys, got ${Array.isArray(doc) ? 'a list' : typeof doc}`);
  return doc as Record<string, unknown>;
}

export interface PastedConfig {
  /** The reader `frameworkSettingsFrom` calls with the name the page gives the pasted text. */
  read: ConfigObjectReader;
  /** The `defaults:` parent(s) a NeMo RL file names, set aside (empty until read, or when it names none). */
  parents: string[];
}

/** A reader of `text` in the framework's format. */
export function pastedConfig(text: string, { parseYaml, parseToml }: ConfigParsers): PastedConfig {
  const parents: string[] = [];
  const read: ConfigObjectReader = (name: string, format: ConfigFormat, switches: ReadonlySet<string>) => {
    switch (format) {
      case 'yaml':
        return yamlObject(parseYaml, text, name);
      case 'yaml-defaults': {
        const doc = yamlObject(parseYaml, text, name);
        const defaults = doc.defaults;
        delete doc.defaults;
        if (defaults !== undefined && defaults !== null) parents.push(...(Array.isArray(defaults) ? defaults : [defaults]).map(String));
        return doc;
      }
      case 'kwargs': {
        if (/^\s*[{[]/.test(text)) {
          let doc: unknown;
          try {
            doc = JSON.parse(text) as unknown;
          } catch (e) {
            throw new ConfigError(`${name} is not valid JSON: ${firstLine((e as Error).message)}`);
          }
          if (!isObject(doc)) throw new ConfigError(`${name} must hold an object of keyword arguments`);
          return doc;
        }
        return yamlObject(parseYaml, text, name);
      }
      case 'toml':
        try {
          return parseToml(text) as Record<string, unknown>;
        } catch (e) {
          throw new ConfigError(`${name} is not valid TOML: ${firstLine((e as Error).message)}`);
        }
      case 'argv':
        return argvObject(shellWords(text), switches);
    }
  };
  return { read, parents };
}
