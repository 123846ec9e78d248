import { newComponentRef } from '../../domain/pipelineForm';
import type { DataComponent, DataPlugin } from '../../domain/resources';
import type { EditorComponent } from './pipelineForm.machine';

// The form's components come from two places: an existing component of the workspace (the
// Existing tab, or the pipeline's own) and a plugin a new component is made from (the New tab,
// ?dataplugin). Either way the editors need the plugin's settings and description.

export function componentFromExisting(component: DataComponent): EditorComponent {
  const plugin = component._embedded?.dataplugin ?? null;
  return {
    ref: component.name,
    name: component.name,
    pluginType: component.pluginType ?? plugin?.pluginType ?? '',
    pluginName: plugin?.name ?? undefined,
    label: plugin?.label ?? component.name,
    description: plugin?.description ?? null,
    settings: plugin?.settings ?? [],
  };
}

/** A new component is named after its plugin (as `meltano add` would). */
export function componentFromPlugin(plugin: DataPlugin): EditorComponent {
  return {
    ref: newComponentRef(plugin),
    name: plugin.name,
    pluginType: plugin.pluginType,
    pluginName: plugin.name,
    label: plugin.label ?? plugin.name,
    description: plugin.description ?? null,
    settings: plugin.settings ?? [],
  };
}
