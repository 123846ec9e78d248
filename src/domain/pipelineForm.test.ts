import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import {
  actionsModeOf,
  canAutoSave,
  defaultActionsLine,
  defaultActionsOf,
  defaultPipelineName,
  keepCurrentProperties,
  missingLinkMessage,
  NO_DEFAULT_ACTIONS,
  newComponentRef,
  nonNegativeInt,
  saveRelOf,
  savesAsDraft,
  serverErrorsOf,
  settingField,
  canSaveName,
  triggerOptions,
} from './pipelineForm';

const link = { href: '/x' };
const demo = { ref: 'extractors/tap-demo--builtin', name: 'tap-demo', pluginType: 'EXTRACTOR', label: 'Demo data' };
const store = { ref: 'target-store', name: 'target-store', pluginType: 'LOADER' };

describe('actions mode and defaults', () => {
  it('is script, custom or default in that order', () => {
    expect(actionsModeOf({ script: 'echo hi', actions: ['a'] })).toBe('script');
    expect(actionsModeOf({ script: '  ', actions: ['a'] })).toBe('custom');
    expect(actionsModeOf({})).toBe('default');
  });
  it('default actions are extractors then loaders, plus dbt', () => {
    expect(defaultActionsOf([store, demo, { ref: 'dbt', name: 'dbt', pluginType: 'TRANSFORMER' }])).toEqual(['tap-demo', 'target-store', 'dbt:deps', 'dbt:run']);
  });
  it("shows the default actions in order, and before any component what Default will run, not the job's echo fallback (issue 38)", () => {
    expect(defaultActionsLine([store, demo])).toBe('tap-demo → target-store');
    expect(defaultActionsLine([])).toBe(NO_DEFAULT_ACTIONS);
    expect(defaultActionsLine([{ ref: 'dbt', name: 'dbt', pluginType: 'TRANSFORMER' }])).toBe('dbt:deps → dbt:run');
    expect(NO_DEFAULT_ACTIONS).not.toMatch(/echo|hello/);
  });
  it('names the pipeline after the first plugin', () => {
    expect(defaultPipelineName([demo, store])).toBe('Demo data');
    expect(defaultPipelineName([store])).toBe('target-store');
    expect(defaultPipelineName([])).toBe('');
    // no names taken unless given: even a plugin labelled like a placeholder keeps its label
    expect(defaultPipelineName([{ ...demo, label: 'Stryker was here' }])).toBe('Stryker was here');
  });
  it("numbers the default name on past the workspace's other pipelines, case aside (issue 38)", () => {
    expect(defaultPipelineName([demo, store], ['demo DATA', 'Demo data 2', 'Other'])).toBe('Demo data 3');
    expect(defaultPipelineName([store], ['Demo data'])).toBe('target-store');
    fc.assert(
      fc.property(fc.array(fc.oneof(hostileString, fc.constantFrom('Demo data', 'demo data 2', 'DEMO DATA 3')), { maxLength: 12 }), (taken) => {
        const name = defaultPipelineName([demo, store], taken);
        expect(taken.map((t) => t.trim().toLowerCase())).not.toContain(name.trim().toLowerCase());
        expect(name.startsWith('Demo data')).toBe(true);
      }),
    );
  });
});

describe('keepCurrentProperties', () => {
  it('drops settings of components no longer in the pipeline', () => {
    expect(keepCurrentProperties({ 'tap-demo.rows': 5, 'tap-old.x': 1, 'tap-demox.y': 2 }, ['tap-demo'])).toEqual({ 'tap-demo.rows': 5 });
    // a component without a name owns no key, not even one that starts with a dot
    expect(keepCurrentProperties({ '.rows': 5, 'tap-demo.rows': 6 }, ['', 'tap-demo'])).toEqual({ 'tap-demo.rows': 6 });
  });
  it('keeps only keys with a current prefix, whatever the keys', () => {
    fc.assert(
      fc.property(fc.dictionary(hostileString, fc.jsonValue()), fc.array(hostileString, { maxLength: 4 }), (properties, names) => {
        const kept = keepCurrentProperties(properties, names);
        for (const key of Object.keys(kept)) expect(names.some((n) => n !== '' && key.startsWith(`${n}.`))).toBe(true);
      }),
    );
  });
});

