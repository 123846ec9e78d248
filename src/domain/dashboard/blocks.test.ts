import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../hostile.fixture';
import { dashboardTree } from './allow';
import { BLOCK_MARKER, canMoveBlock, datasetBlock, moveBlock, parseBlocks, removeBlock, serialiseBlocks, setBlockText, textBlock, type DashboardBlock } from './blocks';

const chart = (alias: string) => datasetBlock('chart', alias);

describe('parseBlocks', () => {
  it('cuts dataset components on their own lines out of the text around them', () => {
    const source = '# Sales\n\nThe month in numbers.\n\n<DatasetChart alias="sales" showTable />\n<DatasetData alias="orders" />\n\nMore text\n';
    expect(parseBlocks(source)).toEqual([
      { kind: 'text', source: '# Sales\n\nThe month in numbers.' },
      { kind: 'dataset', view: 'chart', alias: 'sales', source: '<DatasetChart alias="sales" showTable />' },
      { kind: 'dataset', view: 'data', alias: 'orders', source: '<DatasetData alias="orders" />' },
      { kind: 'text', source: 'More text' },
    ]);
  });

  it('keeps inline components, components inside elements and unknown components in the text', () => {
    const inline = 'See <DatasetLink alias="a">this</DatasetLink> now';
    expect(parseBlocks(inline)).toEqual([{ kind: 'text', source: inline }]);
    const nested = '<div style={{ display: "flex" }}>\n<DatasetLink alias="a">Open</DatasetLink>\n\n<DownloadDataset alias="a" />\n</div>';
    expect(parseBlocks(nested)).toEqual([{ kind: 'text', source: nested }]);
    expect(parseBlocks('<Back />\n\n<DatasetChart />')).toEqual([{ kind: 'text', source: '<Back />\n\n<DatasetChart />' }]);
  });

  it('reads every dataset kind, multi-line elements, the dataset prop and a link with its text', () => {
    const source = '<DatasetChart\n  alias="a"\n  style={{ height: 300 }}\n/>\n<DatasetLink dataset="b">Open b</DatasetLink>\n<DownloadDataset alias="c" tooltip="CSV" />';
    expect(parseBlocks(source).map((b) => (b.kind === 'dataset' ? [b.view, b.alias] : b.kind))).toEqual([
      ['chart', 'a'],
      ['link', 'b'],
      ['download', 'c'],
    ]);
  });

  it('splits text at a marker, and only at a top-level one', () => {
    expect(parseBlocks(`one\n\n${BLOCK_MARKER}\n\ntwo`)).toEqual([textBlock('one'), textBlock('two')]);
    expect(parseBlocks(`<div>one ${BLOCK_MARKER} two</div>`)).toHaveLength(1);
    expect(parseBlocks(`${BLOCK_MARKER}\n\n${BLOCK_MARKER}`)).toEqual([]);
    expect(parseBlocks('')).toEqual([]);
  });
});

describe('serialiseBlocks', () => {
  it('writes blocks a blank line apart with a marker only between text blocks', () => {
    expect(serialiseBlocks([textBlock('# A'), textBlock('B'), chart('s'), datasetBlock('link', 'l', 'Sales <2024> {x}'), textBlock('C'), textBlock('  ')])).toBe(
      `# A\n\n${BLOCK_MARKER}\n\nB\n\n<DatasetChart alias="s" />\n\n<DatasetLink alias="l">Sales 2024 x</DatasetLink>\n\nC`,
    );
  });

  it('quotes an alias so the parser reads it back, whatever it holds', () => {
    for (const alias of ['plain', 'say "hi"', "it's", `both "and" it's \\ \n`]) {
      const [block] = parseBlocks(serialiseBlocks([chart(alias)]));
      expect(block).toMatchObject({ kind: 'dataset', alias });
    }
  });

  it('moves, removes and edits blocks', () => {
    const blocks: DashboardBlock[] = [textBlock('a'), chart('b'), textBlock('c')];
    expect(canMoveBlock(blocks, 0, -1)).toBe(false);
    expect(canMoveBlock(blocks, 2, 1)).toBe(false);
    expect(canMoveBlock(blocks, 1, 1)).toBe(true);
    expect(moveBlock(blocks, 1, -1)).toEqual([chart('b'), textBlock('a'), textBlock('c')]);
    expect(moveBlock(blocks, 0, -1)).toEqual(blocks);
    expect(removeBlock(blocks, 1)).toEqual([textBlock('a'), textBlock('c')]);
    expect(setBlockText(blocks, 2, 'd')).toEqual([textBlock('a'), chart('b'), textBlock('d')]);
    expect(setBlockText(blocks, 1, 'd')).toEqual(blocks);
  });
});

