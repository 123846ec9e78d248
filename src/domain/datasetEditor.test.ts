import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  changedFields,
  checkAlias,
  checkDatasetForm,
  DATASET_FORM_FIELDS,
  DATASET_FORM_TEXTS,
  EMPTY_DATASET_FORM,
  formErrorsFromServer,
  formValuesOf,
  jsonObjectError,
  lineColumnOf,
  parseTags,
  rawDataRows,
} from './datasetEditor';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import { datasetWriteSchema, type Dataset } from './resources';

const VALID = { ...EMPTY_DATASET_FORM, title: 'Revenue', query: 'select 1' };

describe('form values of a dataset', () => {
  it('reads every field, tags as a comma list and the channel from the embedded source', () => {
    const dataset: Dataset = {
      id: 'd1',
      title: 'Revenue by month',
      alias: 'sales/revenue',
      description: '# Hi',
      tags: [{ name: 'sales' }, { name: 'kpi' }],
      query: 'select * from orders',
      visualisation: '{"chartjs-chart":{"chartType":"bar"}}',
      metadata: '{}',
      rawData: null,
      _embedded: { source: { id: 'c1', name: 'Sales' } },
    };
    expect(formValuesOf(dataset)).toEqual({
      title: 'Revenue by month',
      alias: 'sales/revenue',
      description: '# Hi',
      tags: 'sales, kpi',
      channelId: 'c1',
      query: 'select * from orders',
      rawData: '',
      visualisation: '{"chartjs-chart":{"chartType":"bar"}}',
      metadata: '{}',
    });
  });
  it('gives empty text for what a dataset lacks', () => {
    expect(formValuesOf({ id: 'd', title: 'T' })).toEqual({ ...EMPTY_DATASET_FORM, title: 'T' });
  });
  it('round-trips through the body: a saved dataset reads back as the same form', () => {
    const values = { ...VALID, alias: 'a/b', tags: 'x, y', description: 'd', channelId: 'c9', visualisation: '{"html-table":{}}', metadata: '{"name":"m"}' };
    const check = checkDatasetForm(values);
    if (!check.ok) throw new Error('expected ok');
    const { body } = check;
    const dataset: Dataset = {
      id: 'd',
      title: body.title,
      alias: body.alias ?? null,
      description: body.description ?? null,
      tags: (body.tags ?? []).map((name) => ({ name })),
      query: body.query ?? null,
      rawData: body.rawData ?? null,
      visualisation: body.visualisation ?? null,
      metadata: body.metadata ?? null,
      _embedded: { source: { id: body.channelId } },
    };
    expect(formValuesOf(dataset)).toEqual(values);
  });
});

describe('tags', () => {
  it('splits on commas and spaces, drops #, lowercases, keeps the first of repeats', () => {
    expect(parseTags('#Sales, kpi  KPI,,#sales\tnew\nyear')).toEqual(['sales', 'kpi', 'new', 'year']);
    expect(parseTags('  ,, # ## ')).toEqual([]);
  });
  it('never yields an empty tag, a #, whitespace, a comma, an upper-case letter or a repeat (hostile input)', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (list) => {
        const tags = parseTags(list);
        expect(new Set(tags).size).toBe(tags.length);
        for (const tag of tags) {
          expect(tag).not.toBe('');
          expect(tag).not.toMatch(/[#,\s]/u);
          expect(tag).toBe(tag.toLowerCase());
        }
      }),
    );
  });
});

