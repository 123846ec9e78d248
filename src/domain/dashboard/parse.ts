// DASHBOARD_CONTENT (spec 002 §2 Dashboard) is JSX-like markdown in the Matatika reference's
// style: markdown text with elements such as <DatasetChart alias="sales" showTable /> and
// literal props like style={{ color: 'red' }}. MDX would compile it to JavaScript; here it is only
// read: a small hand-written parser turns it into a tree of text and elements whose props are
// literal values (strings, numbers, booleans, null, arrays and objects of those). Anything else in
// braces — an arrow function, a call, a variable — is never evaluated: it becomes a problem the
// page shows in words. What may be rendered is decided afterwards (allow.ts).

export type Literal = string | number | boolean | null | readonly Literal[] | { readonly [key: string]: Literal };

/** A prop the parser could not read as a literal, and why (a class, so no literal can pose as one). */
export class BadProp {
  constructor(readonly bad: 'function' | 'expression' | 'spread') {}
}

export type PropValue = Literal | BadProp;

export type ParsedNode =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'element'; readonly name: string; readonly props: Readonly<Record<string, PropValue>>; readonly children: readonly ParsedNode[] }
  | { readonly kind: 'problem'; readonly message: string };

/** Bounds that keep parsing linear and the tree small, whatever the property holds. */
export const DASHBOARD_LIMITS = { maxLength: 200_000, maxDepth: 24, maxNodes: 2_000, maxLiteralDepth: 8 } as const;

export function isBadProp(value: PropValue): value is BadProp {
  return value instanceof BadProp;
}

/** Elements written without a closing tag in HTML. */
const VOID = new Set(['br', 'hr', 'img']);

class Cursor {
  pos = 0;
  nodes = 0;
  constructor(readonly src: string) {}
  peek(offset = 0): string {
    return this.src.charAt(this.pos + offset);
  }
  done(): boolean {
    return this.pos >= this.src.length;
  }
  startsWith(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }
  skipSpace(): void {
    while (!this.done() && /\s/.test(this.peek())) this.pos += 1;
  }
}

const NAME_START = /[A-Za-z]/;
const NAME_CHAR = /[A-Za-z0-9_.:-]/;

function readName(c: Cursor, start_ = NAME_START): string {
  const start = c.pos;
  if (!start_.test(c.peek())) return '';
  // the first character by its own rule: an attribute may start with `$`, which NAME_CHAR lacks
  c.pos += 1;
  while (!c.done() && NAME_CHAR.test(c.peek())) c.pos += 1;
  return c.src.slice(start, c.pos);
}

/** `<` starts a tag only when a name or `/name` follows; otherwise it is text (`a < b`). */
function atTag(c: Cursor): boolean {
  return c.peek() === '<' && (NAME_START.test(c.peek(1)) || (c.peek(1) === '/' && NAME_START.test(c.peek(2))));
}

/** Parses the content into a tree; never throws, never evaluates. */
export function parseDashboard(source: string): ParsedNode[] {
  if (source.length > DASHBOARD_LIMITS.maxLength) return [{ kind: 'problem', message: `The dashboard content is longer than ${DASHBOARD_LIMITS.maxLength} characters.` }];
  const c = new Cursor(source);
  const nodes = parseChildren(c, undefined, 0);
  return nodes;
}

/** Where a top-level element or comment sits in the source (end exclusive). */
type TopLevelSpan =
  | { readonly kind: 'element'; readonly start: number; readonly end: number; readonly node: ParsedNode }
  | { readonly kind: 'comment'; readonly start: number; readonly end: number };

/**
 * The top-level elements and comments of the content with their places, read by the same parser
 * as the renderer's, so the dashboard builder (blocks.ts) cuts the source only where the
 * renderer sees a boundary. Everything between spans is top-level text. Never throws.
 */
export function topLevelSpans(source: string): TopLevelSpan[] {
  if (source.length > DASHBOARD_LIMITS.maxLength) return [];
  const spans: TopLevelSpan[] = [];
  parseChildren(new Cursor(source), undefined, 0, spans);
  return spans;
}

