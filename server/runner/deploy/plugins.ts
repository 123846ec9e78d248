import { pluginReference } from '../../../src/domain/discovery';
import type { Db } from '../../db/database';
import { builtinPlugin, findCataloguePlugin } from '../../plugins/catalogue';
import { createDataComponent, listDataComponents, updateDataComponent } from '../../repositories/dataComponents';
import { installPlugin, publishPlugin } from '../../repositories/dataPlugins';
import type { FieldProblem } from '../deployDefinitions';
import { MELTANO_FILE, type RepositoryPlugin } from '../meltanoPlugins';
import { sameJson, type ApplyRequest } from './shared';

/** The variant a meltano.yml plugin gets when it has none and its name is a built-in's. */
const CUSTOM_VARIANT = 'custom';

/**
 * meltano.yml's plugins as data components: a built-in plugin runs here; any other is installed
 * from the catalogue or published from its meltano.yml entry as a custom plugin, and is configure
 * only (a Python package: it runs only where a real `meltano` can install it), which its line says.
 */
export async function applyPlugins(trx: Db, request: ApplyRequest, problems: FieldProblem[], lines: string[]): Promise<void> {
  const plugins = request.plugins ?? [];
  if (plugins.length === 0) return;
  const components = await listDataComponents(trx, request.workspaceId);
  /** the plugin an entry is made of: its own definition, or its parent's (inherit_from), up a few levels */
  const rootOf = (plugin: RepositoryPlugin): RepositoryPlugin => {
    let at = plugin;
    for (let i = 0; i < 10 && at.definition === null; i++) {
      const parent = plugins.find((p) => p.name === at.base && p.pluginType === at.pluginType);
      if (!parent || parent === at) break;
      at = parent;
    }
    return at;
  };
  for (const plugin of plugins) {
    const root = rootOf(plugin);
    const variant = plugin.variant ?? root.variant;
    let pluginName = root.base;
    let pluginVariant: string | null = variant;
    let runs = false;
    let pipUrl: string | null = null;
    const builtin = builtinPlugin(root.base, variant);
    const catalogue = findCataloguePlugin(plugin.pluginType, root.base, variant);
    if (builtin && (variant === 'builtin' || !root.definition?.pipUrl)) {
      pluginVariant = builtin.variant;
      runs = true;
    } else if (catalogue && !catalogue.builtin && !(root.definition?.pipUrl && root.definition.pipUrl !== catalogue.pipUrl && variant === null)) {
      await installPlugin(trx, request.workspaceId, { pluginType: catalogue.pluginType, name: catalogue.name, variant: catalogue.variant });
      pluginName = catalogue.name;
      pluginVariant = catalogue.variant;
      pipUrl = catalogue.pipUrl;
    } else if (root.definition) {
      // A Python plugin named like a built-in, without a variant (tap-postgres with a pip_url),
      // would otherwise be taken for ours and run as ours: it is the 'custom' variant.
      const definition = root.definition.variant === null && builtinPlugin(root.definition.name) ? { ...root.definition, variant: CUSTOM_VARIANT } : root.definition;
      await publishPlugin(trx, request.workspaceId, definition);
      pluginName = definition.name;
      pluginVariant = definition.variant;
      pipUrl = definition.pipUrl;
    } else {
      problems.push({ file: MELTANO_FILE, field: `${plugin.field}.inherit_from`, message: `names no plugin of this meltano.yml or of the catalogue ('${plugin.base}')` });
      continue;
    }
    const reference = pluginReference(plugin.pluginType, pluginName, pluginVariant);
    const how = runs ? 'runs here' : pipUrl ? 'a Python plugin: Meltano installs it in the job\'s sandbox and runs it' : 'configure only: a Python plugin without a pip_url, so Meltano has nothing to install';
    const same = components.find((c) => c.name === plugin.name);
    if (same && (same.plugin_type !== plugin.pluginType || same.plugin_name !== pluginName)) {
      problems.push({ file: MELTANO_FILE, field: `${plugin.field}.name`, message: `a data component named ${plugin.name} exists already, made from ${pluginReference(same.plugin_type, same.plugin_name, same.variant)}` });
      continue;
    }
    if (same) {
      const properties = { ...same.properties, ...plugin.properties };
      if (!sameJson(properties, same.properties)) {
        await updateDataComponent(trx, same.id, { properties });
        lines.push(`Updated data component ${plugin.name} (${reference}, ${how}) from ${MELTANO_FILE}.`);
      }
      continue;
    }
    const created = await createDataComponent(trx, request.workspaceId, { name: plugin.name, pluginType: plugin.pluginType, pluginName, variant: pluginVariant, properties: plugin.properties });
    if (!created.ok) {
      problems.push({ file: MELTANO_FILE, field: `${plugin.field}.name`, message: created.problem });
      continue;
    }
    components.push(created.component);
    lines.push(`Created data component ${plugin.name} (${reference}, ${how}) from ${MELTANO_FILE}.`);
  }
}
