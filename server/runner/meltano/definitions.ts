import type { DiscoveredPlugin } from '../../../src/domain/discovery';
import type { Db } from '../../db/database';
import { builtinPlugin } from '../../plugins/catalogue';
import type { DataComponentRow } from '../../repositories/dataComponents';
import { workspacePlugins } from '../../repositories/dataPlugins';

// Which components Meltano runs, and from which definition: a component whose plugin is not built
// in is a Python plugin. Its definition is the workspace's own (a published discovery.yml or a
// deployed meltano.yml's plugin) before the catalogue's, matched by type, name and variant; a
// component made without a variant takes the first such plugin the workspace has installed, else
// the catalogue's default.

export const isPythonComponent = (c: Pick<DataComponentRow, 'plugin_name' | 'variant'>): boolean => builtinPlugin(c.plugin_name, c.variant) === undefined;

/** The definition of every Python component among `components`, by component name; the names without one. */
export async function pythonDefinitions(db: Db, workspaceId: string, components: readonly DataComponentRow[]): Promise<{ definitions: Map<string, DiscoveredPlugin>; unknown: string[] }> {
  const python = components.filter(isPythonComponent);
  const definitions = new Map<string, DiscoveredPlugin>();
  const unknown: string[] = [];
  if (python.length === 0) return { definitions, unknown };
  const { installed, available } = await workspacePlugins(db, workspaceId);
  for (const c of python) {
    const candidates = [...installed, ...available].filter((p) => p.pluginType === c.plugin_type && p.name === c.plugin_name && !p.builtin);
    const found = c.variant === null ? candidates[0] : candidates.find((p) => (p.variant ?? '') === c.variant);
    if (found) definitions.set(c.name, found);
    else unknown.push(c.name);
  }
  return { definitions, unknown };
}

/**
 * The hosts of the git repositories a pip_url installs from (`git+https://github.com/…`, pip's VCS
 * form), in order and once each; a package name or a path names none.
 */
export function gitHostsOf(pipUrl: string | null | undefined): string[] {
  const hosts: string[] = [];
  for (const word of (pipUrl ?? '').split(/\s+/)) {
    const match = /^git\+(?:https?|ssh|git):\/\/(?:[^@/]*@)?([^/:?#]+)/i.exec(word);
    const host = match?.[1]?.toLowerCase();
    if (host && !hosts.includes(host)) hosts.push(host);
  }
  return hosts;
}