describe('saving links (spec §4)', () => {
  it('draft link for drafts, then create, then update', () => {
    expect(saveRelOf({ _links: { 'draft pipeline': link, 'create pipeline': link } }, true)).toEqual({ ok: true, rel: 'draft pipeline' });
    expect(saveRelOf({ _links: { 'draft pipeline': link, 'create pipeline': link, 'update pipeline': link } }, false)).toEqual({ ok: true, rel: 'create pipeline' });
    expect(saveRelOf({ _links: { 'update pipeline': link } }, false)).toEqual({ ok: true, rel: 'update pipeline' });
    expect(saveRelOf({ _links: {} }, true)).toEqual({ ok: false, message: "Entity 'pipeline' cannot be drafted" });
    expect(saveRelOf({}, false)).toEqual({ ok: false, message: "Entity 'pipeline' cannot be updated" });
    expect(missingLinkMessage('pipeline', 'read')).toBe("Entity 'pipeline' cannot be read");
  });
  it('Save is non-draft, Save as draft and auto-save are drafts, the validate save keeps the status', () => {
    expect(savesAsDraft('save', true)).toBe(false);
    expect(savesAsDraft('draft', false)).toBe(true);
    expect(savesAsDraft('auto', false)).toBe(true);
    expect(savesAsDraft('validate', true)).toBe(true);
    expect(savesAsDraft('validate', false)).toBe(false);
  });
  it('auto-saves only with the draft and dataplugins links', () => {
    expect(canAutoSave({ _links: { 'draft pipeline': link, dataplugins: link } })).toBe(true);
    expect(canAutoSave({ _links: { 'draft pipeline': link } })).toBe(false);
  });
});

describe('serverErrorsOf', () => {
  const errors = [
    { field: 'name', objectName: 'pipeline', defaultMessage: 'must not be blank' },
    { field: 'properties.tap-demo.rows', objectName: 'pipeline', defaultMessage: 'rows is required' },
  ];
  it('reads an array or an object with message and errors', () => {
    expect(serverErrorsOf(errors)).toEqual({ banner: 'must not be blank', fields: { name: 'must not be blank', 'properties.tap-demo.rows': 'rows is required' } });
    expect(serverErrorsOf({ message: 'Validation failed', errors })).toMatchObject({ banner: 'Validation failed' });
    expect(serverErrorsOf('boom')).toEqual({ banner: null, fields: {} });
    // an entry without a message names no field, so a later one for the same field is kept
    expect(serverErrorsOf([{ field: 'name' }, { field: 'name', defaultMessage: 'is taken' }])).toEqual({ banner: 'is taken', fields: { name: 'is taken' } });
  });
  it('never throws and only keeps text messages', () => {
    fc.assert(
      fc.property(fc.anything(), (body) => {
        const result = serverErrorsOf(body);
        for (const value of Object.values(result.fields)) expect(typeof value).toBe('string');
      }),
    );
  });
});

describe('triggers, numbers and refs', () => {
  it('never offers the pipeline itself and disables empty names', () => {
    expect(triggerOptions([{ id: '1', name: 'A' }, { id: '2', name: 'B' }, { id: '3', name: '' }], { id: '1', name: 'A' })).toEqual([
      { value: 'B', disabled: false },
      { value: '', disabled: true },
    ]);
  });
  it('reads timeout and retries as whole numbers from 0', () => {
    expect(nonNegativeInt('')).toEqual({ ok: true, value: null });
    expect(nonNegativeInt('0')).toEqual({ ok: true, value: 0 });
    expect(nonNegativeInt('-1').ok).toBe(false);
    expect(nonNegativeInt('1.5').ok).toBe(false);
    fc.assert(fc.property(hostileString, (text) => {
      const result = nonNegativeInt(text);
      if (result.ok && result.value !== null) expect(result.value).toBeGreaterThanOrEqual(0);
    }));
  });
  it('names a new component by its plugin reference', () => {
    expect(newComponentRef({ pluginType: 'EXTRACTOR', name: 'tap-demo', variant: 'builtin' })).toBe('extractors/tap-demo--builtin');
    expect(newComponentRef({ pluginType: 'LOADER', name: 'target-store' })).toBe('loaders/target-store');
  });
});

