import { topLevelSpans } from './parse';

// The dashboard builder's view of DASHBOARD_CONTENT: an ordered list of blocks. DASHBOARD_CONTENT
// stays the stored format, so blocks are cut from the source, never kept beside it:
// - a dataset block is a top-level DatasetChart, DatasetData, DatasetLink or DownloadDataset
//   element with an alias that stands on its own line(s); its source is kept verbatim, so props
//   the builder does not know (showTable, style, a link's text) survive every move;
// - everything else is text (markdown and any other markup) up to the next dataset block or the
//   next block marker `{/* block */}`, an MDX comment the renderer drops, which the builder writes
//   only between two text blocks (two dataset blocks, or text and a dataset, need none).
// Cuts are made only where the renderer's own parser sees a top-level boundary, so an element is
// never split. Whitespace between blocks is not content: blocks are written one blank line apart.

export const DATASET_BLOCK_VIEWS = ['chart', 'data', 'link', 'download'] as const;
export type DatasetBlockView = (typeof DATASET_BLOCK_VIEWS)[number];

/** The component each dataset block kind is written as. */
const DATASET_BLOCK_COMPONENT: Readonly<Record<DatasetBlockView, string>> = {
  chart: 'DatasetChart',
  data: 'DatasetData',
  link: 'DatasetLink',
  download: 'DownloadDataset',
};

export type DashboardBlock =
  | { readonly kind: 'text'; readonly source: string }
  | { readonly kind: 'dataset'; readonly view: DatasetBlockView; readonly alias: string; readonly source: string };

export const BLOCK_MARKER = '{/* block */}';
const MARKER = /^\{\/\*\s*block\s*\*\/\}$/;

const VIEW_OF: ReadonlyMap<string, DatasetBlockView> = new Map(DATASET_BLOCK_VIEWS.map((view) => [DATASET_BLOCK_COMPONENT[view], view]));

/** A text block's source without the blank lines before it and the whitespace after it. */
const tidy = (text: string): string => text.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();

/** Whether [start, end) stands on its own line(s) of `masked` (markers already turned into newlines). */
function ownLines(masked: string, start: number, end: number): boolean {
  const lineStart = masked.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = masked.indexOf('\n', end);
  return masked.slice(lineStart, start).trim() === '' && masked.slice(end, lineEnd < 0 ? masked.length : lineEnd).trim() === '';
}

/** DASHBOARD_CONTENT as blocks; never throws. Whitespace-only text makes no block. */
export function parseBlocks(source: string): DashboardBlock[] {
  const spans = topLevelSpans(source);
  const markers = spans.filter((span) => span.kind === 'comment' && MARKER.test(source.slice(span.start, span.end)));
  // A marker is a block boundary, like a line break, for the own-line test.
  let masked = source;
  for (const marker of markers) masked = masked.slice(0, marker.start) + '\n'.repeat(marker.end - marker.start) + masked.slice(marker.end);

  const blocks: DashboardBlock[] = [];
  let textStart = 0;
  const endText = (at: number) => {
    const text = tidy(source.slice(textStart, at));
    if (text.trim() !== '') blocks.push({ kind: 'text', source: text });
  };
  for (const span of spans) {
    if (span.kind === 'comment') {
      if (!markers.includes(span)) continue;
      endText(span.start);
      textStart = span.end;
      continue;
    }
    const node = span.node;
    if (node.kind !== 'element') continue;
    const view = VIEW_OF.get(node.name);
    const alias = node.props['alias'] ?? node.props['dataset'];
    if (view === undefined || typeof alias !== 'string' || !ownLines(masked, span.start, span.end)) continue;
    endText(span.start);
    blocks.push({ kind: 'dataset', view, alias, source: source.slice(span.start, span.end) });
    textStart = span.end;
  }
  endText(source.length);
  return blocks;
}

/** Blocks as DASHBOARD_CONTENT: one blank line apart, a marker only between two text blocks; empty text blocks are left out. */
export function serialiseBlocks(blocks: readonly DashboardBlock[]): string {
  let out = '';
  let previous: DashboardBlock | undefined;
  for (const block of blocks) {
    const source = block.kind === 'text' ? tidy(block.source) : block.source;
    if (source.trim() === '') continue;
    if (previous !== undefined) out += previous.kind === 'text' && block.kind === 'text' ? `\n\n${BLOCK_MARKER}\n\n` : '\n\n';
    out += source;
    previous = block;
  }
  return out;
}

/**
 * A string prop as the parser reads it back: double quotes, else single quotes (neither has
 * escapes), else a `{"…"}` literal with the escapes the literal reader knows.
 */
function stringProp(value: string): string {
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  const escaped = value.replace(/[\\"\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => (ch === '\\' || ch === '"' ? `\\${ch}` : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return `{"${escaped}"}`;
}

/** A new dataset block; a link shows the dataset's title as its text when it has one that is plain text. */
export function datasetBlock(view: DatasetBlockView, alias: string, title = ''): DashboardBlock {
  const name = DATASET_BLOCK_COMPONENT[view];
  // Link text is read as inline text: no markup, braces or line breaks, so it cannot open an element or a prop.
  const text = title.replace(/[<>{}\r\n\u2028\u2029]/g, ' ').replace(/\s+/g, ' ').trim();
  const source = view === 'link' && text !== '' ? `<${name} alias=${stringProp(alias)}>${text}</${name}>` : `<${name} alias=${stringProp(alias)} />`;
  return { kind: 'dataset', view, alias, source };
}

export const NEW_TEXT_BLOCK = '## New section\n\nWrite **markdown** here.';

export const textBlock = (source: string = NEW_TEXT_BLOCK): DashboardBlock => ({ kind: 'text', source });

/** Whether the block at `index` can move by `by` (-1 up, 1 down). */
export const canMoveBlock = (blocks: readonly DashboardBlock[], index: number, by: -1 | 1): boolean =>
  Number.isInteger(index) && index >= 0 && index < blocks.length && index + by >= 0 && index + by < blocks.length;

export function moveBlock(blocks: readonly DashboardBlock[], index: number, by: -1 | 1): DashboardBlock[] {
  const out = [...blocks];
  if (!canMoveBlock(blocks, index, by)) return out;
  const [block] = out.splice(index, 1);
  if (block !== undefined) out.splice(index + by, 0, block);
  return out;
}

export const removeBlock = (blocks: readonly DashboardBlock[], index: number): DashboardBlock[] => blocks.filter((_, i) => i !== index);

/** A text block's new source; a dataset block is edited in the source, not here. */
export const setBlockText = (blocks: readonly DashboardBlock[], index: number, source: string): DashboardBlock[] =>
  blocks.map((block, i) => (i === index && block.kind === 'text' ? { kind: 'text', source } : block));
