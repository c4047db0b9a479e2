// The well-kept parsers a pasted config is read with: `yaml` (YAML 1.2) and `smol-toml` (TOML 1.0), the
// CLI's own (src/cli/config-file.ts). A chunk of their own: <grpo-framework> loads it when a config is pasted.
export { parse as parseToml } from 'smol-toml';
export { parse as parseYaml } from 'yaml';
