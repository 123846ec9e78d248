import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import { SETTING_KINDS } from './resources';
import { isSensitiveSetting, MASK, maskProperties, type SettingRule } from './pipelineRules';
import { editorOf, fileValue, isSettingRequired, SETTING_TEXTS, settingMessages, withArrayItem } from './settingFields';

// The setting rules of spec 001 §3 Setting and §5 'Plugin settings' beyond the editors' choice:
// every kind has an editor, encodings, value transforms, masking, the required rule, arrays and
// the server's per-field messages.

describe('every kind', () => {
  it('has an editor of its own, and only HIDDEN renders nothing', () => {
    const editors = SETTING_KINDS.map((kind) => editorOf({ kind }));
    expect(new Set(editors).size).toBe(SETTING_KINDS.length);
    expect(SETTING_KINDS.filter((kind) => editorOf({ kind }) === 'hidden')).toEqual(['HIDDEN']);
  });
});

describe('the required rule', () => {
  it('counts an empty required attribute as required unless it is the text false', () => {
    expect(isSettingRequired({ required: '' })).toBe(true);
    expect(isSettingRequired({ required: 'true' })).toBe(true);
    expect(isSettingRequired({ required: 'false' })).toBe(false);
    expect(isSettingRequired({ required: false })).toBe(false);
    expect(isSettingRequired({ required: true })).toBe(true);
  });

  it('is satisfied by a value or a placeholder', () => {
    expect(isSettingRequired({ required: '', value: 'x' })).toBe(false);
    expect(isSettingRequired({ required: true, placeholder: 'e.g. x' })).toBe(false);
  });

  it('never holds for the text false, whatever else is set', () => {
    fc.assert(fc.property(fc.anything(), fc.option(hostileString), (value, placeholder) => {
      expect(isSettingRequired({ required: 'false', value, placeholder })).toBe(false);
    }));
  });
});

describe('masking (the rule the server applies to the properties it sends)', () => {
  const shown = (setting: SettingRule, value: unknown) => maskProperties({ [setting.name]: value }, (key) => isSensitiveSetting(setting, key))[setting.name];

  it('masks password, OAuth and sensitive values, and nothing else', () => {
    expect(shown({ name: 'a', kind: 'PASSWORD' }, 'hunter2')).toBe(MASK);
    expect(shown({ name: 'a', kind: 'OAUTH' }, 'tok')).toBe(MASK);
    expect(shown({ name: 'a', kind: 'STRING', sensitive: true }, 'x')).toBe(MASK);
    expect(shown({ name: 'a', kind: 'STRING' }, 'x')).toBe('x');
    expect(shown({ name: 'a', kind: 'PASSWORD' }, '')).toBe('');
  });

  it('never lets a sensitive value through', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const out = shown({ name: 'a', kind: 'STRING', sensitive: true }, value);
        expect(out === MASK || (typeof out === 'string' && out.trim() === '') || out === undefined || out === null).toBe(true);
      }),
    );
  });
});

describe('file values', () => {
  it('is base64 for a BASE64 setting and the text otherwise', () => {
    const bytes = new TextEncoder().encode('{"type": "service_account"}');
    expect(fileValue({ encoding: 'BASE64' }, bytes)).toBe(Buffer.from(bytes).toString('base64'));
    expect(fileValue({}, bytes)).toBe('{"type": "service_account"}');
  });

  it('round-trips any bytes through base64, large files included', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 5000 }), (bytes) => {
      expect(Buffer.from(fileValue({ encoding: 'BASE64' }, bytes), 'base64').equals(Buffer.from(bytes))).toBe(true);
    }), { numRuns: 50 });
    const big = new Uint8Array(300_000).fill(7);
    expect(Buffer.from(fileValue({ encoding: 'BASE64' }, big), 'base64')).toHaveLength(300_000);
  });
});

describe('arrays', () => {
  it('says adding overrides inherited values, and clearing an item removes it', () => {
    expect(SETTING_TEXTS.arrayOverride).toBe('Adding a value will override all inherited values');
    expect(withArrayItem(['a', 'b', 'c'], 1, '')).toEqual(['a', 'c']);
  });
});

describe('settingMessages', () => {
  const settings = [{ name: 'start_date', kind: 'DATE_ISO8601' }, { name: 'oauth_credentials', kind: 'OAUTH' }];

  it('takes the server\'s defaultMessage per setting, and the OAuth text for an OAuth setting', () => {
    const messages = settingMessages('tap-ga', settings, [
      { field: 'properties.tap-ga.start_date', defaultMessage: 'must be a date' },
      { field: 'properties.tap-ga.oauth_credentials.access_token', defaultMessage: 'is required' },
      { field: 'properties.other.start_date', defaultMessage: 'not ours' },
      { field: 'name', defaultMessage: 'is required' },
    ]);
    expect(messages).toEqual({ start_date: 'must be a date', oauth_credentials: 'Data source must be authorized' });
  });

  it('never throws on hostile error lists', () => {
    fc.assert(fc.property(fc.array(fc.record({ field: fc.option(hostileString), defaultMessage: fc.option(hostileString) })), (errors) => {
      const messages = settingMessages('tap-ga', settings, errors);
      expect(Object.keys(messages).every((name) => settings.some((s) => s.name === name))).toBe(true);
    }));
  });
});
