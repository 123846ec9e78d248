import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import {
  componentKeySensitivity,
  isComplete,
  isRequiredSetting,
  isSensitiveSetting,
  keepMaskedValues,
  MASK,
  maskedEnvironment,
  maskProperties,
  missingRequiredSettings,
  PIPELINE_MESSAGES,
  pipelineErrors,
  type PipelineCandidate,
  pipelineKeySensitivity,
  requiredMessage,
  settingValueError,
  type ComponentRule,
} from './pipelineRules';

const postgres: ComponentRule = {
  name: 'tap-postgres',
  properties: { host: 'db.local' },
  settings: [
    { name: 'host', kind: 'STRING', value: 'localhost' },
    { name: 'port', kind: 'INTEGER', value: 5432 },
    { name: 'user', label: 'User', kind: 'STRING', required: true },
    { name: 'password', kind: 'PASSWORD', sensitive: true },
    { name: 'database', label: 'Database', kind: 'STRING', required: true },
    { name: 'tables', kind: 'ARRAY' },
    { name: 'replication_keys', kind: 'OBJECT' },
    { name: 'mode', kind: 'OPTIONS', options: [{ value: 'full' }, { value: 'incremental' }] },
  ],
};
const target: ComponentRule = { name: 'target-store', properties: {}, settings: [{ name: 'batch_size', kind: 'INTEGER', value: 1000 }] };

const base = { name: 'Orders', properties: {}, schedule: null, triggeredBy: [] as string[] };
const context = { components: [postgres, target], otherPipelineNames: ['Daily load'], draft: false };

describe('isRequiredSetting (spec §3, §5)', () => {
  it('is required when flagged and nothing supplies a value', () => {
    expect(isRequiredSetting({ name: 'a', required: true })).toBe(true);
    expect(isRequiredSetting({ name: 'a', required: '' })).toBe(true);
    expect(isRequiredSetting({ name: 'a', required: 'true' })).toBe(true);
    expect(isRequiredSetting({ name: 'a', required: 'false' })).toBe(false);
    expect(isRequiredSetting({ name: 'a', required: 'FALSE ' })).toBe(false);
    expect(isRequiredSetting({ name: 'a' })).toBe(false);
    expect(isRequiredSetting({ name: 'a', required: true, value: 'x' })).toBe(false);
    expect(isRequiredSetting({ name: 'a', required: true, placeholder: 'today' })).toBe(false);
  });
});

