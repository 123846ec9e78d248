import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DATA_STORE_TEXTS,
  maskStoreProperties,
  mergeStoreProperties,
  portOf,
  postgresConnection,
  postgresJdbcUrl,
  postgresSettingErrors,
  storeNameError,
  storeState,
  storeSettings,
  storeStateColour,
} from './dataStores';
import { hostileString } from './hostile.fixture';
import { MASK } from './pipelineRules';

const SETTINGS = [
  { name: 'host', kind: 'STRING' },
  { name: 'port', kind: 'INTEGER' },
  { name: 'password', kind: 'PASSWORD', sensitive: true },
  { name: 'batch_size', kind: 'INTEGER' },
];

describe('data store rules', () => {
  it('requires a name of at most 255 characters', () => {
    expect(storeNameError('  ')).toBe(DATA_STORE_TEXTS.nameRequired);
    expect(storeNameError(undefined)).toBe(DATA_STORE_TEXTS.nameRequired);
    expect(storeNameError('x'.repeat(256))).toBe(DATA_STORE_TEXTS.nameTooLong);
    expect(storeNameError('Warehouse')).toBeUndefined();
  });

  it('checks PostgreSQL settings: required unless a draft, well-formed always', () => {
    expect(postgresSettingErrors({}, { draft: false })).toEqual({ host: 'is required', database: 'is required', user: 'is required' });
    expect(postgresSettingErrors({}, { draft: true })).toEqual({});
    expect(postgresSettingErrors({ host: 'db.example.com', database: 'd', user: 'u', port: '5432' }, { draft: false })).toEqual({});
    expect(postgresSettingErrors({ host: '::1', database: 'd', user: 'u' }, { draft: false })).toEqual({});
    expect(postgresSettingErrors({ host: 'a b', port: 0, schema: 'x"y', password: 3, other: 1 }, { draft: true })).toEqual({
      host: DATA_STORE_TEXTS.host,
      port: DATA_STORE_TEXTS.port,
      schema: DATA_STORE_TEXTS.identifier,
      password: 'must be text',
      other: DATA_STORE_TEXTS.unknownSetting,
    });
    expect(postgresSettingErrors({ batch_size: 10 }, { draft: true, settings: SETTINGS })).toEqual({});
    expect(portOf('65535')).toBe(65535);
    expect(portOf(65536)).toBeUndefined();
    expect(portOf('54x')).toBeUndefined();
  });

  it('shows a jdbcUrl with the user and schema, never the password', () => {
    expect(postgresJdbcUrl({ host: '127.0.0.1', port: 5432, database: 'test', user: 'postgres', password: 'pw', schema: 'analytics' })).toBe(
      'jdbc:postgresql://127.0.0.1:5432/test?user=postgres&currentSchema=analytics',
    );
    expect(postgresJdbcUrl({ host: '::1', database: 'd' })).toBe('jdbc:postgresql://[::1]:5432/d?currentSchema=public');
    expect(postgresJdbcUrl({ host: 'h' })).toBeNull();
    expect(postgresConnection({ port: 'x' })).toMatchObject({ host: 'localhost', port: 5432, schema: 'public', password: undefined });
  });

  it('masks secrets on the way out and keeps them on the way back', () => {
    expect(maskStoreProperties({ host: 'h', password: 'pw', api_token: 't', empty: '' }, SETTINGS)).toEqual({ host: 'h', password: MASK, api_token: MASK, empty: '' });
    expect(mergeStoreProperties({ host: 'new' }, { host: 'old', password: 'pw', port: 1 }, SETTINGS)).toEqual({ host: 'new', password: 'pw' });
    expect(mergeStoreProperties({ password: MASK }, { password: 'pw' }, SETTINGS)).toEqual({ password: 'pw' });
    expect(mergeStoreProperties({ password: 'next' }, { password: 'pw' }, SETTINGS)).toEqual({ password: 'next' });
    expect(mergeStoreProperties({ password: MASK }, {}, SETTINGS)).toEqual({});
  });

  it('names the state a list shows, and its colour', () => {
    expect(storeState({ draft: true, status: 'READY' })).toBe('DRAFT');
    expect(storeState({ draft: false, status: 'FAILED' })).toBe('FAILED');
    expect(storeState({ status: 'nonsense' })).toBe('PROVISIONING');
    expect(storeStateColour('READY')).toBe('success');
    expect(storeStateColour('FAILED')).toBe('danger');
  });

  it('on hostile settings: never throws, never leaks the password into the jdbcUrl, never returns a secret', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(hostileString, fc.constantFrom('host', 'port', 'database', 'user', 'schema', 'password')), fc.oneof(hostileString, fc.anything())), fc.boolean(), (properties, draft) => {
        const errors = postgresSettingErrors(properties, { draft });
        for (const message of Object.values(errors)) expect(typeof message).toBe('string');
        const password = properties.password;
        const url = postgresJdbcUrl(properties);
        if (url !== null) expect(url.startsWith('jdbc:postgresql://')).toBe(true);
        // The URL is the same whatever the password: it cannot carry it.
        expect(postgresJdbcUrl({ ...properties, password: 'another secret' })).toBe(url);
        const masked = maskStoreProperties(properties, SETTINGS);
        if (typeof password === 'string' && password !== '') expect(masked.password).toBe(MASK);
        const merged = mergeStoreProperties(masked, properties, SETTINGS);
        expect(merged.password).toEqual(properties.password === MASK ? properties.password : Object.hasOwn(properties, 'password') ? properties.password : undefined);
      }),
      { numRuns: 400 },
    );
  });
});

