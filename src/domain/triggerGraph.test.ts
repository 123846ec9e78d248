import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAILY_CRON, HOURLY_CRON } from './cron';
import { hostileString, HUGE_TEXTS } from './hostile.fixture';
import { escapeLabel, MAX_GRAPH_EDGES, MAX_LABEL_LENGTH, scheduleLabel, triggerGraph, type GraphPipeline } from './triggerGraph';

const HOSTILE_NAMES = [
  'He said "hi"',
  'a"]; click p0 call alert(1) %%',
  'A --> B',
  'x[y]{z}(w)',
  'line\nbreak\r\nagain',
  '%%{init: {"securityLevel": "loose"}}%%',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '#quot; #35; &amp; &#60;',
  'style a fill:#f00;',
  'classDef x fill:#f00;',
  'end',
  'graph TD',
  '\uFB02\u00B0\u00B0 60\u00B6\u00DF',
  'Zürich 🚀 数据 \u202Eevil',
  '\uD800 lone',
  '',
];

/** Mermaid's own reading of a label: #N; → the code point (what the browser shows). */
const decode = (label: string) => label.replace(/#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)));

// A label is letters, digits, spaces, numeric entities and our own line break, nothing else.
const SAFE_LABEL = /^(?:[A-Za-z0-9 ]|#\d+;|<br\/>)*$/;
const NODE_LINE = /^ {2}(p\d+|u\d+)\["([^"]*)"\]$|^ {2}deploy\(\["([^"]*)"\]\)$/;
const EDGE_LINE = /^ {2}(p\d+|u\d+|deploy) --> (p\d+)$/;
const CLASS_LINE = /^ {2}(classDef [a-zA-Z]+ [a-z0-9:#,\- ]+|class [pud0-9a-z,]+ [a-zA-Z]+)$/;

function checkGrammar(definition: string) {
  const [head, ...rest] = definition.split('\n');
  expect(head).toMatch(/^flowchart (LR|TB)$/);
  for (const line of rest) {
    const node = NODE_LINE.exec(line);
    if (node) {
      expect(node[2] ?? node[3]).toMatch(SAFE_LABEL);
      continue;
    }
    expect(line.match(EDGE_LINE) ?? line.match(CLASS_LINE), line).not.toBeNull();
  }
}

describe('scheduleLabel', () => {
  it('names the presets and shows a custom cron as it is', () => {
    expect(scheduleLabel(null)).toBe('Manual');
    expect(scheduleLabel('  ')).toBe('Manual');
    expect(scheduleLabel(HOURLY_CRON)).toBe('Hourly');
    expect(scheduleLabel(` ${DAILY_CRON.replace(/ /g, '  ')} `)).toBe('Daily');
    expect(scheduleLabel('0 */5 * * * *')).toBe('0 */5 * * * *');
  });
});

describe('escapeLabel', () => {
  it('keeps letters, digits and spaces and writes everything else as a numeric entity', () => {
    expect(escapeLabel('Demo sales data')).toBe('Demo sales data');
    expect(escapeLabel('a"b')).toBe('a#34;b');
    expect(escapeLabel('<b>')).toBe('#60;b#62;');
    expect(escapeLabel('%%')).toBe('#37;#37;');
    expect(escapeLabel('a\nb')).toBe('a b');
    expect(escapeLabel('🚀')).toBe('#128640;');
    expect(escapeLabel('\uD800')).toBe('#65533;');
  });

  it('cuts long names to the label length with an ellipsis', () => {
    const label = decode(escapeLabel('x'.repeat(500)));
    expect(Array.from(label)).toHaveLength(MAX_LABEL_LENGTH);
    expect(label.endsWith('\u2026')).toBe(true);
  });

  it('hostile text: the label is safe and reads back as the (cleaned, cut) text', () => {
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.constantFrom(...HOSTILE_NAMES)), (text) => {
        const label = escapeLabel(text);
        expect(label).toMatch(SAFE_LABEL);
        const shown = Array.from(decode(label));
        expect(shown.length).toBeLessThanOrEqual(MAX_LABEL_LENGTH);
        const cleaned = Array.from(text, (char) => (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(char) ? ' ' : char.length === 1 && /[\uD800-\uDFFF]/.test(char) ? '\uFFFD' : char));
        if (cleaned.length <= MAX_LABEL_LENGTH) expect(shown.join('')).toBe(cleaned.join(''));
        else expect(shown.slice(0, -1).join('')).toBe(cleaned.slice(0, MAX_LABEL_LENGTH - 1).join(''));
      }),
    );
  });

  it('huge text stays quick and short', () => {
    for (const text of HUGE_TEXTS) expect(decode(escapeLabel(text)).length).toBeLessThanOrEqual(MAX_LABEL_LENGTH * 2);
  });
});

