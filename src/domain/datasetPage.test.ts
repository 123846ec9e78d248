import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actionEnabled,
  canSaveToList,
  datasetSource,
  needsRows,
  commentsDisabledText,
  DATASET_ACTIONS,
  DATASET_VIEW_TABS,
  datasetActions,
  datasetViewTabs,
  exportChoice,
  isLikedBy,
  safeFileName,
  shareCopiesLink,
  shareHref,
  shareTargets,
  SHARE_TARGETS,
  watchState,
} from './datasetPage';
import { featureSwitches } from './features';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';

const ws = (appProperties: Record<string, string>) => ({ appProperties });
const link = (href = 'http://x/api/y') => ({ href });

describe('datasetActions (DATASET_ACTIONS, HIDE_DATASET_EXPORT)', () => {
  it('defaults to every action in the spec order', () => {
    expect(datasetActions(undefined)).toEqual(['star', 'share', 'watch', 'table', 'save', 'export']);
    expect(datasetActions(ws({}))).toEqual([...DATASET_ACTIONS]);
  });
  it('selects and orders, case-insensitively, ignoring unknown names and repeats', () => {
    expect(datasetActions(ws({ DATASET_ACTIONS: 'Export, STAR ,bogus,,share,star' }))).toEqual(['export', 'star', 'share']);
  });
  it('set but naming nothing shows no action', () => {
    expect(datasetActions(ws({ DATASET_ACTIONS: '' }))).toEqual([]);
    expect(datasetActions(ws({ DATASET_ACTIONS: 'like,comment' }))).toEqual([]);
  });
  it('HIDE_DATASET_EXPORT=true hides Export, any other value does not', () => {
    expect(datasetActions(ws({ HIDE_DATASET_EXPORT: ' TRUE ' }))).not.toContain('export');
    expect(datasetActions(ws({ DATASET_ACTIONS: 'export,star', HIDE_DATASET_EXPORT: 'true' }))).toEqual(['star']);
    expect(datasetActions(ws({ HIDE_DATASET_EXPORT: 'false' }))).toContain('export');
  });
  it('is a duplicate-free subsequence of known actions for any text', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, hostileString, (actions, hide) => {
        const result = datasetActions(ws({ DATASET_ACTIONS: actions, HIDE_DATASET_EXPORT: hide }));
        expect(new Set(result).size).toBe(result.length);
        for (const action of result) expect(DATASET_ACTIONS).toContain(action);
      }),
    );
  });
  it('any permutation of the names comes back in that order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...DATASET_ACTIONS]), fc.boolean(), (names, upper) => {
        const text = names.map((n) => (upper ? n.toUpperCase() : n)).join(' , ');
        expect(datasetActions(ws({ DATASET_ACTIONS: text }))).toEqual(names);
      }),
    );
  });
  it('ignores inherited property names', () => {
    expect(datasetActions({ appProperties: Object.create({ DATASET_ACTIONS: 'star' }) as Record<string, string> })).toEqual([...DATASET_ACTIONS]);
  });
});

describe('datasetViewTabs (DATASET_VIEW_TABS)', () => {
  it('defaults to Discussion, Alerts, Related', () => {
    expect(datasetViewTabs(ws({}))).toEqual(['Discussion', 'Alerts', 'Related']);
  });
  it('is case-insensitive, ordered, unknown names ignored', () => {
    expect(datasetViewTabs(ws({ DATASET_VIEW_TABS: 'related, DISCUSSION,history' }))).toEqual(['Related', 'Discussion']);
  });
  it('set and empty hides the panel', () => {
    expect(datasetViewTabs(ws({ DATASET_VIEW_TABS: '' }))).toEqual([]);
    expect(datasetViewTabs(ws({ DATASET_VIEW_TABS: ' , ' }))).toEqual([]);
  });
  it('never more than 3, never a repeat, only known tabs', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('discussion', 'ALERTS', 'Related', 'x'), hostileString), { maxLength: 10 }), (names) => {
        const tabs = datasetViewTabs(ws({ DATASET_VIEW_TABS: names.join(',') }));
        expect(tabs.length).toBeLessThanOrEqual(3);
        expect(new Set(tabs).size).toBe(tabs.length);
        for (const tab of tabs) expect(DATASET_VIEW_TABS).toContain(tab);
      }),
    );
  });
});

describe('comments disabled text', () => {
  it('uses MEMBER_COMMENTS_READ_ONLY_MESSAGE, else the spec text', () => {
    expect(commentsDisabledText(ws({ MEMBER_COMMENTS_READ_ONLY_MESSAGE: ' Read only ' }))).toBe('Read only');
    expect(commentsDisabledText(ws({ MEMBER_COMMENTS_READ_ONLY_MESSAGE: '  ' }))).toBe('Comments are disabled for this workspace');
    expect(commentsDisabledText(undefined)).toBe('Comments are disabled for this workspace');
  });
});