describe('alias', () => {
  it('is optional and trimmed; slashes inside are allowed', () => {
    expect(checkAlias('   ')).toEqual({ ok: true, value: '' });
    expect(checkAlias('  sales/revenue/2024 ')).toEqual({ ok: true, value: 'sales/revenue/2024' });
  });
  it('refuses spaces, outer slashes, empty and dot parts, and more than 200 characters', () => {
    expect(checkAlias('a b')).toEqual({ ok: false, message: DATASET_FORM_TEXTS.aliasSpaces });
    expect(checkAlias('/a')).toEqual({ ok: false, message: DATASET_FORM_TEXTS.aliasSlash });
    expect(checkAlias('a/')).toEqual({ ok: false, message: DATASET_FORM_TEXTS.aliasSlash });
    expect(checkAlias('a//b')).toEqual({ ok: false, message: DATASET_FORM_TEXTS.aliasSegments });
    expect(checkAlias('a/../b')).toEqual({ ok: false, message: DATASET_FORM_TEXTS.aliasSegments });
    expect(checkAlias('a'.repeat(200))).toEqual({ ok: true, value: 'a'.repeat(200) });
    expect(checkAlias('a'.repeat(201))).toEqual({ ok: false, message: DATASET_FORM_TEXTS.aliasTooLong });
  });
  it('an accepted alias is trimmed, ≤ 200, without whitespace or outer slashes (hostile input)', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (raw) => {
        const result = checkAlias(raw);
        if (!result.ok) return;
        expect(result.value).toBe(raw.trim());
        expect(result.value.length).toBeLessThanOrEqual(200);
        expect(result.value).not.toMatch(/\s|^\/|\/$/u);
      }),
    );
  });
});

describe('JSON fields', () => {
  it('passes an object and empty text, refuses other JSON values', () => {
    expect(jsonObjectError('')).toBeNull();
    expect(jsonObjectError(' {"a": [1]} ')).toBeNull();
    for (const other of ['[]', '1', '"x"', 'null', 'true']) expect(jsonObjectError(other)).toBe(DATASET_FORM_TEXTS.notAnObject);
  });
  it('names the line and column of a parse error', () => {
    expect(jsonObjectError('{\n  "a": 1,\n  oops\n}')).toMatch(/^Invalid JSON at line 3, column 3: /u);
    expect(jsonObjectError('{"a": 1')).toMatch(/^Invalid JSON at line 1, column 8: /u);
  });
  it('line and column count from 1 and clamp the offset', () => {
    expect(lineColumnOf('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnOf('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumnOf('ab', 99)).toEqual({ line: 1, column: 3 });
    expect(lineColumnOf('ab', -5)).toEqual({ line: 1, column: 1 });
  });
  it('agrees with JSON.parse on any text and never throws (hostile input)', () => {
    fc.assert(
      fc.property(fc.oneof(hostileStringWithHuge, fc.json()), (source) => {
        const result = jsonObjectError(source);
        let parsed: unknown;
        let parses = true;
        try {
          parsed = JSON.parse(source);
        } catch {
          parses = false;
        }
        if (source.trim() === '') expect(result).toBeNull();
        else if (!parses) expect(result).toMatch(/^Invalid JSON at line \d+, column \d+: /u);
        else expect(result === null).toBe(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed));
      }),
    );
  });
});