describe('data store rules, at their edges', () => {
  it('a name: a number is a name, 255 characters are allowed', () => {
    expect(storeNameError(42)).toBeUndefined();
    expect(storeNameError('x'.repeat(255))).toBeUndefined();
    expect(storeNameError('  x  ')).toBeUndefined();
  });

  it('a port: a whole number from 1 to 65535, as a number or as digits', () => {
    expect(portOf(1)).toBe(1);
    expect(portOf(5432)).toBe(5432);
    expect(portOf(0)).toBeUndefined();
    expect(portOf(' 80 ')).toBe(80);
    // text with a sign, a fraction or an exponent is not a port, though Number() would read 80
    expect(portOf('+80')).toBeUndefined();
    expect(portOf('80.0')).toBeUndefined();
    expect(portOf('8e1')).toBeUndefined();
    // only text is parsed: a list whose text is digits is not a port
    expect(portOf(['80'])).toBeUndefined();
    expect(portOf(null)).toBeUndefined();
  });

  it('a setting the loader declares is checked by its kind; any other is unknown', () => {
    expect(postgresSettingErrors({ other: 1 }, { draft: true, settings: SETTINGS })).toEqual({ other: DATA_STORE_TEXTS.unknownSetting });
    expect(postgresSettingErrors({ batch_size: 'many' }, { draft: true, settings: SETTINGS })).toEqual({ batch_size: 'must be a whole number' });
    expect(postgresSettingErrors({ batch_size: '20', host: 'h' }, { draft: true, settings: SETTINGS })).toEqual({});
  });

  it('an empty port or password is no error; a password is text', () => {
    expect(postgresSettingErrors({ port: null, password: null }, { draft: true })).toEqual({});
    expect(postgresSettingErrors({ port: '' }, { draft: true })).toEqual({});
    expect(postgresSettingErrors({ port: 'x' }, { draft: true })).toEqual({ port: DATA_STORE_TEXTS.port });
    expect(postgresSettingErrors({ password: 'pw' }, { draft: true })).toEqual({});
    expect(postgresSettingErrors({ password: ['pw'] }, { draft: true })).toEqual({ password: 'must be text' });
  });

  it('the connection keeps a password only when it is non-empty text', () => {
    expect(postgresConnection({ password: 'pw' }).password).toBe('pw');
    expect(postgresConnection({ password: '' }).password).toBeUndefined();
    expect(postgresConnection({ password: 5 }).password).toBeUndefined();
    expect(postgresConnection({ port: '6543', host: ' db ', user: ' u ' })).toEqual({ host: 'db', port: 6543, database: '', user: 'u', password: undefined, schema: 'public' });
  });

  it('the jdbcUrl: a bracketed IPv6 host stays as given, a lone surrogate becomes U+FFFD', () => {
    expect(postgresJdbcUrl({ host: '[::1]', database: 'd' })).toBe('jdbc:postgresql://[::1]:5432/d?currentSchema=public');
    expect(postgresJdbcUrl({ host: 'h', database: 'a\uD800' })).toBe('jdbc:postgresql://h:5432/a%EF%BF%BD?currentSchema=public');
  });

  it('masks a setting the loader marks sensitive whatever its name, and never an empty one', () => {
    const settings = [{ name: 'conn', kind: 'STRING', sensitive: true }];
    expect(maskStoreProperties({ conn: 'c', host: 'h' }, settings)).toEqual({ conn: MASK, host: 'h' });
    expect(maskStoreProperties({ password: '', api_token: null, conn: undefined }, settings)).toEqual({ password: '', api_token: null, conn: undefined });
  });

  it('colours every state', () => {
    expect(storeStateColour('READY')).toBe('success');
    expect(storeStateColour('FAILED')).toBe('danger');
    expect(storeStateColour('PROVISIONING')).toBe('warning');
    expect(storeStateColour('DRAFT')).toBe('informative');
    expect(storeState({})).toBe('PROVISIONING');
  });

  it("a store's settings leave out the table prefix", () => {
    expect(storeSettings([{ name: 'table_prefix' }, { name: 'host' }, { name: 'schema' }])).toEqual([{ name: 'host' }, { name: 'schema' }]);
    expect(storeSettings(null)).toEqual([]);
    expect(storeSettings(undefined)).toEqual([]);
  });
});