describe('share', () => {
  it('offers Copy and Email always, the rest under their switches', () => {
    expect(shareTargets(featureSwitches('', undefined))).toEqual([...SHARE_TARGETS]);
    expect(shareTargets(featureSwitches('share_teams SHARE_MESSAGE', undefined))).toEqual(['copy', 'email', 'slack']);
    expect(shareTargets(featureSwitches('', { featuresDisabled: 'SHARE_SLACK' }))).toEqual(['copy', 'email', 'teams', 'message']);
  });
  it('builds the share URLs', () => {
    const url = 'https://app.test/l/w/dataset/a/b';
    expect(shareHref('copy', url, 'T')).toBeUndefined();
    expect(shareHref('email', url, 'Sales & more')).toBe(`mailto:?subject=Sales%20%26%20more&body=${encodeURIComponent(`Sales & more\n${url}`)}`);
    expect(shareHref('teams', url, 'T')).toBe(`https://teams.microsoft.com/share?href=${encodeURIComponent(url)}&msgText=T`);
    expect(shareHref('slack', url, 'T')).toBe('https://app.slack.com/client');
    expect(shareHref('message', url, 'T')).toBe(`sms:?body=${encodeURIComponent(`T ${url}`)}`);
  });
  it('a hostile title never adds a parameter or changes the scheme', () => {
    fc.assert(
      fc.property(hostileString, (title) => {
        const teams = shareHref('teams', 'https://a.test/x', title) ?? '';
        expect(teams.startsWith('https://teams.microsoft.com/share?href=')).toBe(true);
        expect(teams.split('&')).toHaveLength(2);
        const mail = shareHref('email', 'https://a.test/x', title) ?? '';
        expect(mail.startsWith('mailto:?subject=')).toBe(true);
        expect(mail.split('&')).toHaveLength(2);
      }),
    );
  });
});

describe('export', () => {
  const data = { _links: { self: link(), data: link() } };
  it('raw data as .txt, named by the alias', () => {
    expect(exportChoice({ id: 'd1', alias: 'sales/monthly', rawData: 'a,b', ...data })).toEqual({ kind: 'raw', fileName: 'sales-monthly.txt', text: 'a,b', mimeType: 'text/plain' });
  });
  it('the description as .md without a data link', () => {
    expect(exportChoice({ id: 'd1', alias: 'notes', description: '# Hi', _links: { self: link() } })).toMatchObject({ kind: 'description', fileName: 'notes.md', text: '# Hi' });
  });
  it('otherwise CSV; the id names it without an alias', () => {
    expect(exportChoice({ id: 'd1', alias: null, ...data })).toEqual({ kind: 'csv', fileName: 'd1.csv' });
  });
  it('safeFileName keeps names tame', () => {
    expect(safeFileName('../../etc/passwd')).toBe('etc-passwd');
    expect(safeFileName('a:b*c?"d<e>f|g\\h')).toBe('a-b-c-d-e-f-g-h');
    expect(safeFileName('...')).toBe('dataset');
    expect(safeFileName(undefined, 'x')).toBe('x');
  });
  it('any alias makes a non-empty name without separators, reserved characters or leading dots', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (alias) => {
        const name = safeFileName(alias);
        expect(name.length).toBeGreaterThan(0);
        expect(Array.from(name).length).toBeLessThanOrEqual(120);
        expect(name).not.toMatch(/[/\\:*?"<>|\u0000-\u001f]/);
        expect(name.startsWith('.')).toBe(false);
        expect(exportChoice({ id: 'i', alias, _links: { data: link() } }).fileName.endsWith('.csv')).toBe(true);
      }),
    );
  });
});

describe('like and watch state', () => {
  const viewer = { id: 'p1', email: 'Ada@Example.com' };
  it('liked when likedByProfiles names the viewer by id or email', () => {
    expect(isLikedBy({ likedByProfiles: [{ id: 'p1' }] }, viewer)).toBe(true);
    expect(isLikedBy({ likedByProfiles: [{ id: 'x', email: 'ada@example.com' }] }, viewer)).toBe(true);
    expect(isLikedBy({ likedByProfiles: [{ id: 'x', email: '' }] }, { id: 'p1', email: '' })).toBe(false);
    expect(isLikedBy({ likedByProfiles: null }, viewer)).toBe(false);
  });
  it('watch state comes from the subscription links', () => {
    expect(watchState({ _links: { 'delete subscription': link() } })).toBe('watching');
    expect(watchState({ _links: { 'add subscription': link() } })).toBe('notWatching');
    expect(watchState({ _links: {} })).toBe('unavailable');
    expect(watchState(undefined)).toBe('unavailable');
  });
  it('each action is enabled only by its link', () => {
    const none = { _links: {} };
    for (const action of DATASET_ACTIONS) expect(actionEnabled(action, none)).toBe(false);
    expect(actionEnabled('star', { _links: { 'like dataset': link() } })).toBe(true);
    expect(actionEnabled('table', { _links: { data: link() } })).toBe(true);
    expect(actionEnabled('watch', { _links: { 'add subscription': link() } })).toBe(true);
  });
  it('Save needs SAVE_LIST and the channels link', () => {
    const workspace = { _links: { channels: link() } };
    expect(canSaveToList(featureSwitches('', undefined), workspace)).toBe(true);
    expect(canSaveToList(featureSwitches('save_list', undefined), workspace)).toBe(false);
    expect(canSaveToList(featureSwitches('', undefined), { _links: {} })).toBe(false);
  });
});

