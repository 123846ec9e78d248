import type { DiscoveredPlugin } from '../../../src/domain/discovery';
import { explicitEnvProblem } from '../../../src/domain/settingEnv';
import type { DataComponentRow } from '../../repositories/dataComponents';

// A Python plugin's entry in the project's meltano.yml, from its definition (the catalogue, or the
// workspace's published discovery.yml): everything Meltano needs to install and run it without
// asking MeltanoHub — `namespace`, `pip_url`, `executable`, `capabilities`, settings by name, kind,
// default value, env and value_processor, and `commands`. It is written under the component's own
// name with no `variant` and no `inherit_from` (either would send Meltano to the hub for the parent
// definition, which a job's network may not reach), so each component is a complete custom plugin
// with a venv of its own.
//
// `select` and `metadata` are not written here: they belong to a pipeline (`{component}._select`,
// `{component}._metadata` among its properties, or the component's own), while meltano.yml is the
// workspace's, shared by every pipeline. They reach Meltano as its extras' variables,
// `{COMPONENT}__SELECT` and `{COMPONENT}__METADATA`, which settingsEnv makes from those
// properties by the same rule as every setting (`_select` → `…__SELECT`).

const MELTANO_KINDS = new Set(['string', 'integer', 'boolean', 'date_iso8601', 'email', 'password', 'oauth', 'options', 'file', 'array', 'object', 'hidden']);

export function pythonPluginEntry(component: Pick<DataComponentRow, 'name' | 'plugin_name'>, plugin: DiscoveredPlugin): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    name: component.name,
    namespace: plugin.namespace ?? plugin.name.replace(/[^A-Za-z0-9]/g, '_').toLowerCase(),
  };
  if (plugin.pipUrl) entry.pip_url = plugin.pipUrl;
  entry.executable = plugin.executable ?? plugin.name;
  if (plugin.capabilities.length > 0) entry.capabilities = plugin.capabilities;
  if (Object.keys(plugin.commands).length > 0) entry.commands = plugin.commands;
  entry.settings = plugin.settings.map((s) => {
    const kind = s.kind.toLowerCase();
    return {
      name: s.name,
      ...(MELTANO_KINDS.has(kind) ? { kind } : {}),
      ...(s.sensitive ? { sensitive: true } : {}),
      // the definition's default: what the Lab shows as the inherited value, and what Meltano uses when nothing is set
      ...(s.value === undefined || s.value === null ? {} : { value: s.value }),
      // an env in the system's namespace is never where a setting is read from (settingEnv.ts)
      ...(s.env && explicitEnvProblem(s.env) === undefined ? { env: s.env } : {}),
      ...(kind === 'options' && s.options ? { options: s.options.map((o) => ({ label: o.label ?? String(o.value), value: o.value })) } : {}),
      // Meltano applies it to the value, whichever source the value comes from (our variables included)
      ...(s.valueProcessor ? { value_processor: s.valueProcessor.toLowerCase() } : {}),
    };
  });
  return entry;
}