describe('pipelineErrors', () => {
  it('accepts a complete pipeline', () => {
    expect(pipelineErrors({ ...base, properties: { 'tap-postgres.user': 'ada', 'tap-postgres.database': 'shop' } }, context)).toEqual({});
  });

  it('names each required setting missing from the component and the pipeline', () => {
    const errors = pipelineErrors({ ...base, properties: { 'tap-postgres.user': 'ada' } }, context);
    expect(errors).toEqual({ 'properties.tap-postgres.database': requiredMessage('Database') });
  });

  it('takes a required value from the component itself', () => {
    const withUser = { ...postgres, properties: { user: 'ada', database: 'shop' } };
    expect(pipelineErrors(base, { ...context, components: [withUser] })).toEqual({});
  });

  it('lets a draft miss required settings and triggers, but not types or a bad name', () => {
    const draft = { ...context, draft: true };
    expect(pipelineErrors({ ...base, triggeredBy: ['Nope'] }, draft)).toEqual({});
    expect(pipelineErrors({ ...base, name: ' ', properties: { 'tap-postgres.port': 'eighty' }, schedule: '* *' }, draft)).toEqual({
      name: PIPELINE_MESSAGES.nameRequired,
      schedule: expect.any(String) as string,
      'properties.tap-postgres.port': 'must be a whole number',
    });
  });

  it('refuses properties of no component, triggers of itself or of nothing', () => {
    const errors = pipelineErrors({ ...base, properties: { 'tap-postgres.user': 'a', 'tap-postgres.database': 'b', 'tap-mysql.host': 'x', nested: { deeper: 1 } }, triggeredBy: ['orders', 'Daily load', 'deploy', 'ghost'] }, context);
    expect(errors).toEqual({
      'properties.tap-mysql.host': PIPELINE_MESSAGES.unknownProperty,
      'properties.nested': PIPELINE_MESSAGES.unknownProperty,
      'triggeredBy.0': PIPELINE_MESSAGES.triggerSelf,
      'triggeredBy.3': PIPELINE_MESSAGES.triggerUnknown,
    });
  });

  it("refuses settings whose variable would land in the system's namespace (issue 36), naming the variable", () => {
    const ld: ComponentRule = { name: 'ld', properties: {}, settings: [] };
    const hooked: ComponentRule = { name: 'tap-hooked', properties: {}, settings: [{ name: 'hook', env: 'BASH_ENV' }] };
    const errors = pipelineErrors({ ...base, properties: { 'tap-postgres.user': 'a', 'tap-postgres.database': 'b', 'ld.audit': '/project/x.so', 'ld.preload': '/project/x.so', 'tap-hooked.hook': '/project/x.sh' } }, { ...context, components: [...context.components, ld, hooked] });
    expect(errors).toEqual({
      'properties.ld.audit': expect.stringContaining('LD_AUDIT'),
      'properties.ld.preload': expect.stringContaining('LD_PRELOAD'),
    });
    // an explicit env in the system's namespace is not used: the setting stays in its plugin's own (TAP_HOOKED_HOOK)
  });

  it('checks the reserved _select and _metadata keys hold JSON text', () => {
    const props = { 'tap-postgres.user': 'a', 'tap-postgres.database': 'b', 'tap-postgres._select': '["orders.*"]', 'tap-postgres._metadata': '{oops' };
    expect(pipelineErrors({ ...base, properties: props }, context)).toEqual({ 'properties.tap-postgres._metadata': PIPELINE_MESSAGES.reservedJson });
  });

  it('checks _select holds a list of rules, not any JSON', () => {
    for (const select of ['{"orders": true}', '"orders.*"', '[1]', 'orders.*']) {
      const props = { 'tap-postgres.user': 'a', 'tap-postgres.database': 'b', 'tap-postgres._select': select };
      expect(pipelineErrors({ ...base, properties: props }, context)).toEqual({ 'properties.tap-postgres._select': PIPELINE_MESSAGES.selectRules });
    }
  });

  it('never throws on hostile names, keys, values and schedules, and names only fields of the input', () => {
    const value = fc.oneof(hostileString, fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(hostileString, hostileString, { maxKeys: 2 }));
    fc.assert(
      fc.property(
        hostileStringWithHuge,
        fc.dictionary(fc.oneof(hostileString, fc.constantFrom('tap-postgres.port', 'tap-postgres.tables', 'tap-postgres.mode', 'target-store.batch_size')), value, { maxKeys: 6 }),
        fc.option(hostileString),
        fc.array(hostileString, { maxLength: 3 }),
        fc.boolean(),
        (name, properties, schedule, triggeredBy, draft) => {
          const errors = pipelineErrors({ name, properties, schedule, triggeredBy }, { ...context, draft });
          for (const field of Object.keys(errors)) {
            expect(field === 'name' || field === 'schedule' || field.startsWith('properties.') || field.startsWith('triggeredBy.')).toBe(true);
          }
          if (name.trim() === '') expect(errors.name).toBe(PIPELINE_MESSAGES.nameRequired);
        },
      ),
    );
  });
});