function parseChildren(c: Cursor, closing: string | undefined, depth: number, spans?: TopLevelSpan[]): ParsedNode[] {
  const out: ParsedNode[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') out.push({ kind: 'text', text });
    text = '';
  };
  while (!c.done()) {
    if (c.nodes > DASHBOARD_LIMITS.maxNodes) {
      flush();
      out.push({ kind: 'problem', message: `The dashboard content has more than ${DASHBOARD_LIMITS.maxNodes} elements; the rest is not shown.` });
      c.pos = c.src.length;
      break;
    }
    if (c.startsWith('<!--')) {
      // An HTML comment (MDX writes {/* */}; both are dropped).
      const start = c.pos;
      const end = c.src.indexOf('-->', c.pos + 4);
      c.pos = end < 0 ? c.src.length : end + 3;
      spans?.push({ kind: 'comment', start, end: c.pos });
      continue;
    }
    if (c.startsWith('{/*')) {
      const start = c.pos;
      const end = c.src.indexOf('*/}', c.pos + 3);
      c.pos = end < 0 ? c.src.length : end + 3;
      spans?.push({ kind: 'comment', start, end: c.pos });
      continue;
    }
    if (atTag(c) && c.peek(1) === '/') {
      c.pos += 2;
      const name = readName(c);
      c.skipSpace();
      if (c.peek() === '>') c.pos += 1;
      flush();
      if (name === closing) return out;
      // A stray closing tag is dropped, as a browser would, and said.
      out.push({ kind: 'problem', message: `</${name}> closes nothing.` });
      continue;
    }
    if (atTag(c)) {
      flush();
      const start = c.pos;
      const node = parseElement(c, depth);
      out.push(node);
      spans?.push({ kind: 'element', start, end: c.pos, node });
      continue;
    }
    text += c.peek();
    c.pos += 1;
  }
  flush();
  if (closing !== undefined) out.push({ kind: 'problem', message: `<${closing}> is not closed.` });
  return out;
}

function parseElement(c: Cursor, depth: number): ParsedNode {
  c.nodes += 1;
  c.pos += 1; // '<'
  const name = readName(c);
  const props: Record<string, PropValue> = {};
  for (;;) {
    c.skipSpace();
    if (c.done()) return { kind: 'problem', message: `<${name}> is not finished.` };
    if (c.startsWith('/>')) {
      c.pos += 2;
      return { kind: 'element', name, props, children: [] };
    }
    if (c.peek() === '>') {
      c.pos += 1;
      break;
    }
    if (c.peek() === '{') {
      // {...spread}: the value would come from code
      skipBraces(c);
      props['...'] = new BadProp('spread');
      continue;
    }
    const attr = readName(c, /[A-Za-z_$]/);
    if (attr === '') {
      c.pos += 1; // a character no attribute can hold: skip it
      continue;
    }
    c.skipSpace();
    if (c.peek() !== '=') {
      setProp(props, attr, true);
      continue;
    }
    c.pos += 1;
    c.skipSpace();
    const quote = c.peek();
    if (quote === '"' || quote === "'") {
      const end = c.src.indexOf(quote, c.pos + 1);
      const value = c.src.slice(c.pos + 1, end < 0 ? c.src.length : end);
      c.pos = end < 0 ? c.src.length : end + 1;
      setProp(props, attr, value);
    } else if (quote === '{') {
      const start = c.pos + 1;
      skipBraces(c);
      setProp(props, attr, readLiteralExpression(c.src.slice(start, Math.max(start, c.pos - 1))));
    } else {
      setProp(props, attr, new BadProp('expression'));
    }
  }
  if (VOID.has(name.toLowerCase())) return { kind: 'element', name, props, children: [] };
  if (depth + 1 > DASHBOARD_LIMITS.maxDepth) {
    // Too deep: skip to the end of the content rather than recurse further.
    c.pos = c.src.length;
    return { kind: 'problem', message: `The dashboard content is nested more than ${DASHBOARD_LIMITS.maxDepth} levels deep.` };
  }
  const children = parseChildren(c, name, depth + 1);
  return { kind: 'element', name, props, children };
}

