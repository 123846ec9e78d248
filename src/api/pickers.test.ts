import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../domain/hostile.fixture';
import { adsCustomers, analyticsProfiles, driveQuery, driveSpreadsheets, PickerFailure } from './pickers';
import { fakeFetch } from './testing/fakeFetch';

const DRIVE = 'http://drive.test/drive/v3/files';

describe('driveQuery', () => {
  it('asks for spreadsheets, by name when searched', () => {
    expect(driveQuery('')).toBe("mimeType='application/vnd.google-apps.spreadsheet' and trashed=false");
    expect(driveQuery(" Bob's \\ sheet ")).toBe("mimeType='application/vnd.google-apps.spreadsheet' and trashed=false and name contains 'Bob\\'s \\\\ sheet'");
  });

  it('never lets a search close its quote', () => {
    fc.assert(
      fc.property(hostileString, (search) => {
        const q = driveQuery(search);
        const term = /and name contains '(.*)'$/s.exec(q)?.[1] ?? '';
        // every quote in the term is escaped by an odd run of backslashes
        expect(/(^|[^\\])(\\\\)*'/.test(term)).toBe(false);
      }),
    );
  });
});

describe('the pickers', () => {
  it('lists spreadsheets with the bearer token and the q search', async () => {
    const fake = fakeFetch({ body: { files: [{ id: 's1', name: 'Revenue', mimeType: 'application/vnd.google-apps.spreadsheet' }] } });
    const files = await driveSpreadsheets(DRIVE, 'rev', { accessToken: 'at1', refresh: () => Promise.reject(new Error('no refresh expected')), fetch: fake.fetch });
    expect(files).toEqual([{ id: 's1', name: 'Revenue', mimeType: 'application/vnd.google-apps.spreadsheet' }]);
    expect(fake.calls[0]?.headers.get('authorization')).toBe('Bearer at1');
    expect(new URL(fake.calls[0]!.url).searchParams.get('q')).toContain("name contains 'rev'");
  });

  it('on a 401 runs the refresh exchange once and retries once', async () => {
    const fake = fakeFetch({ status: 401, body: {} }, { body: { files: [] } });
    let refreshed = 0;
    const refresh = () => {
      refreshed += 1;
      return Promise.resolve('at2');
    };
    await driveSpreadsheets(DRIVE, '', { accessToken: 'expired', refresh, fetch: fake.fetch });
    expect(refreshed).toBe(1);
    expect(fake.calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer expired', 'Bearer at2']);

    const twice = fakeFetch({ status: 401, body: {} }, { status: 401, body: {} });
    await expect(driveSpreadsheets(DRIVE, '', { accessToken: 'x', refresh, fetch: twice.fetch })).rejects.toMatchObject({ status: 401 });
    expect(twice.calls).toHaveLength(2);
  });

  it('refreshes first when no access token is in hand', async () => {
    const fake = fakeFetch({ body: { items: [{ id: '123', name: 'All web site data' }] } });
    const profiles = await analyticsProfiles('http://analytics.test/profiles', { accessToken: null, refresh: () => Promise.resolve('fresh'), fetch: fake.fetch });
    expect(profiles).toEqual([{ id: '123', name: 'All web site data' }]);
    expect(fake.calls[0]?.headers.get('authorization')).toBe('Bearer fresh');
  });

  it('sends the developer token to the ads customers list', async () => {
    const fake = fakeFetch({ body: { resourceNames: ['customers/1234567890'] } });
    const customers = await adsCustomers('http://ads.test/customers:listAccessibleCustomers', 'dev-tok', { accessToken: 'at', refresh: () => Promise.resolve('x'), fetch: fake.fetch });
    expect(customers).toEqual([{ id: '1234567890', name: 'customers/1234567890' }]);
    expect(fake.calls[0]?.headers.get('developer-token')).toBe('dev-tok');
  });

  it('fails on other errors and on answers of the wrong shape', async () => {
    await expect(driveSpreadsheets(DRIVE, '', { accessToken: 'a', refresh: () => Promise.resolve('b'), fetch: fakeFetch({ status: 500, body: {} }).fetch })).rejects.toBeInstanceOf(PickerFailure);
    await expect(driveSpreadsheets(DRIVE, '', { accessToken: 'a', refresh: () => Promise.resolve('b'), fetch: fakeFetch({ body: { files: 'nope' } }).fetch })).rejects.toThrow('unexpected shape');
  });
});