describe('datasetSource', () => {
  it('reads the embedded source; only http(s) pictures', () => {
    expect(datasetSource({ _embedded: { source: { name: 'Sales', description: ' From CRM ', picture: 'https://x/p.png' } } })).toEqual({ name: 'Sales', description: 'From CRM', picture: 'https://x/p.png' });
    expect(datasetSource({ _embedded: { source: { description: 'd', picture: 'javascript:alert(1)' } } })).toEqual({ description: 'd' });
    expect(datasetSource({ _embedded: { source: null } })).toBeUndefined();
    expect(datasetSource({})).toBeUndefined();
    expect(datasetSource({ _embedded: Object.create({ source: { name: 'inherited' } }) as object })).toBeUndefined();
  });
});

describe('needsRows', () => {
  const data = { _links: { data: link() } };
  it('asks for rows with a data link, except for a mermaid diagram (drawn from rawData)', () => {
    expect(needsRows({ visualisation: '{"chartjs-chart":{"chartType":"bar"}}', ...data })).toBe(true);
    expect(needsRows({ visualisation: null, ...data })).toBe(true);
    expect(needsRows({ visualisation: '{"mermaid":{}}', ...data })).toBe(false);
    expect(needsRows({ visualisation: '{"html-table":{}}', _links: {} })).toBe(false);
  });
});

describe('shareCopiesLink', () => {
  it('copies the link for Copy and Slack only', () => {
    expect(['copy', 'email', 'teams', 'slack', 'message'].filter((target) => shareCopiesLink(target as (typeof SHARE_TARGETS)[number]))).toEqual(['copy', 'slack']);
  });
});

describe('the dataset page, at its edges', () => {
  it('a file name: spaces and emoji stay; DEL, lone surrogates and trailing dots go', () => {
    expect(safeFileName('a b')).toBe('a b');
    expect(safeFileName('a\u007fb')).toBe('a-b');
    expect(safeFileName('a\uD800b')).toBe('a-b');
    expect(safeFileName('a\uDFFFb')).toBe('a-b');
    expect(safeFileName('a\uE000b')).toBe('a\uE000b');
    expect(safeFileName('a😀b')).toBe('a😀b');
    expect(safeFileName('report..')).toBe('report');
  });

  it('empty raw data is not raw data; a description without text is empty markdown', () => {
    expect(exportChoice({ id: 'd1', alias: 'n', rawData: '', _links: {} })).toEqual({ kind: 'description', fileName: 'n.md', text: '', mimeType: 'text/markdown' });
  });

  it('starred by email: trimmed on both sides, and never by a missing email', () => {
    expect(isLikedBy({ likedByProfiles: [{ id: 'x', email: ' ada@example.com ' }] }, { id: 'p1', email: ' ADA@example.com ' })).toBe(true);
    expect(isLikedBy({ likedByProfiles: [{ id: 'x' }] }, { id: 'p1' })).toBe(false);
    expect(isLikedBy({ likedByProfiles: [{ id: 'p1' }] }, { id: 'p1' })).toBe(true);
  });

  it('share and save are enabled by the self link', () => {
    const withSelf = { _links: { self: link() } };
    expect(actionEnabled('share', withSelf)).toBe(true);
    expect(actionEnabled('save', withSelf)).toBe(true);
    expect(actionEnabled('share', { _links: {} })).toBe(false);
    expect(actionEnabled('save', { _links: {} })).toBe(false);
  });

  it('the source: null or blank parts are none, only http(s) pictures at the start, no empty keys', () => {
    expect(datasetSource({ _embedded: null })).toBeUndefined();
    expect(datasetSource({ _embedded: { source: null } })).toBeUndefined();
    expect(datasetSource({ _embedded: { source: { name: '  ', description: ' ' } } })).toBeUndefined();
    expect(datasetSource({ _embedded: { source: { picture: 'javascript:alert("http://x")' } } })).toBeUndefined();
    expect(datasetSource({ _embedded: { source: { picture: 'http://x/p.png' } } })).toEqual({ picture: 'http://x/p.png' });
    const named = datasetSource({ _embedded: { source: { name: ' Sales ' } } });
    expect(named).toEqual({ name: 'Sales' });
    expect(Object.keys(named ?? {})).toEqual(['name']);
    expect(Object.keys(datasetSource({ _embedded: { source: { description: 'd' } } }) ?? {})).toEqual(['description']);
    expect(Object.keys(datasetSource({ _embedded: { source: { picture: 'https://x/p.png' } } }) ?? {})).toEqual(['picture']);
  });
});
