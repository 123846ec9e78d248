import fs from 'node:fs';
import path from 'node:path';
import type { DiscoveredPlugin } from '../../src/domain/discovery';
import type { DataComponentRow } from '../repositories/dataComponents';
import { PLUGIN_BIN_DIR, builtinPlugin } from '../plugins/catalogue';
import { replaceFileInside } from '../security/projectFiles';
import { pythonPluginEntry } from './meltano/projectFile';

/** A workspace's Meltano project directory: where its jobs run. */
export function projectDir(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, 'projects', workspaceId);
}

const PLURAL: Record<string, string> = { EXTRACTOR: 'extractors', LOADER: 'loaders', MAPPER: 'mappers', TRANSFORMER: 'transformers', UTILITY: 'utilities', FILE: 'files' };

/**
 * Writes the project's meltano.yml (JSON, which YAML reads as it is) listing the workspace's
 * components: built-in plugins point at their executables, so a real `meltano` on PATH runs the
 * same project; our own `meltano` reads it too. A Python plugin whose definition is known (by
 * component name in `definitions`) gets the entry Meltano installs and runs it from
 * (meltano/projectFile.ts). Written atomically: jobs of one workspace share it.
 */
export function writeProjectFile(dir: string, components: readonly DataComponentRow[], definitions: ReadonlyMap<string, DiscoveredPlugin> = new Map()): void {
  fs.mkdirSync(dir, { recursive: true });
  const plugins: Record<string, unknown[]> = {};
  for (const c of [...components].sort((a, b) => a.name.localeCompare(b.name))) {
    const builtin = builtinPlugin(c.plugin_name, c.variant);
    const definition = builtin ? undefined : definitions.get(c.name);
    const list = (plugins[PLURAL[c.plugin_type] ?? 'utilities'] ??= []);
    if (definition) {
      list.push(pythonPluginEntry(c, definition));
      continue;
    }
    const entry: Record<string, unknown> = { name: c.name };
    if (c.name !== c.plugin_name) entry.inherit_from = c.plugin_name;
    if (c.variant) entry.variant = c.variant;
    if (builtin) {
      entry.namespace = builtin.namespace;
      entry.executable = path.join(PLUGIN_BIN_DIR, builtin.name);
      entry.capabilities = builtin.capabilities;
      entry.settings = builtin.settings.map((s) => ({ name: s.name, kind: s.kind.toLowerCase(), ...(s.env ? { env: s.env } : {}) }));
    }
    list.push(entry);
  }
  // no `version`: Meltano 4 warns that it is deprecated; no usage statistics sent from a job
  const body = `${JSON.stringify({ default_environment: 'dev', environments: [{ name: 'dev' }], send_anonymous_usage_stats: false, plugins }, null, 2)}\n`;
  // The project directory is the workspace's to write: a meltano.yml it replaced with a link is
  // replaced in turn, never written through.
  replaceFileInside(dir, 'meltano.yml', body);
}
