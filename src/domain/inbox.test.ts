import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import { formatNotificationTime, groupByDay, localDay, notificationTarget, routableObject, shortCommitId, typeLabel } from './inbox';
import type { Notification } from './resources';

const W = '00000000-0000-4000-8000-000000000001';
const note = (over: Partial<Notification> & Record<string, unknown>): Notification => ({ id: 'n', type: 'DATASET_MESSAGE', resolved: false, created: '2026-11-23T10:00:00Z', _links: {}, ...over });

describe('time and labels', () => {
  it('writes YYYY-MM-DD HH:mm in local time', () => {
    expect(formatNotificationTime(new Date(2026, 0, 2, 3, 4).toISOString())).toBe('2026-01-02 03:04');
  });

  it('answers empty text for unreadable timestamps and never throws', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        const out = formatNotificationTime(text);
        expect(out === '' || /^-?\d+-\d{2}-\d{2} \d{2}:\d{2}$/.test(out)).toBe(true);
      }),
    );
  });

  it('labels the spec types and reads anything else as Activity', () => {
    expect(typeLabel('DATASET_MESSAGE')).toBe('Message');
    expect(typeLabel('JOB_ENDED')).toBe('Job ended');
    fc.assert(fc.property(hostileString.filter((s) => !/^[A-Z_]+$/.test(s)), (type) => {
      expect(typeLabel(type)).toBe('Activity');
    }));
  });

  it('shortens commit ids to 7 characters', () => {
    expect(shortCommitId('0123456789abcdef')).toBe('0123456');
    expect(shortCommitId(null)).toBe('');
    fc.assert(fc.property(hostileString, (id) => {
      expect(shortCommitId(id)).toBe(id.slice(0, 7));
    }));
  });
});

describe('groupByDay', () => {
  it('keeps every item, in order, in runs of one local day each', () => {
    const time = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    fc.assert(
      fc.property(fc.array(fc.oneof(time, hostileString), { maxLength: 30 }), (created) => {
        const items = created.map((c, i) => ({ created: c, i }));
        const groups = groupByDay(items);
        expect(groups.flatMap((g) => g.items)).toEqual(items);
        for (const group of groups) for (const item of group.items) expect(localDay(item.created)).toBe(group.day);
        for (let k = 1; k < groups.length; k++) expect(groups[k]!.day).not.toBe(groups[k - 1]!.day);
      }),
    );
  });
});

describe('notificationTarget and routableObject', () => {
  it('sends dataset types to the dataset by alias, else id; pipeline types to the Lab', () => {
    expect(notificationTarget(note({ _embedded: { dataset: { id: 'd1', alias: 'sales/q1', workspaceId: W } } }), 'other')).toBe(`/l/${W}/dataset/sales/q1`);
    expect(notificationTarget(note({ _embedded: { dataset: { id: 'd1' } } }), W)).toBe(`/l/${W}/dataset/d1`);
    expect(notificationTarget(note({ type: 'PIPELINE_ACTIVITY' }), W)).toBe(`/lab/${W}/pipelines`);
    expect(notificationTarget(note({ type: 'JOB_ENDED', _embedded: { pipeline: { id: 'p' } } }), W)).toBe(`/lab/${W}/pipelines`);
    expect(notificationTarget(note({ type: 'JOB_ENDED' }), W)).toBeNull();
    expect(notificationTarget(note({ type: 'WORKSPACE_INVITATION' }), W)).toBeNull();
  });

  it('routes by the dataset, else the pipeline, else nothing', () => {
    expect(routableObject(note({ _embedded: { dataset: { id: 'd', title: 'Sales' }, pipeline: { id: 'p' } } }))).toEqual({ objectType: 'DATASET', objectId: 'd', name: 'Sales' });
    expect(routableObject(note({ _embedded: { pipeline: { id: 'p', name: 'Load' } } }))).toEqual({ objectType: 'PIPELINE', objectId: 'p', name: 'Load' });
    expect(routableObject(note({}))).toBeNull();
  });

  it('answers only app paths for hostile types and aliases, never another origin', () => {
    fc.assert(
      fc.property(hostileString, hostileString, (type, alias) => {
        const target = notificationTarget(note({ type, _embedded: { dataset: { id: 'd', alias }, pipeline: { id: 'p' } } }), W);
        if (target !== null) {
          expect(target.startsWith('/')).toBe(true);
          expect(new URL(target, 'https://app.example').origin).toBe('https://app.example');
        }
      }),
    );
  });
});
