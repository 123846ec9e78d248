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