describe('settingValueError', () => {
  it.each([
    ['INTEGER', 5, undefined],
    ['INTEGER', '42', undefined],
    ['INTEGER', 1.5, 'must be a whole number'],
    ['INTEGER', 'x', 'must be a whole number'],
    ['BOOLEAN', 'true', undefined],
    ['BOOLEAN', 'yes', 'must be true or false'],
    ['ARRAY', ['a'], undefined],
    ['ARRAY', '["a"]', undefined],
    ['ARRAY', { a: 1 }, 'must be a list'],
    ['OBJECT', { a: 1 }, undefined],
    ['OBJECT', '[1]', 'must be an object'],
    ['DATE_ISO8601', '2024-01-31', undefined],
    ['DATE_ISO8601', '2024-01-31T10:00:00Z', undefined],
    ['DATE_ISO8601', 'yesterday', 'must be a date (ISO 8601)'],
    ['EMAIL', 'a@b.co', undefined],
    ['EMAIL', 'nope', 'must be an email address'],
    ['STRING', 'text', undefined],
    ['STRING', { a: 1 }, 'must be text'],
    ['PASSWORD', ['x'], 'must be text'],
  ])('%s %j', (kind, value, message) => {
    expect(settingValueError({ name: 's', kind }, value)).toBe(message);
  });

  it('allows a blank value of any kind (the required rule handles absence)', () => {
    for (const kind of ['INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'DATE_ISO8601', 'EMAIL', 'OPTIONS', 'STRING']) {
      for (const blank of [null, undefined, '', '  ']) expect(settingValueError({ name: 's', kind }, blank)).toBeUndefined();
    }
  });

  it('keeps an OPTIONS value among the options', () => {
    const setting = postgres.settings.find((s) => s.name === 'mode');
    expect(settingValueError(setting, 'full')).toBeUndefined();
    expect(settingValueError(setting, 'other')).toBe('must be one of: full, incremental');
  });
});

describe('completeness', () => {
  it('is complete exactly when nothing required is missing', () => {
    expect(isComplete([postgres], {})).toBe(false);
    expect(missingRequiredSettings([postgres], { 'tap-postgres.user': 'a' }).map((m) => m.setting)).toEqual(['database']);
    expect(isComplete([postgres], { 'tap-postgres.user': 'a', 'tap-postgres.database': 'b' })).toBe(true);
    expect(isComplete([target], {})).toBe(true);
    expect(isComplete([], {})).toBe(true);
  });
});

describe('maskedEnvironment', () => {
  it('builds the variables by Meltano rule and masks sensitive values', () => {
    const env = maskedEnvironment([postgres], { 'tap-postgres.password': 's3cret', 'tap-postgres.port': 5433, 'tap-postgres.api_token': 'tok' });
    expect(env).toEqual({
      TAP_POSTGRES_API_TOKEN: { value: MASK, sensitive: true },
      TAP_POSTGRES_HOST: { value: 'db.local', sensitive: false },
      TAP_POSTGRES_PASSWORD: { value: MASK, sensitive: true },
      TAP_POSTGRES_PORT: { value: '5433', sensitive: false },
    });
  });

  it('never returns a sensitive value in clear, whatever the value', () => {
    fc.assert(
      fc.property(hostileString, fc.oneof(hostileString, fc.integer(), fc.dictionary(hostileString, hostileString, { maxKeys: 2 })), (text, extra) => {
        const secret = `SECRET§${text}`;
        const withSecret = { ...postgres, properties: { password: secret } };
        const env = maskedEnvironment([withSecret], { 'tap-postgres.client_secret': secret, 'tap-postgres.private_key': { key: secret, extra } });
        expect(env['TAP_POSTGRES_PRIVATE_KEY']).toEqual({ value: MASK, sensitive: true });
        for (const variable of Object.values(env)) if (variable.sensitive) expect(variable.value).toBe(MASK);
        expect(JSON.stringify(env)).not.toContain('SECRET§');
      }),
    );
  });

  it('treats password and oauth kinds as sensitive, and unknown settings by name', () => {
    expect(isSensitiveSetting({ name: 'x', kind: 'OAUTH' }, 'x')).toBe(true);
    expect(isSensitiveSetting({ name: 'x', kind: 'STRING' }, 'x')).toBe(false);
    expect(isSensitiveSetting(undefined, 'aws_secret_access_key')).toBe(true);
    expect(isSensitiveSetting(undefined, 'region')).toBe(false);
  });
});

describe('masking properties on the way out and back', () => {
  const isSensitive = pipelineKeySensitivity([postgres]);

  it('masks set sensitive values only', () => {
    expect(maskProperties({ 'tap-postgres.password': 'pw', 'tap-postgres.user': 'ada', 'tap-postgres.api_token': '', other_secret: 'x' }, isSensitive)).toEqual({
      'tap-postgres.password': MASK,
      'tap-postgres.user': 'ada',
      'tap-postgres.api_token': '',
      other_secret: MASK,
    });
    expect(maskProperties({ password: 'pw', host: 'h' }, componentKeySensitivity(postgres.settings))).toEqual({ password: MASK, host: 'h' });
  });

  it('keeps the stored value where the form sent the mask back, and never stores the mask', () => {
    const stored = { 'tap-postgres.password': 'pw' };
    expect(keepMaskedValues({ 'tap-postgres.password': MASK, 'tap-postgres.user': MASK }, stored, isSensitive)).toEqual({ 'tap-postgres.password': 'pw', 'tap-postgres.user': MASK });
    expect(keepMaskedValues({ 'tap-postgres.password': MASK }, {}, isSensitive)).toEqual({});
    expect(keepMaskedValues({ 'tap-postgres.password': 'new' }, stored, isSensitive)).toEqual({ 'tap-postgres.password': 'new' });
  });

  it('round-trips: what a client sends back unchanged is what was stored', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('tap-postgres.password', 'tap-postgres.user', 'tap-postgres.port', 'x_token'), fc.oneof(hostileString, fc.integer())), (stored) => {
        expect(keepMaskedValues(maskProperties(stored, isSensitive), stored, isSensitive)).toEqual(stored);
      }),
    );
  });
});

