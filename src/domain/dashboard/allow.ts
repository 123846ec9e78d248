import { isBadProp, parseDashboard, type Literal, type ParsedNode, type PropValue } from './parse';

// What of a parsed dashboard may be rendered: allowed HTML tags with a few plain attributes, the
// Matatika reference's components with their literal props, and style objects whose properties
// are on an allow-list with plain values. Everything else becomes a problem shown in words.

export const DASHBOARD_COMPONENTS = ['DatasetChart', 'DatasetData', 'DatasetLink', 'Back', 'DownloadDataset', 'DownloadResource'] as const;
export type DashboardComponent = (typeof DASHBOARD_COMPONENTS)[number];

export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
  'div', 'span', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'header', 'footer', 'main', 'aside',
  'ul', 'ol', 'li', 'strong', 'em', 'b', 'i', 'u', 'small', 'blockquote', 'pre', 'code', 'br', 'hr',
  'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a', 'img', 'figure', 'figcaption',
]);

/** CSS properties a style object may set: layout, spacing, colour and type — nothing that positions over the page or loads a URL. */
export const ALLOWED_STYLE_PROPERTIES: ReadonlySet<string> = new Set([
  'color', 'backgroundColor', 'opacity',
  'fontSize', 'fontWeight', 'fontStyle', 'fontFamily', 'lineHeight', 'textAlign', 'textDecoration', 'textTransform', 'letterSpacing', 'whiteSpace', 'verticalAlign',
  'margin', 'marginTop', 'marginRight', 'marginBottom', 'marginLeft', 'padding', 'paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft',
  'border', 'borderTop', 'borderRight', 'borderBottom', 'borderLeft', 'borderColor', 'borderWidth', 'borderStyle', 'borderRadius', 'boxShadow',
  'width', 'height', 'minWidth', 'maxWidth', 'minHeight', 'maxHeight', 'overflow', 'boxSizing',
  'display', 'flex', 'flexDirection', 'flexWrap', 'flexGrow', 'flexShrink', 'flexBasis', 'justifyContent', 'alignItems', 'alignSelf', 'alignContent',
  'gap', 'rowGap', 'columnGap', 'gridTemplateColumns', 'gridTemplateRows', 'gridColumn', 'gridRow', 'gridArea',
]);

