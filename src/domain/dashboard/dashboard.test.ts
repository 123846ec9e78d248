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

describe('what the allow-list keeps of each prop (by hand)', () => {
  const only = (source: string): DashNode => {
    const tree = dashboardTree(source);
    expect(tree).toHaveLength(1);
    return tree[0]!;
  };
  // the whole props object, so a prop kept by mistake shows (toMatchObject would not see it)
  const propsOf = (source: string): unknown => {
    const node = only(source);
    return node.kind === 'html' || node.kind === 'component' ? node.props : node;
  };

  it('keeps the plain attributes of an HTML tag, each under its own rule', () => {
    expect(only(`<p class="lead" title="T" alt="A" onclick="x" id="i">x</p>`)).toEqual({ kind: 'html', tag: 'p', props: { className: 'lead', title: 'T', alt: 'A' }, children: [{ kind: 'text', text: 'x' }] });
    expect(propsOf(`<p className="${'c'.repeat(250)}" />`)).toEqual({ className: 'c'.repeat(200) });
    expect(propsOf('<p className={1} title={2} alt={true} />')).toEqual({});
    expect(only('<p title={() => 1} />')).toEqual({ kind: 'html', tag: 'p', props: {}, children: [] });
  });

  it('keeps href on <a> only and src on <img> only, never a mailto: image', () => {
    expect(propsOf('<a href=" /l/w ">x</a>')).toEqual({ href: '/l/w' });
    expect(propsOf('<a href={1}>x</a>')).toEqual({});
    expect(propsOf('<p href="/l/w" src="/i.png">x</p>')).toEqual({});
    expect(only('<img src="https://example.com/i.png" href="/x" />')).toEqual({ kind: 'html', tag: 'img', props: { src: 'https://example.com/i.png' }, children: [] });
    expect(only('<img src="mailto:a@b.c" />')).toEqual({ kind: 'html', tag: 'img', props: {}, children: [] });
    expect(only('<img src="javascript:x" />')).toEqual({ kind: 'html', tag: 'img', props: {}, children: [] });
    expect(only('<img src={7} />')).toEqual({ kind: 'html', tag: 'img', props: {}, children: [] });
    expect(propsOf('<a href="mailto:a@b.c">m</a>')).toEqual({ href: 'mailto:a@b.c' });
  });

  it('keeps sizes that are numbers or 1-5 digits with px or %, and spans 1 to 99', () => {
    expect(propsOf('<td width="120" height="50%" colSpan={2} rowSpan={99} />')).toEqual({ width: '120', height: '50%', colSpan: 2, rowSpan: 99 });
    expect(propsOf('<td width={40} height="12px" />')).toEqual({ width: 40, height: '12px' });
    // a list whose text would pass ([12] reads '12') is not a size either
    for (const bad of ['"123456"', '"1em"', '"x12"', '"12px;"', '""', '{true}', '{[12]}']) expect(propsOf(`<td width=${bad} />`), bad).toEqual({});
    for (const bad of ['{0}', '{100}', '{1.5}', '{-1}', '"2"']) expect(propsOf(`<td colSpan=${bad} rowSpan=${bad} />`), bad).toEqual({});
    expect(propsOf('<td colSpan={1} />')).toEqual({ colSpan: 1 });
  });

  it('keeps each component’s own props only, and says why a bad one was left out', () => {
    expect(only('<DownloadResource path="files/a.csv" tooltip="Get it" alias="x" />')).toEqual({ kind: 'component', name: 'DownloadResource', props: { path: 'files/a.csv', tooltip: 'Get it' }, children: [] });
    expect(only('<DownloadResource tooltip="t" />')).toEqual({ kind: 'problem', message: 'DownloadResource needs a path (path="file.csv").' });
    expect(only('<DownloadResource path={1} />')).toEqual({ kind: 'problem', message: 'DownloadResource needs a path (path="file.csv").' });
    expect(only('<DatasetLink dataset="d" tooltip="t" path="p" showTable />')).toEqual({ kind: 'component', name: 'DatasetLink', props: { alias: 'd' }, children: [] });
    expect(only('<DatasetChart alias={1} />')).toEqual({ kind: 'problem', message: 'DatasetChart needs an alias (alias="my-dataset").' });
    expect(propsOf('<DatasetChart alias="a" showTable="true" />')).toEqual({ alias: 'a', showTable: true });
    expect(propsOf('<DatasetChart alias="a" showTable="yes" />')).toEqual({ alias: 'a', showTable: false });
    expect(propsOf('<DatasetChart alias="a" showTable={false} />')).toEqual({ alias: 'a', showTable: false });
    expect(only('<DownloadDataset alias="a" tooltip={3} />')).toEqual({ kind: 'component', name: 'DownloadDataset', props: { alias: 'a' }, children: [] });
    expect(only('<Back style={{ color: "red", position: "fixed" }} />')).toEqual({ kind: 'component', name: 'Back', props: { style: { color: 'red' } }, children: [] });
    expect(only('<Back><b>x</b></Back>')).toEqual({ kind: 'component', name: 'Back', props: {}, children: [{ kind: 'html', tag: 'b', props: {}, children: [{ kind: 'text', text: 'x' }] }] });
  });

  it('names a spread, an expression and a literal render as problems before the component', () => {
    expect(dashboardTree('<Back {...props} />')).toEqual([
      { kind: 'problem', message: 'Back: spread props ({...}) are not supported; write each prop as a literal value.' },
      { kind: 'component', name: 'Back', props: {}, children: [] },
    ]);
    expect(dashboardTree('<DatasetChart alias="a" tooltip={x.y} />')).toEqual([
      { kind: 'problem', message: 'DatasetChart: the tooltip prop is not a literal value (a string, number, boolean, list or object). Expressions in the dashboard content are never run.' },
      { kind: 'component', name: 'DatasetChart', props: { alias: 'a' }, children: [] },
    ]);
    expect(dashboardTree('<DatasetData alias="a" render="table" />')).toEqual([
      { kind: 'problem', message: 'DatasetData: render is not supported here; the data is shown as a table.' },
      { kind: 'component', name: 'DatasetData', props: { alias: 'a' }, children: [] },
    ]);
    expect(dashboardTree('<DatasetChart alias="a" render="table" />')).toEqual([{ kind: 'component', name: 'DatasetChart', props: { alias: 'a' }, children: [] }]);
    // an HTML tag drops a bad prop without a word
    expect(dashboardTree('<p {...props} title={x.y}>t</p>')).toEqual([{ kind: 'html', tag: 'p', props: {}, children: [{ kind: 'text', text: 't' }] }]);
  });

  it('needs an alias on each dataset component, and asks nothing of a DatasetData without render', () => {
    for (const name of ['DatasetChart', 'DatasetData', 'DatasetLink', 'DownloadDataset']) expect(dashboardTree(`<${name} />`), name).toEqual([{ kind: 'problem', message: `${name} needs an alias (alias="my-dataset").` }]);
    expect(dashboardTree('<DatasetData alias="a" />')).toEqual([{ kind: 'component', name: 'DatasetData', props: { alias: 'a' }, children: [] }]);
  });

  it('keeps no trace of a bad or refused HTML prop (not even an empty style or an undefined href)', () => {
    expect(propsOf('<p style={x.y}>t</p>')).toStrictEqual({});
    expect(propsOf('<a href="javascript:x">t</a>')).toStrictEqual({});
    expect(propsOf('<a rel="/x">t</a>')).toStrictEqual({});
    expect(propsOf('<img src="javascript:x" />')).toStrictEqual({});
  });

  it('drops a child that is not allowed but keeps its siblings', () => {
    expect(dashboardTree('<div><object>x</object>y</div>')).toEqual([
      { kind: 'html', tag: 'div', props: {}, children: [{ kind: 'problem', message: '<object> is not allowed in the dashboard content.' }, { kind: 'text', text: 'y' }] },
    ]);
  });
});