describe('pipeline form: the edges mutation testing found (by hand)', () => {
  it('is custom only with at least one action', () => {
    expect(actionsModeOf({ actions: [] })).toBe('default');
    expect(actionsModeOf({ script: null, actions: ['tap-demo'] })).toBe('custom');
  });

  it('names after the label only when it has text, and numbers past names trimmed and case aside', () => {
    expect(defaultPipelineName([{ ...demo, label: '  ' }])).toBe('tap-demo');
    expect(defaultPipelineName([{ ...demo, label: 'Stryker was here!' }])).toBe('Stryker was here!');
    expect(defaultPipelineName([{ ...demo, label: null }])).toBe('tap-demo');
    expect(defaultPipelineName([demo], ['  demo data  '])).toBe('Demo data 2');
    expect(defaultPipelineName([{ ...demo, label: 'Demo data ' }], ['demo data'])).toBe('Demo data  2');
  });

  it('reads field errors by their text, keeping the first message per field', () => {
    expect(serverErrorsOf({ errors: [{ field: 'name', defaultMessage: 'first' }, { field: 'name', defaultMessage: 'second' }, { field: '  ', defaultMessage: 'no field' }, { field: 'x', defaultMessage: '  ' }, null, 'text'] })).toEqual({
      banner: 'first',
      fields: { name: 'first' },
    });
    expect(serverErrorsOf({ message: '  ', errors: [{ defaultMessage: 'only' }] })).toEqual({ banner: 'only', fields: {} });
    expect(serverErrorsOf({ message: 'Stryker was here!' })).toEqual({ banner: 'Stryker was here!', fields: {} });
    expect(serverErrorsOf({ errors: 'not a list' })).toEqual({ banner: null, fields: {} });
    expect(serverErrorsOf(null)).toEqual({ banner: null, fields: {} });
    expect(serverErrorsOf([{ field: 7, defaultMessage: 'm' }])).toEqual({ banner: 'm', fields: {} });
  });

  it('offers each other name once, matching itself by id or by name', () => {
    const others = [{ id: '2', name: 'B' }, { id: '3', name: 'B' }, { id: '4', name: 'A' }, { id: '5' }, { id: '6', name: ' ' }, { id: '7', name: '' }];
    expect(triggerOptions(others, { id: '1', name: 'A' })).toEqual([
      { value: 'B', disabled: false },
      { value: '', disabled: true },
      { value: ' ', disabled: true },
    ]);
    // without an id, only the name says which pipeline is this one; an empty name is never itself
    expect(triggerOptions([{ id: '1', name: 'A' }, { id: '2', name: '' }], { name: '' })).toEqual([
      { value: 'A', disabled: false },
      { value: '', disabled: true },
    ]);
    expect(triggerOptions([{ id: '1', name: 'A' }], { id: null, name: 'B' })).toEqual([{ value: 'A', disabled: false }]);
    expect(triggerOptions([{ id: '1', name: 'A' }], { id: '1', name: 'Z' })).toEqual([]);
    // neither with an id: only the name decides
    expect(triggerOptions([{ name: 'A' }], { name: 'B' })).toEqual([{ value: 'A', disabled: false }]);
    expect(triggerOptions([{ name: 'Stryker was here!' }], { name: 'Stryker was here!' })).toEqual([]);
  });

  it('reads whole numbers up to nine digits, trimmed', () => {
    expect(nonNegativeInt(' 12 ')).toEqual({ ok: true, value: 12 });
    expect(nonNegativeInt('999999999')).toEqual({ ok: true, value: 999_999_999 });
    expect(nonNegativeInt('1000000000').ok).toBe(false);
    expect(nonNegativeInt('   ')).toEqual({ ok: true, value: null });
  });

  it('names fields, saveable names and refs of every plugin type', () => {
    expect(settingField('tap-demo', 'rows')).toBe('properties.tap-demo.rows');
    expect(canSaveName(' x ')).toBe(true);
    expect(canSaveName('  ')).toBe(false);
    expect(newComponentRef({ pluginType: 'Widget', name: 'w' })).toBe('widgets/w');
    expect(newComponentRef({ pluginType: 'UTILITY', name: 'u', variant: '' })).toBe('utilities/u');
    expect(newComponentRef({ pluginType: 'FILE', name: 'f', variant: null })).toBe('files/f');
  });
});
