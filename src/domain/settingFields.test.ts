import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import {
  arrayItems,
  editorOf,
  fromDateTimeLocal,
  integerValue,
  isAzureKeyVault,
  isSettingRequired,
  objectText,
  objectValue,
  SETTING_TEXTS,
  settingError,
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

describe('settingError', () => {
  it('reports an empty required setting and a non-integer', () => {
    expect(settingError({ name: 'a', required: true }, '')).toBe(SETTING_TEXTS.required);
    expect(settingError({ name: 'a' }, '')).toBeUndefined();
    expect(settingError({ name: 'a', required: 'false' }, '')).toBeUndefined();
    expect(settingError({ name: 'a', kind: 'INTEGER', required: true }, '1.5')).toBe(SETTING_TEXTS.integer);
    expect(settingError({ name: 'a', kind: 'INTEGER' }, 15)).toBeUndefined();
    expect(settingError({ name: 'a', kind: 'OAUTH' }, '')).toBeUndefined();
  });
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