describe('triggerGraph', () => {
  it('draws the demo: the daily pipeline triggers the reference files', () => {
    const graph = triggerGraph([
      { name: 'Demo sales data', schedule: DAILY_CRON, status: 'COMPLETE' },
      { name: 'Reference files', triggeredBy: ['Demo sales data'], status: 'QUEUED' },
    ]);
    expect(graph.nodes).toEqual([
      { id: 'p0', kind: 'pipeline', name: 'Demo sales data' },
      { id: 'p1', kind: 'pipeline', name: 'Reference files' },
    ]);
    expect(graph.definition).toContain('p0["Demo sales data<br/>Daily #183; COMPLETE"]');
    expect(graph.definition).toContain('p1["Reference files<br/>Manual #183; QUEUED"]');
    expect(graph.definition).toContain('p0 --> p1');
    expect(graph.edgeCount).toBe(1);
    checkGrammar(graph.definition);
    expect(triggerGraph([], 'TB').definition).toBe('flowchart TB');
  });

  it('deploy is a source node, unknown names are dashed sources, self-references are dropped, cycles stay', () => {
    const graph = triggerGraph([
      { name: 'A', triggeredBy: ['B', 'A', 'deploy'] },
      { name: 'B', triggeredBy: ['A', 'ghost', 'ghost'] },
      { name: 'C', triggeredBy: ['DEPLOY'] },
    ]);
    expect(graph.nodes.map((node) => [node.id, node.kind, node.name])).toEqual([
      ['p0', 'pipeline', 'A'],
      ['p1', 'pipeline', 'B'],
      ['p2', 'pipeline', 'C'],
      ['u0', 'unknown', 'ghost'],
      ['deploy', 'deploy', 'deploy'],
    ]);
    const edges = graph.definition.split('\n').filter((line) => line.includes('-->'));
    expect(edges.map((line) => line.trim()).sort()).toEqual(['deploy --> p0', 'deploy --> p2', 'p0 --> p1', 'p1 --> p0', 'u0 --> p1']);
    expect(graph.definition).toContain('Never run');
    checkGrammar(graph.definition);
  });

  it('keeps the first of duplicate names and skips nameless pipelines', () => {
    const graph = triggerGraph([{ name: 'A', status: 'FAILED' }, { name: 'A', status: 'COMPLETE' }, { name: null }, { name: '' }]);
    expect(graph.nodes).toEqual([{ id: 'p0', kind: 'pipeline', name: 'A' }]);
    expect(graph.definition).toContain('FAILED');
    expect(graph.definition).not.toContain('COMPLETE');
  });

  it('stops adding edges at the limit and says so', () => {
    const names = Array.from({ length: 30 }, (_, index) => `P${String(index)}`);
    const graph = triggerGraph(names.map((name) => ({ name, triggeredBy: names })));
    expect(graph.edgeCount).toBe(MAX_GRAPH_EDGES);
    expect(graph.truncated).toBe(true);
  });

  const hostilePipeline: fc.Arbitrary<GraphPipeline> = fc.record({
    name: fc.oneof(fc.constantFrom(...HOSTILE_NAMES), hostileString, fc.constant(null)),
    schedule: fc.oneof(fc.constant(null), hostileString),
    status: fc.oneof(fc.constant(null), hostileString, fc.constantFrom('COMPLETE', 'FAILED', 'RUNNING')),
    triggeredBy: fc.oneof(fc.constant(null), fc.array(fc.oneof(fc.constantFrom(...HOSTILE_NAMES, 'deploy'), hostileString), { maxLength: 6 })),
  });

  it('hostile names, schedules, statuses and triggers: the text stays in the grammar; ids never carry names', () => {
    fc.assert(
      fc.property(fc.array(hostilePipeline, { maxLength: 12 }), (pipelines) => {
        const graph = triggerGraph(pipelines);
        checkGrammar(graph.definition);
        for (const node of graph.nodes) expect(node.id).toMatch(/^(p\d+|u\d+|deploy)$/);
        const names = new Set(pipelines.map((pipeline) => pipeline.name).filter((name): name is string => typeof name === 'string' && name !== ''));
        expect(graph.nodes.filter((node) => node.kind === 'pipeline')).toHaveLength(names.size);
      }),
    );
  });

  it('every edge is a triggeredBy entry naming another pipeline (or deploy, or an unknown source)', () => {
    const names = ['A', 'B', 'C', 'D', 'deploy', 'ghost'];
    const pipeline = fc.record({ name: fc.constantFrom('A', 'B', 'C', 'D'), triggeredBy: fc.array(fc.constantFrom(...names), { maxLength: 5 }) });
    fc.assert(
      fc.property(fc.array(pipeline, { maxLength: 8 }), (pipelines) => {
        const graph = triggerGraph(pipelines);
        const nameOf = new Map(graph.nodes.map((node) => [node.id, node.name]));
        const firstOf = new Map<string, GraphPipeline>();
        for (const p of pipelines) if (!firstOf.has(p.name)) firstOf.set(p.name, p);
        const expected = new Set<string>();
        for (const [name, p] of firstOf) for (const source of p.triggeredBy ?? []) if (source !== name) expected.add(`${source}>${name}`);
        const actual = new Set(
          graph.definition
            .split('\n')
            .map((line) => EDGE_LINE.exec(line))
            .filter((match) => match !== null)
            .map((match) => `${nameOf.get(match[1] ?? '') ?? '?'}>${nameOf.get(match[2] ?? '') ?? '?'}`),
        );
        expect(actual).toEqual(expected);
      }),
    );
  });

  it('a huge workspace with huge names builds quickly', () => {
    const pipelines = Array.from({ length: 200 }, (_, index) => ({ name: `${HUGE_TEXTS[index % HUGE_TEXTS.length] ?? ''}${String(index)}`, triggeredBy: [`${String(index - 1)}`] }));
    const started = Date.now();
    const graph = triggerGraph(pipelines);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(graph.nodes.length).toBeGreaterThanOrEqual(200);
    checkGrammar(graph.definition);
  });
});

