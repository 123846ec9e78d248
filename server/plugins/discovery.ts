import { parseDocument, stringify } from 'yaml';
import { readDiscovery, type DiscoveredPlugin, type DiscoveredSetting, type DiscoveryError, type DiscoveryResult } from '../../src/domain/discovery';

// A discovery.yml sent by a client is hostile until read: its size, its aliases (a "billion laughs"
// expands a few lines into gigabytes), its nesting (a deep document exhausts the parser's stack)
// and its types are all bounded here, and every failure is a list of field errors, never a throw.

export const DISCOVERY_TEXT_LIMITS = {
  /** bytes of YAML text */
  size: 1024 * 1024,
  /** alias nodes resolved while building the value (the library's own resource-exhaustion guard) */
  aliases: 100,
  /** nesting of maps and lists, counted before the parser recurses */
  depth: 64,
} as const;

const documentError = (defaultMessage: string): DiscoveryResult => ({ plugins: [], errors: [{ objectName: 'discovery', field: 'document', defaultMessage }] });

/**
 * The deepest nesting of flow collections and block indentation in the text, an upper bound the
 * parser itself will not exceed; computed in one pass without recursion.
 */
export function nestingDepth(text: string): number {
  let deepest = 0;
  let flow = 0;
  let quote: '"' | "'" | null = null;
  const indents: number[] = [];
  let lineStart = true;
  let indent = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      lineStart = true;
      indent = 0;
      if (quote === "'") quote = null;
      continue;
    }
    if (lineStart) {
      if (c === ' ' || c === '-') {
        indent++;
        continue;
      }
      lineStart = false;
      if (c !== '#' && flow === 0) {
        while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
        indents.push(indent);
      }
    }
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') flow++;
    else if ((c === ']' || c === '}') && flow > 0) flow--;
    else if (c === '#') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end - 1;
    }
    deepest = Math.max(deepest, flow + indents.length);
  }
  return deepest;
}

/** The plugins of a discovery.yml text, or the errors that refuse it. */
export function parseDiscoveryYaml(text: string): DiscoveryResult {
  if (Buffer.byteLength(text, 'utf8') > DISCOVERY_TEXT_LIMITS.size) return documentError(`must be at most ${DISCOVERY_TEXT_LIMITS.size / 1024} KB of YAML`);
  if (text.trim() === '') return { plugins: [], errors: [] };
  if (nestingDepth(text) > DISCOVERY_TEXT_LIMITS.depth) return documentError(`must nest at most ${DISCOVERY_TEXT_LIMITS.depth} levels deep`);
  let value: unknown;
  try {
    const document = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
    const problem = document.errors[0];
    if (problem) return documentError(`is not valid YAML: ${problem.message.split('\n')[0]?.slice(0, 200) ?? ''}`);
    value = document.toJS({ maxAliasCount: DISCOVERY_TEXT_LIMITS.aliases });
  } catch (error) {
    // The library throws on alias exhaustion (ReferenceError) and may on other hostile shapes.
    const message = error instanceof ReferenceError ? `must use at most ${DISCOVERY_TEXT_LIMITS.aliases} aliases` : 'is not valid YAML';
    return documentError(message);
  }
  return readDiscovery(value);
}

/** Field errors as the API sends them: `objectName` and `field` kept apart, the SPA joins them. */
export function discoveryFieldErrors(errors: readonly DiscoveryError[]): { field: string; objectName: string; defaultMessage: string }[] {
  return errors.map((e) => ({ field: e.field, objectName: e.objectName, defaultMessage: e.defaultMessage }));
}

/** The first discovery.yml list of each plugin type ('orchestrators' are read as utilities, written as them). */
const SECTION_OF: Readonly<Record<string, string>> = { EXTRACTOR: 'extractors', LOADER: 'loaders', TRANSFORMER: 'transformers', MAPPER: 'mappers', UTILITY: 'utilities', FILE: 'files' };

/** Only the fields that have a value: a discovery.yml leaves the rest out. */
function present(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0)));
}

function settingEntry(setting: DiscoveredSetting): Record<string, unknown> {
  return present({
    name: setting.name,
    label: setting.label,
    kind: setting.kind.toLowerCase(),
    description: setting.description,
    value: setting.value,
    placeholder: setting.placeholder,
    env: setting.env,
    documentation: setting.documentation,
    options: setting.options?.map((option) => present({ label: option.label, value: option.value })),
    required: setting.required,
    sensitive: setting.sensitive || null,
    hidden: setting.hidden || null,
    value_processor: setting.valueProcessor?.toLowerCase(),
    encoding: setting.encoding,
  });
}

/** A definition as a discovery.yml entry, the shape readDiscovery reads back. */
export function pluginEntry(plugin: DiscoveredPlugin): Record<string, unknown> {
  return present({
    name: plugin.name,
    variant: plugin.variant,
    label: plugin.label,
    namespace: plugin.namespace,
    description: plugin.description,
    docs: plugin.docs,
    repo: plugin.repo,
    logo_url: plugin.logoUrl,
    pip_url: plugin.pipUrl,
    executable: plugin.executable,
    capabilities: plugin.capabilities,
    commands: Object.keys(plugin.commands).length > 0 ? plugin.commands : null,
    settings: plugin.settings.map(settingEntry),
    hidden: plugin.hidden || null,
  });
}

/**
 * Plugins as a Meltano discovery.yml (the flat MeltanoHub form, one entry per variant), the format
 * `readDiscovery` reads back: the global catalogue and a workspace's plugins are written by this one
 * function, from the same definitions the catalogue pages show.
 */
export function discoveryYaml(plugins: readonly DiscoveredPlugin[]): string {
  const document: Record<string, unknown> = { version: 22 };
  for (const plugin of plugins) {
    const section = SECTION_OF[plugin.pluginType] ?? 'utilities';
    const list = (document[section] ??= []) as unknown[];
    list.push(pluginEntry(plugin));
  }
  return stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
}
