import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freshnessLine, linkHashtags, relativeTime } from './datasetText';
import { hostileStringWithHuge } from './hostile.fixture';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('relativeTime', () => {
  it('says how long ago', () => {
    expect(relativeTime('2026-11-22T09:00:00Z', NOW)).toBe('3 hours ago');
    expect(relativeTime('2026-11-21T12:00:00Z', NOW)).toBe('yesterday');
    expect(relativeTime('2026-11-22T12:00:00Z', NOW)).toBe('now');
    expect(relativeTime('nonsense', NOW)).toBeUndefined();
    expect(relativeTime(null, NOW)).toBeUndefined();
  });
  it('never throws on any text', () => {
    fc.assert(fc.property(hostileStringWithHuge, (text) => void relativeTime(text, NOW)));
  });
});

describe('freshnessLine', () => {
  const base = { tables: ['sales'], refreshed: '2026-11-22T11:00:00Z', pipelineId: 'p1', pipelineName: 'sales-pipeline', jobId: 'j1', failed: false };
  it('links the run for a caller who may see jobs', () => {
    expect(freshnessLine(base, NOW, true)).toEqual({ refreshed: { when: '1 hour ago', pipeline: 'sales-pipeline', run: { pipeline: 'p1', job: 'j1' } } });
    expect(freshnessLine(base, NOW, false)).toEqual({ refreshed: { when: '1 hour ago', pipeline: 'sales-pipeline' } });
  });
  it('says when the last run failed and which tables are missing', () => {
    const line = freshnessLine({ ...base, refreshed: null, failed: true, missingTables: ['a', ' ', 'b'] }, NOW, true);
    expect(line).toEqual({ failed: 'The last run of sales-pipeline failed', missing: 'Not loaded yet: a, b' });
  });
  it('nothing without freshness', () => {
    expect(freshnessLine(undefined, NOW, true)).toEqual({});
  });
});

describe('linkHashtags', () => {
  const href = (tag: string) => `/l/w/explore?search=%22tag%3A${tag}%22`;
  it('links #tags, not headings, anchors or code', () => {
    const text = '# Heading\nSee #sales and (#q1_2024).\nurl page#anchor `#code`\n```\n#fenced\n```';
    expect(linkHashtags(text, href)).toBe(
      '# Heading\nSee [#sales](</l/w/explore?search=%22tag%3Asales%22>) and ([#q1_2024](</l/w/explore?search=%22tag%3Aq1_2024%22>)).\nurl page#anchor `#code`\n```\n#fenced\n```',
    );
  });
  it('an href cannot break out of its angle brackets', () => {
    expect(linkHashtags('#x', () => '/a b>c<d')).toBe('[#x](</a%20b%3Ec%3Cd>)');
  });
  it("given the dataset's tags, links only those: a file's #name stays text (issue 38)", () => {
    expect(linkHashtags('Targets in the #sales_targets file, see #Sales.', href, ['sales', 'targets'])).toBe(
      'Targets in the #sales_targets file, see [#Sales](</l/w/explore?search=%22tag%3ASales%22>).',
    );
    expect(linkHashtags('#x', href, [])).toBe('#x');
  });
  it('given tags, links a #word exactly when it names one of them (hostile input)', () => {
    const word = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/u);
    fc.assert(
      fc.property(hostileStringWithHuge, word, fc.array(word, { maxLength: 3 }), (text, tag, tags) => {
        // on a line of its own, outside any code the hostile text may open
        const out = linkHashtags(`${text}\n\n#${tag} end`.replace(/^[^]*\n\n/u, (lead) => lead.replace(/[`~]/gu, '')), href, tags);
        expect(out.endsWith(tags.includes(tag) ? `\n[#${tag}](<${href(tag)}>) end` : `\n#${tag} end`)).toBe(true);
        // with no tags nothing is linked at all
        expect(linkHashtags(text, href, [])).toBe(text);
      }),
    );
  });
  it('text without # comes back unchanged, and nothing throws', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        const out = linkHashtags(text, href);
        if (!text.includes('#')) expect(out).toBe(text);
      }),
    );
  });
});

describe('freshnessLine and linkHashtags, at their edges', () => {
  const NOW_AT = Date.parse('2026-11-22T12:00:00Z');
  it('no freshness is an empty line; a blank or missing pipeline name reads "a pipeline"', () => {
    expect(freshnessLine(null, NOW_AT, true)).toEqual({});
    expect(freshnessLine(undefined, NOW_AT, true)).toEqual({});
    expect(freshnessLine({ tables: [], failed: true, pipelineName: '  ' }, NOW_AT, false)).toEqual({ failed: 'The last run of a pipeline failed' });
    expect(freshnessLine({ tables: [], failed: true }, NOW_AT, false)).toEqual({ failed: 'The last run of a pipeline failed' });
  });

  it('a fence starts a line (up to three spaces before it); code is indented four spaces or a tab', () => {
    const link = (tag: string) => `[#${tag}](</t/${tag}>)`;
    const hrefOf = (tag: string) => `/t/${tag}`;
    expect(linkHashtags('a ```\n#one', hrefOf)).toBe(`a \`\`\`\n${link('one')}`);
    expect(linkHashtags('x```\n#one', hrefOf)).toBe(`x\`\`\`\n${link('one')}`);
    expect(linkHashtags('   ```\n#one\n```\n#two', hrefOf)).toBe(`   \`\`\`\n#one\n\`\`\`\n${link('two')}`);
    expect(linkHashtags('word    #one', hrefOf)).toBe(`word    ${link('one')}`);
    expect(linkHashtags(' #one', hrefOf)).toBe(` ${link('one')}`);
    expect(linkHashtags('    #one\n\t#two', hrefOf)).toBe('    #one\n\t#two');
  });
});
