import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from '../hostile.fixture';
import { ALLOWED_STYLE_PROPERTIES, ALLOWED_TAGS, DASHBOARD_COMPONENTS, cleanStyle, dashboardTree, safeHref, type DashNode } from './allow';
import { BadProp, parseDashboard, readLiteralExpression } from './parse';

const problems = (nodes: readonly DashNode[]): string[] => nodes.flatMap((n) => (n.kind === 'problem' ? [n.message] : n.kind === 'text' ? [] : problems(n.children)));

function walk(nodes: readonly DashNode[], visit: (node: DashNode) => void): void {
  for (const node of nodes) {
    visit(node);
    if (node.kind === 'html' || node.kind === 'component') walk(node.children, visit);
  }
}

describe('parseDashboard', () => {
  it('reads markdown, components and literal props the way the Matatika reference writes them', () => {
    const tree = dashboardTree(`# Sales

<div style={{ display: 'flex', gap: 16, color: "#333" }}>
  <DatasetChart alias="monthly-revenue" showTable />
  <DatasetLink alias='top-customers'>Top customers</DatasetLink>
</div>
<DownloadDataset alias="monthly-revenue" tooltip="CSV" /><Back/>`);
    expect(tree[0]).toEqual({ kind: 'text', text: '# Sales\n\n' });
    const div = tree[1];
    expect(div).toMatchObject({ kind: 'html', tag: 'div', props: { style: { display: 'flex', gap: 16, color: '#333' } } });
    const components: unknown[] = [];
    walk(tree, (n) => n.kind === 'component' && components.push([n.name, n.props]));
    expect(components).toEqual([
      ['DatasetChart', { alias: 'monthly-revenue', showTable: true }],
      ['DatasetLink', { alias: 'top-customers' }],
      ['DownloadDataset', { alias: 'monthly-revenue', tooltip: 'CSV' }],
      ['Back', {}],
    ]);
    expect(problems(tree)).toEqual([]);
  });

  it('never runs a function prop and says so', () => {
    const tree = dashboardTree('<DatasetData alias="x" render={(rows) => rows.map(r => r.a)} /><DatasetChart alias="y" showTable={function () { return true }} />');
    expect(problems(tree)).toEqual([
      'DatasetData: the render prop is a function. Functions in the dashboard content are never run; remove it or use a literal value.',
      'DatasetChart: the showTable prop is a function. Functions in the dashboard content are never run; remove it or use a literal value.',
    ]);
    expect(tree.filter((n) => n.kind === 'component')).toHaveLength(2);
  });

  it('drops scripts, event handlers, javascript: URLs and unsafe style', () => {
    const tree = dashboardTree(`<script>alert(1)</script><img src="x" onerror="alert(1)" /><a href="javascript:alert(1)" onClick={() => alert(1)}>x</a>
<div style={{ backgroundImage: "url(javascript:alert(1))", position: 'fixed', color: 'expression(alert(1))', width: '10px' }} dangerouslySetInnerHTML={{ __html: '<b>' }}>y</div>
<iframe src="https://evil.example"></iframe><style>body{display:none}</style>`);
    expect(problems(tree)).toEqual(['<script> is not allowed in the dashboard content.', '<iframe> is not allowed in the dashboard content.', '<style> is not allowed in the dashboard content.']);
    walk(tree, (n) => {
      if (n.kind === 'html') {
        expect(Object.keys(n.props).every((k) => ['className', 'style', 'title', 'href', 'src', 'alt', 'width', 'height', 'colSpan', 'rowSpan'].includes(k))).toBe(true);
        if (n.tag === 'a') expect(n.props.href).toBeUndefined();
        if (n.tag === 'div') expect(n.props.style).toEqual({ width: '10px' });
      }
    });
    expect(JSON.stringify(tree)).not.toContain('alert(1)</');
  });

  it('reads literals only: objects, arrays, strings, numbers, booleans and null', () => {
    expect(readLiteralExpression(`{ a: [1, -2.5, 'x', "y\\n", true, null], 'b-c': { d: false } }`)).toEqual({ a: [1, -2.5, 'x', 'y\n', true, null], 'b-c': { d: false } });
    for (const code of ['window', 'alert(1)', '`${x}`', 'a.b', '1 + 1', 'new Date()', 'import("x")', '[...a]', '{...a}', 'x => x', 'async function f() {}']) {
      expect(readLiteralExpression(code), code).toBeInstanceOf(BadProp);
    }
  });

  it('never lets a prop or a style key reach the prototype', () => {
    const tree = parseDashboard('<div __proto__="x" constructor={1} style={{ __proto__: { polluted: 1 }, color: "red" }}>t</div>');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const div = tree[0];
    expect(div?.kind === 'element' && Object.keys(div.props)).toEqual(['style']);
    expect(cleanStyle({ ['__proto__']: 'x', color: 'red' }).style).toEqual({ color: 'red' });
  });

  it('accepts only http(s), mailto, in-app paths and fragments as URLs', () => {
    expect(safeHref('https://example.com/a')).toBe('https://example.com/a');
    expect(safeHref('/l/w/feed')).toBe('/l/w/feed');
    expect(safeHref('#top')).toBe('#top');
    for (const bad of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'data:text/html,x', '//evil.example', '/\\evil.example', 'vbscript:x']) expect(safeHref(bad), bad).toBeUndefined();
  });

  it('reports unclosed and stray tags, and needs an alias on dataset components', () => {
    expect(problems(dashboardTree('<div>open'))).toEqual(['<div> is not closed.']);
    expect(problems(dashboardTree('text</div>'))).toEqual(['</div> closes nothing.']);
    expect(problems(dashboardTree('<DatasetChart />'))).toEqual(['DatasetChart needs an alias (alias="my-dataset").']);
    expect(dashboardTree('a < b and 1<2')).toEqual([{ kind: 'text', text: 'a < b and 1<2' }]);
  });

  it('stays bounded on deep nesting and huge content', () => {
    const deep = '<div>'.repeat(10_000);
    expect(problems(dashboardTree(deep)).some((m) => m.includes('nested more than'))).toBe(true);
    expect(problems(dashboardTree('x'.repeat(300_000)))[0]).toMatch(/longer than/);
  });
});

