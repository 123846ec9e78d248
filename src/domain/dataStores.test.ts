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