describe('triggerGraph, line by line', () => {
  it('writes every node, edge and class of a small workspace', () => {
    const graph = triggerGraph([
      { name: 'A', status: '  ' },
      { name: 'B', schedule: HOURLY_CRON, triggeredBy: ['A', 'ghost', ' Deploy ', 'A'], status: 'COMPLETE' },
      { name: 'C', triggeredBy: ['A'] },
      { name: 'D' },
    ]);
    expect(graph).toEqual({
      definition: [
        'flowchart LR',
        '  p0["A<br/>Manual #183; Never run"]',
        '  p1["B<br/>Hourly #183; COMPLETE"]',
        '  p2["C<br/>Manual #183; Never run"]',
        '  p3["D<br/>Manual #183; Never run"]',
        '  u0["ghost<br/>no such pipeline"]',
        '  deploy(["Deploy"])',
        '  p0 --> p1',
        '  u0 --> p1',
        '  deploy --> p1',
        '  p0 --> p2',
        // a blank status is never run: labelled and coloured so
        '  classDef grey fill:#f5f5f5,stroke:#8a8886,color:#242424',
        '  class p0,p2,p3 grey',
        '  classDef green fill:#dff6dd,stroke:#107c10,color:#0e4a0c',
        '  class p1 green',
        '  classDef source fill:#ebf3fc,stroke:#0f6cbd,color:#0c3b5e',
        '  class deploy source',
        '  classDef unknown fill:#ffffff,stroke:#8a8886,color:#616161,stroke-dasharray:4 3',
        '  class u0 unknown',
      ].join('\n'),
      nodes: [
        { id: 'p0', kind: 'pipeline', name: 'A' },
        { id: 'p1', kind: 'pipeline', name: 'B' },
        { id: 'p2', kind: 'pipeline', name: 'C' },
        { id: 'p3', kind: 'pipeline', name: 'D' },
        { id: 'u0', kind: 'unknown', name: 'ghost' },
        { id: 'deploy', kind: 'deploy', name: 'deploy' },
      ],
      edgeCount: 4,
      truncated: false,
    });
    expect(triggerGraph([]).definition).toBe('flowchart LR');
  });

  it('matches a pipeline named deploy by its name first, and skips entries that are no text', () => {
    const graph = triggerGraph([{ name: 'deploy' }, { name: 'B', triggeredBy: ['deploy', 5 as unknown as string, null as unknown as string] }]);
    expect(graph.nodes).toEqual([
      { id: 'p0', kind: 'pipeline', name: 'deploy' },
      { id: 'p1', kind: 'pipeline', name: 'B' },
    ]);
    expect(graph.definition.split('\n').filter((line) => line.includes('-->'))).toEqual(['  p0 --> p1']);
  });

  it('draws at most 20 unknown sources', () => {
    const ghosts = Array.from({ length: 25 }, (_, i) => `ghost${String(i)}`);
    const graph = triggerGraph([{ name: 'A', triggeredBy: ghosts }]);
    expect(graph.nodes.filter((node) => node.kind === 'unknown').map((node) => node.name)).toEqual(ghosts.slice(0, 20));
    expect(graph.edgeCount).toBe(20);
  });

  it('is not truncated by a repeated edge once the limit is reached', () => {
    const names = Array.from({ length: 20 }, (_, i) => `P${String(i)}`);
    const ghosts = Array.from({ length: 20 }, (_, i) => `ghost${String(i)}`);
    // 20 × 19 edges among the P, then 20 from the ghosts: 400, then ghost0 again
    const graph = triggerGraph([...names.map((name) => ({ name, triggeredBy: names })), { name: 'Q', triggeredBy: [...ghosts, 'ghost0'] }]);
    expect([graph.edgeCount, graph.truncated]).toEqual([400, false]);
  });
});

describe('escapeLabel at its edges', () => {
  it('turns DEL, C1 controls and the line and paragraph separators into spaces', () => {
    expect(escapeLabel('a\u007fb\u009fc\u2028d\u2029e\u0080f')).toBe('a b c d e f');
  });

  it('keeps a label of exactly the length whole', () => {
    expect(escapeLabel('x'.repeat(MAX_LABEL_LENGTH))).toBe('x'.repeat(MAX_LABEL_LENGTH));
  });
});
