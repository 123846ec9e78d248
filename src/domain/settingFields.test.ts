import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import {
  arrayItems,
  editorOf,
  fileValue,
  fromDateTimeLocal,
  integerValue,
  isAzureKeyVault,
  isSettingRequired,
  objectText,
  objectValue,
  SETTING_TEXTS,
  settingMessages,
  propertyKey,
  toDateTimeLocal,
  withArrayItem,
} from './settingFields';

describe('editorOf', () => {
  it('maps every kind but OAUTH to an editor, masks sensitive text, unknown kinds are text', () => {
    expect(editorOf({ kind: 'STRING' })).toBe('text');
    expect(editorOf({ kind: 'STRING', sensitive: true })).toBe('password');
    expect(editorOf({ kind: 'PASSWORD' })).toBe('password');
    expect(editorOf({ kind: 'INTEGER' })).toBe('integer');
    expect(editorOf({ kind: 'BOOLEAN' })).toBe('boolean');
    expect(editorOf({ kind: 'DATE_ISO8601' })).toBe('datetime');
    expect(editorOf({ kind: 'OPTIONS' })).toBe('options');
    expect(editorOf({ kind: 'ARRAY' })).toBe('array');
    expect(editorOf({ kind: 'OBJECT' })).toBe('object');
    expect(editorOf({ kind: 'FILE' })).toBe('file');
    expect(editorOf({ kind: 'EMAIL' })).toBe('email');
    expect(editorOf({ kind: 'HIDDEN' })).toBe('hidden');
    expect(editorOf({ kind: 'STRING', hidden: true })).toBe('hidden');
    expect(editorOf({ kind: 'OAUTH' })).toBe('oauth');
    expect(editorOf({ kind: 'constructor' })).toBe('text');
    expect(editorOf({})).toBe('text');
  });
});

describe('isSettingRequired (spec §3 and §5)', () => {
  it('is required when flagged (empty text counts) unless a value or placeholder exists or required is false', () => {
    expect(isSettingRequired({})).toBe(false);
    expect(isSettingRequired({ required: true })).toBe(true);
    expect(isSettingRequired({ required: '' })).toBe(true);
    expect(isSettingRequired({ required: 'false' })).toBe(false);
    expect(isSettingRequired({ required: false })).toBe(false);
    expect(isSettingRequired({ required: true, value: 'x' })).toBe(false);
    expect(isSettingRequired({ required: '', placeholder: 'e.g. 10' })).toBe(false);
    expect(isSettingRequired({ required: true, value: 0 })).toBe(false);
  });
  it('never throws on hostile attributes', () => {
    fc.assert(fc.property(hostileString, fc.anything(), (required, value) => void isSettingRequired({ required, value })));
  });
});

describe('setting texts', () => {
  it('has the spec texts word for word', () => {
    expect(SETTING_TEXTS.arrayOverride).toBe('Adding a value will override all inherited values');
    expect(SETTING_TEXTS.azureKeyVault).toBe('This setting is referencing a secret from the configured Azure key vault');
    expect(isAzureKeyVault({ encoding: 'AZURE_KEY_VAULT_SECRET' })).toBe(true);
    expect(isAzureKeyVault({ encoding: 'BASE64' })).toBe(false);
  });
});

