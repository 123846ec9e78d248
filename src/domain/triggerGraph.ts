import { jobStatusColour, type JobColour } from './jobStatusColour';
import { DAILY_CRON, DEPLOY_TRIGGER, HOURLY_CRON } from './pipelineConstants';

// The workspace's trigger graph (issue 7): pipelines as nodes, "B.triggeredBy names A" as A → B,
// written as mermaid flowchart text. Pipeline names are user text inside a diagram language, so
// node ids are generated (p0, p1, …) and every label character outside [A-Za-z0-9 ] is written as
// a mermaid numeric entity (#NN;). Mermaid turns those into HTML character references, so no name
// can close a quote, open a link, start a comment or reach the SVG as markup.

export interface GraphPipeline {
  readonly name?: string | null | undefined;
  readonly schedule?: string | null | undefined;
  readonly triggeredBy?: readonly string[] | null | undefined;
  /** the latest job's status; absent when the pipeline never ran */
  readonly status?: string | null | undefined;
}

export interface GraphNode {
  /** the generated mermaid id */
  readonly id: string;
  readonly kind: 'pipeline' | 'deploy' | 'unknown';
  /** the pipeline's (or unknown source's) full name */
  readonly name: string;
}

interface TriggerGraph {
  /** mermaid flowchart text */
  readonly definition: string;
  readonly nodes: readonly GraphNode[];
  readonly edgeCount: number;
  /** true when edges past MAX_GRAPH_EDGES were left out */
  readonly truncated: boolean;
}

/** The graph draws the workspace's first this many pipelines (a page the list API serves at once). */
export const TRIGGER_GRAPH_SIZE = 200;
/** Labels are cut here (in code points): a node is a tile, not the place to read a novel. */
export const MAX_LABEL_LENGTH = 48;
/** Mermaid refuses more than 500 edges; staying under keeps the rest of the graph drawable. */
export const MAX_GRAPH_EDGES = 400;
/** Unknown sources are names the runner can never match; a few are worth showing, not hundreds. */
const MAX_UNKNOWN_SOURCES = 20;

const DEPLOY_ID = 'deploy';
const NEVER_RUN = 'Never run';

// Fill and stroke per job colour; the class names are ours, so no user text reaches a classDef.
const CLASS_STYLES: Readonly<Record<JobColour | 'source' | 'unknown', string>> = {
  grey: 'fill:#f5f5f5,stroke:#8a8886,color:#242424',
  green: 'fill:#dff6dd,stroke:#107c10,color:#0e4a0c',
  runningGreen: 'fill:#e5f6d8,stroke:#5c9e31,color:#2e4d18',
  red: 'fill:#fde7e9,stroke:#c50f1f,color:#751d1f',
  orange: 'fill:#fdf0e5,stroke:#da3b01,color:#6f2b05',
  source: 'fill:#ebf3fc,stroke:#0f6cbd,color:#0c3b5e',
  unknown: 'fill:#ffffff,stroke:#8a8886,color:#616161,stroke-dasharray:4 3',
};

/** What a node says about its schedule: Manual, Hourly, Daily or the cron text itself. */
export function scheduleLabel(schedule: string | null | undefined): string {
  const text = (schedule ?? '').trim().replace(/\s+/g, ' ');
  if (text === '') return 'Manual';
  if (text === HOURLY_CRON) return 'Hourly';
  if (text === DAILY_CRON) return 'Daily';
  return text;
}

/**
 * Label text for mermaid's quoted node syntax: control and line-break characters become spaces,
 * lone surrogates U+FFFD, the text is cut to `max` code points, and every character but ASCII
 * letters, digits and the space becomes `#<code point>;`.
 */
export function escapeLabel(text: string, max = MAX_LABEL_LENGTH): string {
  const chars: string[] = [];
  // Only the first max + 1 code points matter; a megabyte name is not walked to its end.
  for (const char of text) {
    if (chars.length > max) break;
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) chars.push('\uFFFD');
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) chars.push(' ');
    else chars.push(char);
  }
  const cut = chars.length > max ? [...chars.slice(0, Math.max(0, max - 1)), '\u2026'] : chars;
  return cut.map((char) => (/^[A-Za-z0-9 ]$/.test(char) ? char : `#${String(char.codePointAt(0) ?? 0xfffd)};`)).join('');
}