// ---- properties ----

const ALIASES = fc.constantFrom('sales', 'orders', 'a/b', 'say "x"', "it's");
const piece = fc.oneof(
  fc.constantFrom('# Title', 'text', '\n', '\n\n', '  ', '<div>', '</div>', '<p>x</p>', BLOCK_MARKER, '{/* note */}', '<!-- c -->', '<Back />', '{', '}', '<', '"', "'", '<b', '>', '/>', '`'),
  ALIASES.map((alias) => `<DatasetChart alias="${alias.replace(/"/g, '')}" />`),
  ALIASES.map((alias) => `<DatasetLink alias="${alias.replace(/"/g, '')}">go</DatasetLink>`),
  fc.string({ maxLength: 8 }),
);
const content = fc.array(piece, { maxLength: 20 }).map((parts) => parts.join(''));
const blockArb: fc.Arbitrary<DashboardBlock> = fc.oneof(
  fc.tuple(fc.constantFrom('chart', 'data', 'link', 'download' as const), fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 })).map(([view, alias, title]) => datasetBlock(view, alias, title)),
  fc.constantFrom('# Heading', 'Some *markdown*', '- a\n- b', '<p>html</p>', 'text with <DatasetLink alias="x">inline</DatasetLink> link').map((text) => textBlock(text)),
);

/** What matters of content: its characters other than whitespace and block markers. */
const essence = (text: string) => text.replace(/\s+/g, '').split('{/*block*/}').join('');

describe('dashboard blocks (properties)', () => {
  it('serialise(parse(x)) keeps every character of x but whitespace and markers, and parsing it again gives the same blocks', () => {
    fc.assert(
      fc.property(content, (source) => {
        const blocks = parseBlocks(source);
        const written = serialiseBlocks(blocks);
        expect(essence(written)).toBe(essence(source));
        expect(parseBlocks(written)).toEqual(blocks);
        expect(serialiseBlocks(parseBlocks(written))).toBe(written);
      }),
      { numRuns: 400 },
    );
  });

  it('renders the same allowed tree, apart from text whitespace, after the round trip', () => {
    const shape = (source: string) => JSON.stringify(dashboardTree(source)).replace(/\\[nt]|\s/g, '');
    fc.assert(
      fc.property(fc.array(blockArb, { maxLength: 6 }), (blocks) => {
        const written = serialiseBlocks(blocks);
        expect(shape(serialiseBlocks(parseBlocks(written)))).toBe(shape(written));
      }),
      { numRuns: 200 },
    );
  });

  it('reads back the blocks it wrote (dataset kinds and aliases in order)', () => {
    fc.assert(
      fc.property(fc.array(blockArb, { maxLength: 8 }), (blocks) => {
        const back = parseBlocks(serialiseBlocks(blocks));
        const datasets = (list: readonly DashboardBlock[]) => list.flatMap((b) => (b.kind === 'dataset' ? [[b.view, b.alias]] : []));
        expect(datasets(back)).toEqual(datasets(blocks));
        expect(back.filter((b) => b.kind === 'text').map((b) => b.source)).toEqual(blocks.filter((b) => b.kind === 'text').map((b) => b.source));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on hostile input, and every move or removal keeps the blocks', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 400 }), hostileStringWithHuge, content), fc.integer({ min: -2, max: 12 }), fc.constantFrom(-1 as const, 1 as const), (source, index, by) => {
        const blocks = parseBlocks(source);
        expect(() => serialiseBlocks(blocks)).not.toThrow();
        const moved = moveBlock(blocks, index, by);
        expect([...moved].sort((a, b) => a.source.localeCompare(b.source))).toEqual([...blocks].sort((a, b) => a.source.localeCompare(b.source)));
        expect(removeBlock(blocks, index).length).toBe(index >= 0 && index < blocks.length ? blocks.length - 1 : blocks.length);
      }),
      { numRuns: 300 },
    );
  });
});