/** A style value: words, numbers, units, colours and functions such as rgb() or calc() — no url(), no escapes, no markup. */
const STYLE_VALUE = /^[\w\s#%.,()+*/'"-]{0,200}$/;
const STYLE_FORBIDDEN = /url\s*\(|expression\s*\(|image-set|image\s*\(|element\s*\(|javascript:|@import|\/\*/i;

export type StyleObject = Readonly<Record<string, string | number>>;

export interface HtmlProps {
  className?: string;
  style?: StyleObject;
  title?: string;
  href?: string;
  src?: string;
  alt?: string;
  width?: string | number;
  height?: string | number;
  colSpan?: number;
  rowSpan?: number;
}

export interface ComponentProps {
  alias?: string;
  showTable?: boolean;
  tooltip?: string;
  path?: string;
  style?: StyleObject;
}

export type DashNode =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'html'; readonly tag: string; readonly props: HtmlProps; readonly children: readonly DashNode[] }
  | { readonly kind: 'component'; readonly name: DashboardComponent; readonly props: ComponentProps; readonly children: readonly DashNode[] }
  | { readonly kind: 'problem'; readonly message: string };

/** An http(s) URL, an in-app path or a fragment; never javascript:, data: or a protocol-relative URL. */
export function safeHref(value: string): string | undefined {
  const text = value.trim();
  if (text.startsWith('#')) return text;
  if (text.startsWith('/') && !text.startsWith('//') && !text.startsWith('/\\')) return text;
  if (/^(https?:\/\/|mailto:)/i.test(text) && !/[\s<>"]/.test(text)) return text;
  return undefined;
}

function isPlainObject(value: Literal): value is { readonly [key: string]: Literal } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The allowed part of a style object, and the names of what was dropped. */
export function cleanStyle(value: Literal): { style: StyleObject; dropped: string[] } {
  const style: Record<string, string | number> = {};
  const dropped: string[] = [];
  if (!isPlainObject(value)) return { style, dropped: ['style (not an object)'] };
  for (const [key, raw] of Object.entries(value)) {
    const ok =
      ALLOWED_STYLE_PROPERTIES.has(key) &&
      ((typeof raw === 'number' && Number.isFinite(raw)) || (typeof raw === 'string' && STYLE_VALUE.test(raw) && !STYLE_FORBIDDEN.test(raw)));
    if (ok) Object.defineProperty(style, key, { value: raw, enumerable: true });
    else dropped.push(key);
  }
  return { style, dropped };
}

const why = (name: string, prop: string, value: PropValue): string | undefined => {
  if (!isBadProp(value)) return undefined;
  if (value.bad === 'function') return `${name}: the ${prop} prop is a function. Functions in the dashboard content are never run; remove it or use a literal value.`;
  if (value.bad === 'spread') return `${name}: spread props ({...}) are not supported; write each prop as a literal value.`;
  return `${name}: the ${prop} prop is not a literal value (a string, number, boolean, list or object). Expressions in the dashboard content are never run.`;
};

const COMPONENT_PROPS: Readonly<Record<DashboardComponent, readonly string[]>> = {
  DatasetChart: ['alias', 'dataset', 'showTable', 'style'],
  DatasetData: ['alias', 'dataset', 'render', 'style'],
  DatasetLink: ['alias', 'dataset', 'style'],
  Back: ['style'],
  DownloadDataset: ['alias', 'dataset', 'tooltip', 'style'],
  DownloadResource: ['path', 'tooltip', 'style'],
};

function componentNode(name: DashboardComponent, props: Readonly<Record<string, PropValue>>, children: DashNode[], problems: DashNode[]): DashNode {
  const out: ComponentProps = {};
  for (const [prop, value] of Object.entries(props)) {
    const bad = why(name, prop === '...' ? 'spread' : prop, value);
    if (bad !== undefined) {
      problems.push({ kind: 'problem', message: bad });
      continue;
    }
    if (!COMPONENT_PROPS[name].includes(prop) || isBadProp(value)) continue;
    if ((prop === 'alias' || prop === 'dataset') && typeof value === 'string') out.alias = value;
    else if (prop === 'showTable') out.showTable = value === true || value === 'true';
    else if ((prop === 'tooltip' || prop === 'path') && typeof value === 'string') out[prop] = value;
    else if (prop === 'style') out.style = cleanStyle(value).style;
  }
  const render = Object.prototype.hasOwnProperty.call(props, 'render') ? props['render'] : undefined;
  if (name === 'DatasetData' && render !== undefined && !isBadProp(render)) {
    problems.push({ kind: 'problem', message: 'DatasetData: render is not supported here; the data is shown as a table.' });
  }
  if (['DatasetChart', 'DatasetData', 'DatasetLink', 'DownloadDataset'].includes(name) && out.alias === undefined) {
    return { kind: 'problem', message: `${name} needs an alias (alias="my-dataset").` };
  }
  if (name === 'DownloadResource' && out.path === undefined) return { kind: 'problem', message: 'DownloadResource needs a path (path="file.csv").' };
  return { kind: 'component', name, props: out, children };
}

function htmlNode(tag: string, props: Readonly<Record<string, PropValue>>, children: DashNode[]): DashNode {
  const out: HtmlProps = {};
  for (const [prop, value] of Object.entries(props)) {
    if (isBadProp(value)) continue;
    if ((prop === 'className' || prop === 'class') && typeof value === 'string') out.className = value.slice(0, 200);
    else if (prop === 'style') out.style = cleanStyle(value).style;
    else if ((prop === 'title' || prop === 'alt') && typeof value === 'string') out[prop] = value;
    else if (prop === 'href' && tag === 'a' && typeof value === 'string') {
      const href = safeHref(value);
      if (href !== undefined) out.href = href;
    } else if (prop === 'src' && tag === 'img' && typeof value === 'string') {
      const src = safeHref(value);
      if (src !== undefined && !src.startsWith('mailto:')) out.src = src;
    } else if ((prop === 'width' || prop === 'height') && (typeof value === 'number' || (typeof value === 'string' && /^\d{1,5}(px|%)?$/.test(value)))) out[prop] = value;
    else if ((prop === 'colSpan' || prop === 'rowSpan') && typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 100) out[prop] = value;
  }
  return { kind: 'html', tag, props: out, children };
}

function allow(nodes: readonly ParsedNode[]): DashNode[] {
  const out: DashNode[] = [];
  for (const node of nodes) {
    if (node.kind !== 'element') {
      out.push(node);
      continue;
    }
    const children = allow(node.children);
    const name = node.name;
    if ((DASHBOARD_COMPONENTS as readonly string[]).includes(name)) {
      const problems: DashNode[] = [];
      const built = componentNode(name as DashboardComponent, node.props, children, problems);
      out.push(...problems, built);
    } else if (ALLOWED_TAGS.has(name)) {
      out.push(htmlNode(name, node.props, children));
    } else {
      // Neither shown nor run: not even its text (a <script> or <style> body is code).
      out.push({ kind: 'problem', message: `<${name}> is not allowed in the dashboard content.` });
    }
  }
  return out;
}

/** DASHBOARD_CONTENT as a tree that holds only what may be rendered. */
export function dashboardTree(source: string): DashNode[] {
  return allow(parseDashboard(source));
}