/** The node line of one pipeline: name, then schedule and latest status on a second line. */
function pipelineLabel(pipeline: GraphPipeline, name: string): string {
  const status = pipeline.status?.trim() || NEVER_RUN;
  return `${escapeLabel(name)}<br/>${escapeLabel(scheduleLabel(pipeline.schedule), 32)} #183; ${escapeLabel(status, 24)}`;
}

/**
 * Pipelines → mermaid flowchart text. Edges follow the runner: a triggeredBy entry matches a
 * pipeline by its exact name, 'deploy' is the deploy source, anything else an unknown source
 * (drawn dashed: it will never fire). A self-reference is dropped (the runner never queues a
 * pipeline from its own run); cycles stay, mermaid lays them out. Duplicate names: first wins.
 * `direction` is left to right on wide screens, top to bottom on narrow ones.
 */
export function triggerGraph(pipelines: readonly GraphPipeline[], direction: 'LR' | 'TB' = 'LR'): TriggerGraph {
  const nodes: GraphNode[] = [];
  const lines: string[] = [`flowchart ${direction === 'TB' ? 'TB' : 'LR'}`];
  const idByName = new Map<string, string>();
  const classes: Record<string, string[]> = {};
  const addClass = (name: string, id: string) => (classes[name] ??= []).push(id);

  const named: GraphPipeline[] = [];
  for (const pipeline of pipelines) {
    const name = pipeline.name;
    if (typeof name !== 'string' || name === '' || idByName.has(name)) continue;
    named.push(pipeline);
    const id = `p${String(nodes.length)}`;
    idByName.set(name, id);
    nodes.push({ id, kind: 'pipeline', name });
    lines.push(`  ${id}["${pipelineLabel(pipeline, name)}"]`);
    addClass(pipeline.status?.trim() ? jobStatusColour(pipeline.status.trim()) : 'grey', id);
  }

  const edges = new Set<string>();
  const unknownIds = new Map<string, string>();
  let truncated = false;
  let deployUsed = false;
  for (const pipeline of named) {
    const target = idByName.get(pipeline.name as string);
    if (target === undefined) continue;
    for (const source of pipeline.triggeredBy ?? []) {
      if (typeof source !== 'string' || source === pipeline.name) continue;
      let from = idByName.get(source);
      if (from === undefined && source.trim().toLowerCase() === DEPLOY_TRIGGER) {
        from = DEPLOY_ID;
        deployUsed = true;
      }
      if (from === undefined) {
        from = unknownIds.get(source);
        if (from === undefined) {
          if (unknownIds.size >= MAX_UNKNOWN_SOURCES) continue;
          from = `u${String(unknownIds.size)}`;
          unknownIds.set(source, from);
          nodes.push({ id: from, kind: 'unknown', name: source });
          lines.push(`  ${from}["${escapeLabel(source)}<br/>${escapeLabel('no such pipeline')}"]`);
          addClass('unknown', from);
        }
      }
      const edge = `${from}-->${target}`;
      if (edges.has(edge)) continue;
      if (edges.size >= MAX_GRAPH_EDGES) {
        truncated = true;
        continue;
      }
      edges.add(edge);
    }
  }
  if (deployUsed) {
    nodes.push({ id: DEPLOY_ID, kind: 'deploy', name: DEPLOY_TRIGGER });
    lines.push(`  ${DEPLOY_ID}(["${escapeLabel('Deploy')}"])`);
    addClass('source', DEPLOY_ID);
  }
  for (const edge of edges) lines.push(`  ${edge.replace('-->', ' --> ')}`);
  for (const [name, style] of Object.entries(CLASS_STYLES)) {
    const members = classes[name];
    if (members === undefined) continue;
    lines.push(`  classDef ${name} ${style}`, `  class ${members.join(',')} ${name}`);
  }
  return { definition: lines.join('\n'), nodes, edgeCount: edges.size, truncated };
}