describe('dashboardTree on hostile content (property)', () => {
  const fragments = fc.constantFrom('<', '>', '/>', '</', '<div', '<script>', '</script>', '<DatasetChart', ' alias="a"', ' style={{', '}}', '{', '}', '=>', 'onClick={() => 1}', ' href="javascript:x"', '"', "'", '`', '\\', '<!--', '-->', '{/*', '*/}', 'img', ' ', '\n', '__proto__', 'url(', '<a', '</a>', '</div>');
  const content = fc.oneof(hostileStringWithHuge, fc.array(fc.oneof(fragments, hostileString), { maxLength: 60 }).map((parts) => parts.join('')));

  it('never throws, and keeps only allowed tags, components, props and style', () => {
    fc.assert(
      fc.property(content, (source) => {
        const tree = dashboardTree(source);
        walk(tree, (node) => {
          if (node.kind === 'html') {
            expect(ALLOWED_TAGS.has(node.tag)).toBe(true);
            for (const key of Object.keys(node.props.style ?? {})) expect(ALLOWED_STYLE_PROPERTIES.has(key)).toBe(true);
            if (node.props.href !== undefined) expect(safeHref(node.props.href)).toBe(node.props.href);
            if (node.props.src !== undefined) expect(safeHref(node.props.src)).toBe(node.props.src);
          }
          if (node.kind === 'component') expect(DASHBOARD_COMPONENTS).toContain(node.name);
          if (node.kind === 'text') expect(typeof node.text).toBe('string');
        });
      }),
      { numRuns: 300 },
    );
  });
});