describe('value conversions', () => {
  it('round-trips dates through the local date-time input', () => {
    expect(toDateTimeLocal('2024-01-02T03:04:00Z')).toBe('2024-01-02T03:04');
    expect(fromDateTimeLocal('2024-01-02T03:04')).toBe('2024-01-02T03:04:00.000Z');
    expect(toDateTimeLocal('not a date')).toBe('');
    fc.assert(fc.property(hostileStringWithHuge, (text) => void fromDateTimeLocal(toDateTimeLocal(text))), { numRuns: 200 });
  });
  it('removes a cleared array item and replaces an edited one', () => {
    expect(withArrayItem(['a', 'b', 'c'], 1, '')).toEqual(['a', 'c']);
    expect(withArrayItem(['a', 'b'], 0, 'z')).toEqual(['z', 'b']);
    expect(arrayItems('x')).toEqual(['x']);
    expect(arrayItems([1, 'y'])).toEqual(['1', 'y']);
    fc.assert(
      fc.property(fc.array(hostileString), fc.nat(20), (items, i) => {
        expect(withArrayItem(items, i, '').length).toBe(i < items.length ? items.length - 1 : items.length);
      }),
    );
  });
  it('keeps object text that is not an object as text', () => {
    expect(objectValue('{"a":1}')).toEqual({ a: 1 });
    expect(objectValue('[1]')).toBe('[1]');
    expect(objectText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(integerValue(' 42 ')).toBe(42);
    expect(integerValue('4x')).toBe('4x');
    fc.assert(fc.property(hostileStringWithHuge, (text) => void objectValue(text)), { numRuns: 200 });
  });
});

describe('settingFields: what the first tests left out (by hand)', () => {
  it('has every text word for word, and the property key', () => {
    expect(SETTING_TEXTS).toEqual({
      arrayOverride: 'Adding a value will override all inherited values',
      azureKeyVault: 'This setting is referencing a secret from the configured Azure key vault',
      oauthRequired: 'Data source must be authorized',
      required: 'This setting is required',
    });
    expect(propertyKey('tap-x', 'a.b')).toBe('tap-x.a.b');
  });

  it('masks sensitive email, reads kinds in any case, and leaves hidden only to the flag', () => {
    expect(editorOf({ kind: 'EMAIL', sensitive: true })).toBe('password');
    expect(editorOf({ kind: 'INTEGER', sensitive: true })).toBe('integer');
    expect(editorOf({ kind: 'integer' })).toBe('integer');
    expect(editorOf({ kind: 'STRING', hidden: false })).toBe('text');
    expect(editorOf({ kind: 7 as unknown as string })).toBe('text');
  });

  it('reads an integer input\'s text as a number only when it is one', () => {
    expect(integerValue('-7')).toBe(-7);
    expect(integerValue('x7')).toBe('x7');
    expect(integerValue('7x')).toBe('7x');
  });

  it('shows only dates of years 0 to 9999, and keeps text it cannot read', () => {
    expect(toDateTimeLocal('  ')).toBe('');
    expect(toDateTimeLocal(5)).toBe('');
    expect(toDateTimeLocal('0000-01-01T00:00:00Z')).toBe('0000-01-01T00:00');
    expect(toDateTimeLocal('9999-12-31T23:59:00Z')).toBe('9999-12-31T23:59');
    expect(toDateTimeLocal('+010000-01-01T00:00:00Z')).toBe('');
    expect(toDateTimeLocal('-000001-01-01T00:00:00Z')).toBe('');
    expect(fromDateTimeLocal('  ')).toBe('');
    expect(fromDateTimeLocal('soon')).toBe('soon');
  });

  it('lists array items as text and object values as JSON text', () => {
    expect(arrayItems(undefined)).toEqual([]);
    expect(arrayItems(null)).toEqual([]);
    expect(arrayItems('')).toEqual([]);
    expect(arrayItems([{ a: 1 }, null, undefined])).toEqual(['{"a":1}', 'null', '']);
    expect(withArrayItem(['a', 'b'], 1, 'z')).toEqual(['a', 'z']);
    expect(objectValue('null')).toBe('null');
    expect(objectValue('5')).toBe('5');
    expect(objectValue('{')).toBe('{');
    expect(objectText(undefined)).toBe('');
    expect(objectText(null)).toBe('');
    expect(objectText('{"a"')).toBe('{"a"');
    expect(objectText(() => 1)).toBe('');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(objectText(cyclic)).toBe('');
  });

  it('reads an upload as base64 or as UTF-8 text', () => {
    const bytes = new TextEncoder().encode('héllo');
    expect(fileValue({ encoding: 'BASE64' }, bytes)).toBe('aMOpbGxv');
    expect(fileValue({}, bytes)).toBe('héllo');
    expect(fileValue({ encoding: 'AZURE_KEY_VAULT_SECRET' }, bytes)).toBe('héllo');
    // more than one slice of 32 KiB
    const big = new Uint8Array(0x8000 * 2 + 3).fill(65);
    expect(fileValue({ encoding: 'BASE64' }, big)).toBe(btoa('A'.repeat(0x8000 * 2 + 3)));
  });

  it("keys the server's errors by this component's settings, the first per setting, OAuth in its own words", () => {
    const settings = [{ name: 'token', kind: 'oauth' }, { name: 'config' }, { name: 'rows', kind: 'INTEGER' }];
    expect(
      settingMessages('tap-x', settings, [
        { field: 'properties.tap-x.rows', defaultMessage: 'must be a whole number' },
        { field: 'properties.tap-x.rows', defaultMessage: 'second' },
        { field: 'properties.tap-x.token', defaultMessage: 'missing' },
        { field: 'properties.tap-x.config.nested', defaultMessage: 'bad nested' },
        { field: 'properties.tap-y.rows', defaultMessage: 'other component' },
        { field: 'properties.tap-x.unknown', defaultMessage: 'no such setting' },
        { field: 'properties.tap-x.configx', defaultMessage: 'not config' },
        { field: null, defaultMessage: 'no field' },
        { defaultMessage: 'no field' },
      ]),
    ).toEqual({ rows: 'must be a whole number', token: SETTING_TEXTS.oauthRequired, config: 'bad nested' });
    expect(settingMessages('tap-x', [{ name: 'a' }], [{ field: 'properties.tap-x.a', defaultMessage: null }])).toEqual({ a: SETTING_TEXTS.required });
    expect(settingMessages('tap-x', [{ name: 'a' }], [{ field: 'tap-x.a', defaultMessage: 'm' }])).toEqual({});
  });
});

describe('settingFields: survivors of the re-run (by hand)', () => {
  it('keeps only this component’s errors, whatever their order', () => {
    expect(settingMessages('tap-x', [{ name: 'rows' }], [{ field: 'properties.tap-y.rows', defaultMessage: 'other' }, { field: 'properties.tap-x.rows', defaultMessage: 'mine' }])).toEqual({ rows: 'mine' });
  });
});