describe('pipeline rules: the edges mutation testing found (by hand)', () => {
  it('requires a flagged setting whose default or placeholder is empty', () => {
    expect(isRequiredSetting({ name: 'a', required: true, value: null })).toBe(true);
    expect(isRequiredSetting({ name: 'a', required: true, value: '' })).toBe(true);
    expect(isRequiredSetting({ name: 'a', required: true, value: 0 })).toBe(false);
    expect(isRequiredSetting({ name: 'a', required: true, placeholder: '' })).toBe(true);
    expect(requiredMessage('User')).toBe("Setting 'User' is required");
  });

  it('knows a sensitive setting by its kind, in any case, or by its name', () => {
    expect(isSensitiveSetting({ name: 'pin', kind: 'PASSWORD' }, 'pin')).toBe(true);
    expect(isSensitiveSetting({ name: 'pin', kind: 'password' }, 'pin')).toBe(true);
    expect(isSensitiveSetting({ name: 'pin', kind: 'oauth' }, 'pin')).toBe(true);
    expect(isSensitiveSetting({ name: 'api_key', kind: 'STRING' }, 'api_key')).toBe(true);
    expect(isSensitiveSetting({ name: 'pin' }, 'pin')).toBe(false);
  });

  it.each([
    ['INTEGER', ' 42 ', undefined],
    ['INTEGER', '-7', undefined],
    ['INTEGER', 'x5', 'must be a whole number'],
    ['INTEGER', '5x', 'must be a whole number'],
    ['INTEGER', '1234567890123456', 'must be a whole number'],
    ['INTEGER', 2 ** 53, 'must be a whole number'],
    ['BOOLEAN', true, undefined],
    ['BOOLEAN', false, undefined],
    ['BOOLEAN', 'false', undefined],
    ['BOOLEAN', 1, 'must be true or false'],
    ['ARRAY', 'abc', 'must be a list'],
    ['ARRAY', '"abc"', 'must be a list'],
    ['ARRAY', '{}', 'must be a list'],
    ['OBJECT', '{"a":1}', undefined],
    ['OBJECT', 'null', 'must be an object'],
    ['OBJECT', ['a'], 'must be an object'],
    ['OBJECT', ['{}'], 'must be an object'],
    ['OBJECT', 5, 'must be an object'],
    ['DATE_ISO8601', ' 2024-01-31 ', undefined],
    ['DATE_ISO8601', '2024-01-31 10:00', undefined],
    ['DATE_ISO8601', ' 2024-01-31 10:00', undefined],
    ['DATE_ISO8601', 'March 7, 2024', 'must be a date (ISO 8601)'],
    ['DATE_ISO8601', '2024-13-01', 'must be a date (ISO 8601)'],
    ['DATE_ISO8601', 20240131, 'must be a date (ISO 8601)'],
    ['STRING', 5, undefined],
    ['STRING', true, undefined],
    ['hidden', ['x'], 'must be text'],
  ])('%s %j', (kind, value, message) => {
    expect(settingValueError({ name: 's', kind }, value)).toBe(message);
  });

  it('reads a setting no plugin defines as text, and options by their scalar values', () => {
    expect(settingValueError(undefined, 'x')).toBeUndefined();
    expect(settingValueError(undefined, { a: 1 })).toBe('must be text');
    const options = (values: unknown[]) => ({ name: 's', kind: 'OPTIONS', options: values.map((value) => ({ value })) });
    expect(settingValueError(options([1, 2]), 2)).toBeUndefined();
    expect(settingValueError(options([1, 2]), '2')).toBeUndefined();
    expect(settingValueError(options([1, 2]), 3)).toBe('must be one of: 1, 2');
    expect(settingValueError(options([true]), false)).toBe('must be one of: true');
    expect(settingValueError(options([true]), true)).toBeUndefined();
    expect(settingValueError(options([]), 'anything')).toBeUndefined();
    expect(settingValueError(options([{ a: 1 }, undefined]), 'anything')).toBeUndefined();
    expect(settingValueError(options(['a']), { a: 1 })).toBe('must be one of the options');
    expect(settingValueError({ name: 's', kind: 'OPTIONS' }, 'anything')).toBeUndefined();
  });

  it('names exactly the failing fields, no more (not even with an undefined message)', () => {
    const fields = (candidate: Partial<PipelineCandidate>, extra: Partial<typeof context> = {}) => Object.keys(pipelineErrors({ ...base, ...candidate, properties: { 'tap-postgres.user': 'ada', 'tap-postgres.database': 'shop', ...candidate.properties } }, { ...context, ...extra })).sort();
    expect(fields({ schedule: '0 6 * * *', properties: { 'tap-postgres.port': 5433 } })).toEqual([]);
    expect(fields({ name: 'x'.repeat(255) })).toEqual([]);
    expect(pipelineErrors({ ...base, name: 'x'.repeat(256) }, { ...context, draft: true })).toEqual({ name: PIPELINE_MESSAGES.nameTooLong });
    // blank reserved keys are allowed; _select must be text of rules, _metadata JSON text
    expect(fields({ properties: { 'tap-postgres._select': '', 'tap-postgres._metadata': null } })).toEqual([]);
    expect(fields({ properties: { 'tap-postgres._metadata': '{}' } })).toEqual([]);
    expect(pipelineErrors({ ...base, properties: { 'tap-postgres._select': ['orders.*'], 'tap-postgres._metadata': { a: 1 } } }, { ...context, draft: true })).toEqual({
      'properties.tap-postgres._select': PIPELINE_MESSAGES.selectRules,
      'properties.tap-postgres._metadata': PIPELINE_MESSAGES.reservedJson,
    });
    expect(pipelineErrors({ ...base, properties: { 'tap-postgres._metadata': 'not json' } }, { ...context, draft: true })).toEqual({ 'properties.tap-postgres._metadata': PIPELINE_MESSAGES.reservedJson });
    // JSON text, not a value that would be JSON once written out
    for (const value of [5, true]) expect(pipelineErrors({ ...base, properties: { 'tap-postgres._metadata': value } }, { ...context, draft: true })).toEqual({ 'properties.tap-postgres._metadata': PIPELINE_MESSAGES.reservedJson });
    // triggers compare trimmed and case-blind; a blank name triggers nothing of itself
    expect(fields({ triggeredBy: [' DAILY LOAD '] }, { otherPipelineNames: [' Daily Load '] })).toEqual([]);
    expect(pipelineErrors({ ...base, name: '  ', triggeredBy: [''] }, { ...context, draft: false, components: [] })).toEqual({ name: PIPELINE_MESSAGES.nameRequired, 'triggeredBy.0': PIPELINE_MESSAGES.triggerUnknown });
    expect(pipelineErrors({ ...base, name: 'Stryker was here!', triggeredBy: ['stryker was here!'] }, { ...context, components: [] })).toEqual({ 'triggeredBy.0': PIPELINE_MESSAGES.triggerSelf });
  });
});