describe('cleanStyle (by hand)', () => {
  it('keeps allowed properties with finite numbers or plain values, and lists the rest', () => {
    expect(cleanStyle({ color: 'rgb(1, 2, 3)', width: 10, opacity: 0.5, margin: "0 auto", fontFamily: "'Inter', sans-serif" })).toEqual({ style: { color: 'rgb(1, 2, 3)', width: 10, opacity: 0.5, margin: '0 auto', fontFamily: "'Inter', sans-serif" }, dropped: [] });
    expect(cleanStyle({ position: 'fixed', width: Number.POSITIVE_INFINITY, height: true, color: null, padding: [1], gap: { a: 1 } })).toEqual({ style: {}, dropped: ['position', 'width', 'height', 'color', 'padding', 'gap'] });
    expect(cleanStyle('color: red')).toEqual({ style: {}, dropped: ['style (not an object)'] });
    expect(cleanStyle(null)).toEqual({ style: {}, dropped: ['style (not an object)'] });
    expect(cleanStyle(['color'])).toEqual({ style: {}, dropped: ['style (not an object)'] });
  });

  it('refuses URLs, escapes, markup, comments and over-long values', () => {
    for (const bad of ['url(x)', 'URL (x)', 'expression(1)', 'image-set(a)', 'image(a)', 'element(a)', 'javascript:x', '@import x', 'a /* b', 'red;', 'a\\62', '<b>', 'x'.repeat(201), 'a{b}']) {
      expect(cleanStyle({ color: bad }), bad).toEqual({ style: {}, dropped: ['color'] });
    }
    expect(cleanStyle({ width: 'x'.repeat(200) }).style).toEqual({ width: 'x'.repeat(200) });
    expect(cleanStyle({ width: 'calc(100% - 2px)' }).style).toEqual({ width: 'calc(100% - 2px)' });
  });
});

describe('safeHref (by hand)', () => {
  it('trims, and refuses a web or mail link holding a space, < > or a quote', () => {
    expect(safeHref('  #x ')).toBe('#x');
    expect(safeHref('HTTP://EXAMPLE.COM')).toBe('HTTP://EXAMPLE.COM');
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
    for (const bad of ['https://a b', 'https://a<b', 'https://a>b', 'https://a"b', 'ftp://a', 'https:/a', 'x/https://a', 'relative/path', '']) expect(safeHref(bad), bad).toBeUndefined();
    // an in-app path may hold spaces: it never leaves the app
    expect(safeHref('/a b')).toBe('/a b');
  });
});
