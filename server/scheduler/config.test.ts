import { describe, expect, it } from 'vitest';
import { loadSchedulerSettings } from './config';

describe('loadSchedulerSettings', () => {
  it('defaults to on, every 10 s', () => {
    expect(loadSchedulerSettings({})).toEqual({ enabled: true, intervalMs: 10_000 });
  });

  it('reads the settings and refuses values out of range with the setting named', () => {
    expect(loadSchedulerSettings({ SCHEDULER_ENABLED: 'false', SCHEDULER_INTERVAL_MS: '250' })).toEqual({ enabled: false, intervalMs: 250 });
    expect(() => loadSchedulerSettings({ SCHEDULER_INTERVAL_MS: '10' })).toThrow(/SCHEDULER_INTERVAL_MS/);
    expect(() => loadSchedulerSettings({ SCHEDULER_INTERVAL_MS: 'soon' })).toThrow(/SCHEDULER_INTERVAL_MS/);
    expect(() => loadSchedulerSettings({ SCHEDULER_ENABLED: 'yes' })).toThrow(/SCHEDULER_ENABLED/);
  });
});