describe('masking by the setting a key names (by hand)', () => {
  // two components with a setting of the same innocent name: only one of them is a password
  const a: ComponentRule = { name: 'tap-a', properties: {}, settings: [{ name: 'pin', kind: 'STRING' }] };
  const b: ComponentRule = { name: 'tap-b', properties: { code: 'c' }, settings: [{ name: 'pin', kind: 'PASSWORD' }, { name: 'code', kind: 'PASSWORD', env: 'B_CODE' }] };

  it('masks the variables of the component the key names, under their explicit names, sorted', () => {
    const env = maskedEnvironment([a, b], { 'tap-b.pin': '1234', 'tap-a.pin': '42', 'other.x': 'v', 'tap-a.zone': 'eu' });
    expect(env).toEqual({
      B_CODE: { value: MASK, sensitive: true },
      TAP_A_PIN: { value: '42', sensitive: false },
      TAP_A_ZONE: { value: 'eu', sensitive: false },
      TAP_B_PIN: { value: MASK, sensitive: true },
    });
    expect(Object.keys(env)).toEqual(['B_CODE', 'TAP_A_PIN', 'TAP_A_ZONE', 'TAP_B_PIN']);
  });

  it('tells sensitive keys by the named component’s own setting', () => {
    const isSensitive = pipelineKeySensitivity([a, b]);
    expect(isSensitive('tap-b.pin')).toBe(true);
    expect(isSensitive('tap-a.pin')).toBe(false);
    expect(isSensitive('tap-b.code')).toBe(true);
    expect(isSensitive('tap-a.client_secret')).toBe(true);
    expect(isSensitive('elsewhere.pin')).toBe(false);
    expect(componentKeySensitivity(b.settings)('pin')).toBe(true);
    expect(componentKeySensitivity(a.settings)('pin')).toBe(false);
  });

  it('drops a masked key with nothing stored, leaving no key behind', () => {
    const isSensitive = pipelineKeySensitivity([a, b]);
    expect(keepMaskedValues({ 'tap-b.pin': MASK }, {}, isSensitive)).toStrictEqual({});
    expect(keepMaskedValues({ 'tap-b.pin': MASK, 'tap-a.pin': MASK }, { 'tap-b.pin': '1' }, isSensitive)).toStrictEqual({ 'tap-b.pin': '1', 'tap-a.pin': MASK });
  });
});
