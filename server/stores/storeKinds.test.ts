import { describe, expect, it } from 'vitest';
import { POSTGRES_STORE_PLUGIN } from '../../src/domain/dataStores';
import { NOTHING_ALLOWED, parseAllowList, type Lookup } from '../security/netPolicy';
import type { DataStoreRow } from './defaultStore';
import { STORE_UNREACHABLE } from './postgresStore';
import { decideLoadTarget } from './storeKinds';

const store = (host: string): DataStoreRow => ({ name: 'Warehouse', data_plugin: POSTGRES_STORE_PLUGIN, draft: false, properties: { host, database: 'dw', user: 'u' } }) as unknown as DataStoreRow;
const dns =
  (address: string): Lookup =>
  () =>
    Promise.resolve([{ address, family: 4 }]);

describe('decideLoadTarget', () => {
  it('pins a public store to the address it resolved to', async () => {
    expect(await decideLoadTarget(store('db.example.com'), NOTHING_ALLOWED, dns('93.184.216.34'))).toEqual({ ok: true, host: '93.184.216.34' });
  });

  it('refuses a loopback or private default store with the neutral line, the reason apart', async () => {
    for (const host of ['127.0.0.1', 'localhost', '10.1.1.1']) {
      const decision = await decideLoadTarget(store(host), NOTHING_ALLOWED, dns('127.0.0.1'));
      expect(decision).toMatchObject({ ok: false, line: `${STORE_UNREACHABLE} The run cannot load into Warehouse.`, reason: expect.stringContaining('refused by the network policy') });
    }
    const rebound = await decideLoadTarget(store('db.example.com'), NOTHING_ALLOWED, dns('169.254.169.254'));
    expect(rebound).toMatchObject({ ok: false });
  });

  it('lets an allowed private store through and leaves the embedded store alone', async () => {
    const allowed = parseAllowList('10.0.0.0/8');
    if (!allowed.ok) throw new Error(allowed.error);
    expect(await decideLoadTarget(store('10.1.1.1'), allowed.list)).toEqual({ ok: true, host: '10.1.1.1' });
    expect(await decideLoadTarget(undefined, NOTHING_ALLOWED)).toEqual({ ok: true, host: undefined });
  });
});
