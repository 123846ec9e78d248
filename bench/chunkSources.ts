// Which modules a built chunk is made of, by bytes of the minified output: each mapping segment of
// the chunk's source map covers the generated text up to the next segment, and counts for the
// source it maps to. The member-feed breakdown (bench/memberFeedWire-run.ts) shares a file's bytes
// on the wire among the packages and modules in it by these counts.
import fs from 'node:fs';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]));

/** One line of a source map's `mappings`: per segment, its generated column and (when it has one) its source index, both absolute. */
function decodeLine(line: string, state: { source: number }): { column: number; source: number | undefined }[] {
  const segments: { column: number; source: number | undefined }[] = [];
  let column = 0;
  for (const text of line.split(',')) {
    if (text === '') continue;
    const fields: number[] = [];
    let value = 0;
    let shift = 0;
    for (const char of text) {
      const digit = DIGIT.get(char);
      if (digit === undefined) throw new Error(`bad VLQ digit ${char}`);
      value += (digit & 31) << shift;
      if (digit & 32) {
        shift += 5;
        continue;
      }
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
    column += fields[0] ?? 0;
    if (fields.length > 1) state.source += fields[1]!;
    segments.push({ column, source: fields.length > 1 ? state.source : undefined });
  }
  return segments;
}

/** A module's name for the report: the package under node_modules, else the path from src/. */
export function moduleGroup(source: string): string {
  const normal = source.replaceAll('\\', '/');
  const at = normal.lastIndexOf('node_modules/');
  if (at >= 0) {
    const [scope = '', name = ''] = normal.slice(at + 'node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const src = normal.indexOf('src/');
  return src >= 0 ? normal.slice(src) : normal;
}

/** Generated characters of `file` per module group, from `file.map`; empty when there is no map. */
export function chunkSources(file: string): Map<string, number> {
  const sizes = new Map<string, number>();
  if (!fs.existsSync(`${file}.map`)) return sizes;
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const map = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const state = { source: 0 };
  map.mappings.split(';').forEach((line, index) => {
    const segments = decodeLine(line, state);
    const length = lines[index]?.length ?? 0;
    segments.forEach((segment, at) => {
      if (segment.source === undefined) return;
      const group = moduleGroup(map.sources[segment.source] ?? '?');
      const end = segments[at + 1]?.column ?? length;
      sizes.set(group, (sizes.get(group) ?? 0) + end - segment.column);
    });
  });
  return sizes;
}