describe('checking the form', () => {
  it('requires a title and a query or raw data', () => {
    expect(checkDatasetForm(EMPTY_DATASET_FORM)).toEqual({ ok: false, errors: { title: DATASET_FORM_TEXTS.titleRequired, query: DATASET_FORM_TEXTS.dataRequired } });
    expect(checkDatasetForm({ ...VALID, title: '   ' })).toMatchObject({ ok: false, errors: { title: DATASET_FORM_TEXTS.titleRequired } });
  });
  it('refuses a query and raw data together', () => {
    expect(checkDatasetForm({ ...VALID, rawData: '[]' })).toEqual({ ok: false, errors: { rawData: DATASET_FORM_TEXTS.dataBoth } });
  });
  it('puts JSON errors on their fields', () => {
    const check = checkDatasetForm({ ...VALID, visualisation: '{', metadata: '[1]' });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors.visualisation).toMatch(/^Invalid JSON at line 1, column 2/u);
    expect(check.errors.metadata).toBe(DATASET_FORM_TEXTS.notAnObject);
  });
  it('refuses long and many tags', () => {
    expect(checkDatasetForm({ ...VALID, tags: 'x'.repeat(101) })).toMatchObject({ errors: { tags: DATASET_FORM_TEXTS.tagTooLong } });
    expect(checkDatasetForm({ ...VALID, tags: Array.from({ length: 51 }, (_, i) => `t${String(i)}`).join(' ') })).toMatchObject({ errors: { tags: DATASET_FORM_TEXTS.tooManyTags } });
  });
  it('builds the body: trimmed title, nulls for what is empty, the other source cleared', () => {
    expect(checkDatasetForm({ ...VALID, title: '  Revenue ', tags: '#A b' })).toEqual({
      ok: true,
      body: { title: 'Revenue', alias: null, description: null, tags: ['a', 'b'], channelId: null, query: 'select 1', rawData: null, visualisation: null, metadata: null },
    });
    expect(checkDatasetForm({ ...EMPTY_DATASET_FORM, title: 'Diagram', rawData: 'graph TD; A-->B' })).toMatchObject({ ok: true, body: { query: null, rawData: 'graph TD; A-->B' } });
  });
  it('every body it accepts is one the server contract accepts (hostile input)', () => {
    const field = fc.oneof(hostileStringWithHuge, fc.json(), fc.constant(''));
    const values = fc.record(Object.fromEntries(DATASET_FORM_FIELDS.map((f) => [f, field])) as Record<(typeof DATASET_FORM_FIELDS)[number], typeof field>);
    fc.assert(
      fc.property(values, (form) => {
        const check = checkDatasetForm(form);
        if (check.ok) {
          const parsed = datasetWriteSchema.safeParse(check.body);
          // only the open-ended lengths of description/query/raw data are the server's to refuse
          if (!parsed.success) expect(parsed.error.issues.every((issue) => ['description', 'query', 'rawData', 'visualisation', 'metadata'].includes(String(issue.path[0])))).toBe(true);
        } else {
          for (const key of Object.keys(check.errors)) expect(DATASET_FORM_FIELDS).toContain(key);
        }
      }),
    );
  });
});

describe('unsaved changes (issue 38: Cancel asks before throwing work away)', () => {
  it('names the fields that differ from the loaded form, and none when typed back', () => {
    expect(changedFields(VALID, VALID)).toEqual([]);
    expect(changedFields({ ...VALID, title: 'Revenue ' }, VALID)).toEqual(['title']);
    expect(changedFields({ ...VALID, query: 'select 2', metadata: '{}' }, VALID)).toEqual(['query', 'metadata']);
  });
  it('is empty exactly when every field is as it was (hostile input)', () => {
    const field = fc.oneof(hostileString, fc.constant(''));
    const values = fc.record(Object.fromEntries(DATASET_FORM_FIELDS.map((f) => [f, field])) as Record<(typeof DATASET_FORM_FIELDS)[number], typeof field>);
    fc.assert(
      fc.property(values, values, (now, before) => {
        const changed = changedFields(now, before);
        expect(changed.length === 0).toBe(DATASET_FORM_FIELDS.every((f) => now[f] === before[f]));
        for (const f of changed) expect(now[f]).not.toBe(before[f]);
        expect(changedFields(now, now)).toEqual([]);
      }),
    );
  });
});

describe('server field errors', () => {
  it('puts known fields on the form and the rest in the banner', () => {
    expect(formErrorsFromServer({ title: 'Taken', 'tags.2': 'Too long', channel: 'No such channel', query: 'Only SELECT', colour: 'What?' })).toEqual({
      errors: { title: 'Taken', tags: 'Too long', channelId: 'No such channel', query: 'Only SELECT' },
      unplaced: ['What?'],
    });
  });
  it('keeps the first message for a field and survives prototype names', () => {
    const fields = Object.fromEntries([
      ['tags.0', 'first'],
      ['tags.1', 'second'],
      ['__proto__', 'proto'],
      ['constructor', 'ctor'],
    ]);
    expect(formErrorsFromServer(fields)).toEqual({ errors: { tags: 'first' }, unplaced: ['proto', 'ctor'] });
  });
  it('loses no message (hostile field names)', () => {
    fc.assert(
      fc.property(fc.dictionary(hostileString, hostileString), (fields) => {
        const { errors, unplaced } = formErrorsFromServer(fields);
        const placed = Object.values(errors).length;
        expect(placed + unplaced.length).toBeLessThanOrEqual(Object.keys(fields).length);
        expect(placed + unplaced.length).toBeGreaterThanOrEqual(Math.min(1, Object.keys(fields).length));
        for (const key of Object.keys(errors)) expect(DATASET_FORM_FIELDS).toContain(key);
      }),
    );
  });
});