// ---- by hand: the edges the properties pass over ----

describe('dataset blocks and text blocks (by hand)', () => {
  it('writes a new dataset block of each kind; only a link shows a title, cleaned to plain inline text', () => {
    expect(datasetBlock('chart', 'a', 'Title')).toStrictEqual({ kind: 'dataset', view: 'chart', alias: 'a', source: '<DatasetChart alias="a" />' });
    expect(datasetBlock('data', 'a')).toStrictEqual({ kind: 'dataset', view: 'data', alias: 'a', source: '<DatasetData alias="a" />' });
    expect(datasetBlock('download', 'a')).toStrictEqual({ kind: 'dataset', view: 'download', alias: 'a', source: '<DownloadDataset alias="a" />' });
    expect(datasetBlock('link', 'a')).toStrictEqual({ kind: 'dataset', view: 'link', alias: 'a', source: '<DatasetLink alias="a" />' });
    expect(datasetBlock('link', 'a', ' <>{} \r\n\u2028\u2029 ')).toStrictEqual({ kind: 'dataset', view: 'link', alias: 'a', source: '<DatasetLink alias="a" />' });
    expect(datasetBlock('link', 'a', '  Sales\r\n<2024>\t {x}\u2028y\u2029z ')).toStrictEqual({ kind: 'dataset', view: 'link', alias: 'a', source: '<DatasetLink alias="a">Sales 2024 x y z</DatasetLink>' });
    expect(textBlock()).toStrictEqual({ kind: 'text', source: '## New section\n\nWrite **markdown** here.' });
  });

  it('quotes an alias with double quotes, else single quotes, else a braced string with escapes', () => {
    expect(datasetBlock('chart', "it's").source).toBe(`<DatasetChart alias="it's" />`);
    expect(datasetBlock('chart', 'say "hi"').source).toBe(`<DatasetChart alias='say "hi"' />`);
    const both = 'a"b\'c\\d\n\u0001\u001f\u007f\u0085\u009f\u00a0\u2028\u2029é';
    expect(datasetBlock('chart', both).source).toBe(String.raw`<DatasetChart alias={"a\"b'c\\d\u000a\u0001\u001f\u007f\u0085\u009f` + '\u00a0' + String.raw`\u2028\u2029é"} />`);
    const [block] = parseBlocks(datasetBlock('chart', both).source);
    expect(block).toStrictEqual({ kind: 'dataset', view: 'chart', alias: both, source: datasetBlock('chart', both).source });
  });

  it('reads a marker with any spacing, and only a marker, as a boundary, even mid-line', () => {
    expect(parseBlocks('one\n{/*block*/}\ntwo')).toStrictEqual([textBlock('one'), textBlock('two')]);
    expect(parseBlocks('one {/*   block \n */} two')).toStrictEqual([textBlock('one'), textBlock(' two')]);
    expect(parseBlocks('one\n{/* blocks */}\ntwo')).toStrictEqual([textBlock('one\n{/* blocks */}\ntwo')]);
    expect(parseBlocks('one\n{/* a block */}\ntwo')).toStrictEqual([textBlock('one\n{/* a block */}\ntwo')]);
    expect(parseBlocks('one\n<!-- block -->\ntwo')).toStrictEqual([textBlock('one\n<!-- block -->\ntwo')]);
    expect(parseBlocks(`${BLOCK_MARKER}<DatasetChart alias="a" />${BLOCK_MARKER}x`)).toStrictEqual([chart('a'), textBlock('x')]);
  });

  it('takes a dataset element only on its own line(s), with spaces around it allowed', () => {
    expect(parseBlocks('  <DatasetChart alias="a" />  \nx')).toStrictEqual([chart('a'), textBlock('x')]);
    expect(parseBlocks('x\n\t<DatasetChart alias="a" />')).toStrictEqual([textBlock('x'), chart('a')]);
    expect(parseBlocks('x <DatasetChart alias="a" />\ny')).toStrictEqual([textBlock('x <DatasetChart alias="a" />\ny')]);
    expect(parseBlocks('x\n<DatasetChart alias="a" /> y')).toStrictEqual([textBlock('x\n<DatasetChart alias="a" /> y')]);
    expect(parseBlocks('<DatasetChart alias="a" /><DatasetChart alias="b" />')).toStrictEqual([textBlock('<DatasetChart alias="a" /><DatasetChart alias="b" />')]);
  });

  it('needs a string alias (alias before dataset) on a known dataset component', () => {
    expect(parseBlocks('<DatasetChart alias={1} />')).toStrictEqual([textBlock('<DatasetChart alias={1} />')]);
    expect(parseBlocks('<DatasetChart alias="a" dataset="d" />')).toStrictEqual([{ kind: 'dataset', view: 'chart', alias: 'a', source: '<DatasetChart alias="a" dataset="d" />' }]);
    expect(parseBlocks('<DatasetData dataset="d" />')).toStrictEqual([{ kind: 'dataset', view: 'data', alias: 'd', source: '<DatasetData dataset="d" />' }]);
    expect(parseBlocks('<datasetchart alias="a" />')).toStrictEqual([textBlock('<datasetchart alias="a" />')]);
    expect(parseBlocks('<Back alias="a" />')).toStrictEqual([textBlock('<Back alias="a" />')]);
  });

  it('drops the blank lines before a text block and the whitespace after it, but not its indentation', () => {
    expect(parseBlocks('\r\n \t\r\n\n  indented  \n\n')).toStrictEqual([textBlock('  indented')]);
    expect(parseBlocks(' \n \n')).toStrictEqual([]);
    expect(serialiseBlocks([textBlock('\n\n  a  \n'), textBlock(' \n '), chart('b'), chart('c'), textBlock('d')])).toBe('  a\n\n<DatasetChart alias="b" />\n\n<DatasetChart alias="c" />\n\nd');
    expect(serialiseBlocks([])).toBe('');
    // a dataset block's source is kept verbatim
    expect(serialiseBlocks([textBlock('a'), { kind: 'dataset', view: 'chart', alias: 'b', source: '\n\n<DatasetChart alias="b" />  ' }])).toBe('a\n\n\n\n<DatasetChart alias="b" />  ');
  });

  it('moves a block only within the list and by a whole position', () => {
    const blocks: DashboardBlock[] = [textBlock('a'), chart('b'), textBlock('c')];
    expect([canMoveBlock(blocks, 0, 1), canMoveBlock(blocks, 2, -1), canMoveBlock(blocks, 1, -1)]).toEqual([true, true, true]);
    expect([canMoveBlock(blocks, 3, -1), canMoveBlock(blocks, -1, 1), canMoveBlock(blocks, 0.5, 1), canMoveBlock(blocks, Number.NaN, 1), canMoveBlock([], 0, 1)]).toEqual([false, false, false, false, false]);
    expect(moveBlock(blocks, 1, 1)).toStrictEqual([textBlock('a'), textBlock('c'), chart('b')]);
    expect(moveBlock(blocks, 0, 1)).toStrictEqual([chart('b'), textBlock('a'), textBlock('c')]);
    expect(moveBlock(blocks, 3, -1)).toStrictEqual(blocks);
    expect(moveBlock(blocks, 3, -1)).not.toBe(blocks);
    expect(removeBlock(blocks, 5)).toStrictEqual(blocks);
    expect(setBlockText(blocks, 0, 'z')).toStrictEqual([textBlock('z'), chart('b'), textBlock('c')]);
  });
});