/** Own keys only, and never the ones that reach an object's prototype. */
function setProp(target: Record<string, PropValue>, key: string, value: PropValue): void {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') return;
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** From `{` to just after its matching `}`, stepping over quoted strings. */
function skipBraces(c: Cursor): void {
  let depth = 0;
  while (!c.done()) {
    const ch = c.peek();
    if (ch === '"' || ch === "'" || ch === '`') {
      c.pos += 1;
      while (!c.done() && c.peek() !== ch) c.pos += c.peek() === '\\' ? 2 : 1;
      c.pos += 1;
      continue;
    }
    c.pos += 1;
    if (ch === '{') depth += 1;
    else if (ch === '}') {
      depth -= 1;
      if (depth === 0) return;
    }
  }
}

// ---- literal expressions: a JSON-like subset of JavaScript, read, never run ----

class LiteralError extends Error {}

/** The value of `{...}` when it is a literal; a function or any other expression is a BadProp. */
export function readLiteralExpression(text: string): PropValue {
  const trimmed = text.trim();
  // any arrow, anywhere, is code
  if (/^(async\s+)?function\b/.test(trimmed) || /=>/.test(trimmed)) return new BadProp('function');
  const reader = new LiteralReader(trimmed);
  try {
    const value = reader.value(0);
    reader.space();
    if (!reader.done()) throw new LiteralError('trailing');
    return value;
  } catch {
    return new BadProp('expression');
  }
}

class LiteralReader {
  private pos = 0;
  constructor(private readonly src: string) {}
  done(): boolean {
    return this.pos >= this.src.length;
  }
  space(): void {
    while (!this.done() && /\s/.test(this.src.charAt(this.pos))) this.pos += 1;
  }
  private expect(ch: string): void {
    this.space();
    if (this.src.charAt(this.pos) !== ch) throw new LiteralError(`expected ${ch}`);
    this.pos += 1;
  }
  value(depth: number): Literal {
    if (depth > DASHBOARD_LIMITS.maxLiteralDepth) throw new LiteralError('too deep');
    this.space();
    const ch = this.src.charAt(this.pos);
    if (ch === '{') return this.object(depth);
    if (ch === '[') return this.array(depth);
    if (ch === '"' || ch === "'" || ch === '`') return this.string();
    const word = /^(-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|true|false|null|undefined)/.exec(this.src.slice(this.pos, this.pos + 64));
    if (!word?.[0]) throw new LiteralError('not a literal');
    this.pos += word[0].length;
    if (NAME_CHAR.test(this.src.charAt(this.pos)) && !/[.-]/.test(this.src.charAt(this.pos))) throw new LiteralError('identifier');
    switch (word[0]) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'null':
      case 'undefined':
        return null;
      default: {
        const n = Number(word[0]);
        if (!Number.isFinite(n)) throw new LiteralError('number');
        return n;
      }
    }
  }
  private string(): string {
    const quote = this.src.charAt(this.pos);
    this.pos += 1;
    let out = '';
    while (!this.done()) {
      const ch = this.src.charAt(this.pos);
      if (ch === quote) {
        this.pos += 1;
        return out;
      }
      if (quote === '`' && ch === '$' && this.src.charAt(this.pos + 1) === '{') throw new LiteralError('template expression');
      if (ch === '\\') {
        const next = this.src.charAt(this.pos + 1);
        this.pos += 2;
        if (next === 'n') out += '\n';
        else if (next === 't') out += '\t';
        else if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(this.src.slice(this.pos, this.pos + 4))) {
          out += String.fromCharCode(parseInt(this.src.slice(this.pos, this.pos + 4), 16));
          this.pos += 4;
        } else out += next;
        continue;
      }
      out += ch;
      this.pos += 1;
    }
    throw new LiteralError('unterminated string');
  }
  private array(depth: number): Literal[] {
    this.pos += 1;
    const items: Literal[] = [];
    for (;;) {
      this.space();
      if (this.src.charAt(this.pos) === ']') {
        this.pos += 1;
        return items;
      }
      items.push(this.value(depth + 1));
      this.space();
      if (this.src.charAt(this.pos) === ',') this.pos += 1;
      else if (this.src.charAt(this.pos) !== ']') throw new LiteralError('expected , or ]');
    }
  }
  private object(depth: number): { [key: string]: Literal } {
    this.pos += 1;
    const out: { [key: string]: Literal } = {};
    for (;;) {
      this.space();
      if (this.src.charAt(this.pos) === '}') {
        this.pos += 1;
        return out;
      }
      let key: string;
      const ch = this.src.charAt(this.pos);
      if (ch === '"' || ch === "'") key = this.string();
      else {
        const m = /^[A-Za-z_$][\w$-]*/.exec(this.src.slice(this.pos, this.pos + 200));
        if (!m) throw new LiteralError('key');
        key = m[0];
        this.pos += key.length;
      }
      this.expect(':');
      const value = this.value(depth + 1);
      if (key !== '__proto__' && key !== 'constructor' && key !== 'prototype') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      this.space();
      if (this.src.charAt(this.pos) === ',') this.pos += 1;
      else if (this.src.charAt(this.pos) !== '}') throw new LiteralError('expected , or }');
    }
  }
}
