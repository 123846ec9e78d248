import { describe, expect, it } from 'vitest';
import { openLineageEventItemSchema, openLineageEventsSchema } from './openLineageResources';

const item = {
  id: 'e1',
  kind: 'RUN',
  eventType: 'COMPLETE',
  subjectId: 'j1',
  eventTime: '2026-11-29T12:00:00.000Z',
  delivery: 'SENT',
  attempts: 0,
  lastError: null,
  sentAt: '2026-11-29T12:00:01.000Z',
  event: { eventType: 'COMPLETE' },
};

describe('openLineageEventItemSchema', () => {
  it('reads a run’s event and a publish’s event, with no attempts yet or several', () => {
    expect(openLineageEventItemSchema.parse(item)).toEqual(item);
    const publish = { ...item, kind: 'PUBLISH', eventType: 'JOB', delivery: 'PENDING', attempts: 3, lastError: 'timed out', sentAt: null, event: null };
    expect(openLineageEventItemSchema.parse(publish)).toEqual(publish);
  });

  it('refuses another kind and a negative count of attempts', () => {
    expect(openLineageEventItemSchema.safeParse({ ...item, kind: 'OTHER' }).success).toBe(false);
    expect(openLineageEventItemSchema.safeParse({ ...item, kind: '' }).success).toBe(false);
    expect(openLineageEventItemSchema.safeParse({ ...item, attempts: -1 }).success).toBe(false);
    expect(openLineageEventItemSchema.safeParse({ ...item, delivery: 'LOST' }).success).toBe(false);
  });
});

describe('openLineageEventsSchema', () => {
  it('holds the items under _embedded.events, each read as an item', () => {
    const page = { _embedded: { events: [item] }, page: { size: 20, totalElements: 1, totalPages: 1, number: 0 } };
    expect(openLineageEventsSchema.parse(page)).toEqual(page);
    expect(openLineageEventsSchema.safeParse({ _embedded: { events: [{ ...item, kind: 'OTHER' }] } }).success).toBe(false);
  });
});