describe('raw data rows', () => {
  it('reads a JSON list of objects and ignores everything else', () => {
    expect(rawDataRows('[{"a":1}, 2, [3], null, {"b":2}]')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(rawDataRows('')).toBeNull();
    expect(rawDataRows('graph TD; A-->B')).toBeNull();
    expect(rawDataRows('{"a":1}')).toBeNull();
  });
  it('never throws (hostile input)', () => {
    fc.assert(fc.property(hostileStringWithHuge, (raw) => void rawDataRows(raw)));
  });
});

describe('the dataset form, at its edges', () => {
  const VALID_FORM = { ...EMPTY_DATASET_FORM, title: 'Revenue', query: 'select 1' };

  it('a "." part of an alias cannot be addressed', () => {
    expect(checkAlias('a/./b')).toEqual({ ok: false, message: DATASET_FORM_TEXTS.aliasSegments });
    expect(checkAlias('./a')).toEqual({ ok: false, message: DATASET_FORM_TEXTS.aliasSegments });
  });

  it('blank JSON is not given; a parse error loses the engine\'s "in JSON at position"', () => {
    expect(jsonObjectError('  \n ')).toBeNull();
    expect(jsonObjectError('{"abcdefghij": 1 "b": 2}')).toBe("Invalid JSON at line 1, column 18: Expected ',' or '}' after property value");
  });

  it('the limits: 500 characters of title, 100 of a tag, 50 tags', () => {
    expect(checkDatasetForm({ ...VALID_FORM, title: 't'.repeat(500) }).ok).toBe(true);
    expect(checkDatasetForm({ ...VALID_FORM, title: 't'.repeat(501) })).toEqual({ ok: false, errors: { title: DATASET_FORM_TEXTS.titleTooLong } });
    expect(checkDatasetForm({ ...VALID_FORM, tags: 'g'.repeat(100) }).ok).toBe(true);
    expect(checkDatasetForm({ ...VALID_FORM, tags: 'g'.repeat(101) })).toEqual({ ok: false, errors: { tags: DATASET_FORM_TEXTS.tagTooLong } });
    const fifty = Array.from({ length: 50 }, (_, i) => `t${String(i)}`);
    expect(checkDatasetForm({ ...VALID_FORM, tags: fifty.join(' ') }).ok).toBe(true);
    expect(checkDatasetForm({ ...VALID_FORM, tags: [...fifty, 'one_more'].join(' ') })).toEqual({ ok: false, errors: { tags: DATASET_FORM_TEXTS.tooManyTags } });
  });

  it('a refused alias is reported; blank text is no query, no raw data and no description', () => {
    expect(checkDatasetForm({ ...VALID_FORM, alias: 'a b' })).toEqual({ ok: false, errors: { alias: DATASET_FORM_TEXTS.aliasSpaces } });
    const check = checkDatasetForm({ ...VALID_FORM, query: ' \n', rawData: '[]', description: '  ' });
    expect(check.ok && check.body).toMatchObject({ query: null, rawData: '[]', description: null });
    const swapped = checkDatasetForm({ ...VALID_FORM, rawData: '  ' });
    expect(swapped.ok && swapped.body).toMatchObject({ query: 'select 1', rawData: null });
  });

  it('raw data rows: blank or not a list is none', () => {
    expect(rawDataRows('  ')).toBeNull();
    expect(rawDataRows('{"a":1}')).toBeNull();
    expect(rawDataRows('[{"a":1},[2],null]')).toEqual([{ a: 1 }]);
  });
});
