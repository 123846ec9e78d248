import { describe, expect, it } from 'vitest';
import { FIRST_RUN_TEXTS, firstDatasetSteps, firstRunElapsed, firstRunEnding, firstRunFollowUpPath } from './firstRun';

describe('firstRun', () => {
  const now = Date.parse('2026-01-01T00:01:05Z');
  it('counts a queued run from its creation and a running one from its start', () => {
    expect(firstRunElapsed({ status: 'QUEUED', created: '2026-01-01T00:00:00Z', startTime: null }, now)).toBe('1 min 05 s');
    expect(firstRunElapsed({ status: 'RUNNING', created: '2026-01-01T00:00:00Z', startTime: '2026-01-01T00:00:58Z' }, now)).toBe('7 s');
    expect(firstRunElapsed({ status: 'RUNNING', created: '2026-01-01T00:00:00Z' }, now)).toBe('');
    expect(firstRunElapsed({ status: 'COMPLETE', startTime: '2026-01-01T00:00:01Z', endTime: '2026-01-01T00:00:16Z' }, now)).toBe('15 s');
  });
  it('says why a run ended', () => {
    // rows merged on their keys are said, not left to look like a lost count (issue 38)
    expect(firstRunEnding({ status: 'COMPLETE', rowsLoaded: 1234 })).toBe(`${FIRST_RUN_TEXTS.complete} 1,234 rows loaded. ${FIRST_RUN_TEXTS.rowsMerged}`);
    expect(firstRunEnding({ status: 'COMPLETE', rowsLoaded: 0 })).toBe(FIRST_RUN_TEXTS.complete);
    expect(firstRunEnding({ status: 'ERROR', exitCode: 2 })).toBe('The run ended with an error (exit code 2). Its log says why.');
    expect(firstRunEnding({ status: 'ERROR', exitCode: null })).toBe('The run ended with an error. Its log says why.');
    expect(firstRunEnding({ status: 'STOPPED' })).toMatch(/stopped/);
    expect(firstRunEnding({ status: 'SKIPPED' })).toBe('The run was skipped.');
  });
});

describe('firstRunFollowUpPath', () => {
  it("opens the run's log in the Lab, or the pipeline's form when there is no run", () => {
    expect(firstRunFollowUpPath('w1', 'p1', 'j1')).toBe('/lab/w1/pipelines?pipeline=p1&job=j1');
    expect(firstRunFollowUpPath('w1', 'p1', null)).toBe('/lab/w1/pipelines/p1?validate=true');
  });
});

describe('firstDatasetSteps', () => {
  it('leads an admin to the Lab and its catalogue, a member to the dataset catalogue', () => {
    const admin = { id: 'w1', _links: { 'update delete workspace': { href: '/api/workspaces/w1' } } };
    expect(firstDatasetSteps(admin).map((s) => s.kind)).toEqual(['import', 'plugins']);
    expect(firstDatasetSteps(admin)[1]?.path).toBe('/lab/w1/dataplugins');
    expect(firstDatasetSteps({ id: 'w1', _links: {} })).toEqual([{ kind: 'explore', path: '/l/w1/explore' }]);
  });
});

describe('firstRun, case by case', () => {
  const now = Date.parse('2026-01-01T00:01:05Z');

  it('counts a queued run up to now, whatever end time it carries', () => {
    expect(firstRunElapsed({ status: 'QUEUED', created: '2026-01-01T00:00:00Z', startTime: '2026-01-01T00:00:30Z', endTime: '2026-01-01T00:00:10Z' }, now)).toBe('1 min 05 s');
    expect(firstRunElapsed({ status: 'RUNNING', startTime: '2026-01-01T00:01:00Z', endTime: null }, now)).toBe('5 s');
  });

  it('counts rows only when they are a whole positive number', () => {
    expect(firstRunEnding({ status: 'COMPLETE', rowsLoaded: 1 })).toBe(`Complete: your data is in your workspace. 1 rows loaded. ${FIRST_RUN_TEXTS.rowsMerged}`);
    expect(firstRunEnding({ status: 'COMPLETE', rowsLoaded: 2.5 })).toBe('Complete: your data is in your workspace.');
    expect(firstRunEnding({ status: 'COMPLETE', rowsLoaded: Number.POSITIVE_INFINITY })).toBe('Complete: your data is in your workspace.');
    expect(firstRunEnding({ status: 'COMPLETE', rowsLoaded: -3 })).toBe('Complete: your data is in your workspace.');
    expect(firstRunEnding({ status: 'COMPLETE', rowsLoaded: null })).toBe('Complete: your data is in your workspace.');
    expect(firstRunEnding({ status: 'COMPLETE', rowsLoaded: 1234567, exitCode: 0 })).toBe(`Complete: your data is in your workspace. 1,234,567 rows loaded. ${FIRST_RUN_TEXTS.rowsMerged}`);
  });

  it('says an exit code only when it is a whole number', () => {
    expect(firstRunEnding({ status: 'ERROR', exitCode: 0 })).toBe('The run ended with an error (exit code 0). Its log says why.');
    expect(firstRunEnding({ status: 'ERROR', exitCode: -1 })).toBe('The run ended with an error (exit code -1). Its log says why.');
    expect(firstRunEnding({ status: 'ERROR', exitCode: 1.5 })).toBe('The run ended with an error. Its log says why.');
    expect(firstRunEnding({ status: 'ERROR', exitCode: Number.NaN })).toBe('The run ended with an error. Its log says why.');
    expect(firstRunEnding({ status: 'ERROR', rowsLoaded: 5 })).toBe('The run ended with an error. Its log says why.');
  });

  it('says each other ending in full', () => {
    expect(firstRunEnding({ status: 'STOPPED', exitCode: 137 })).toBe('The run was stopped: it ran out of time or someone stopped it.');
    expect(firstRunEnding({ status: 'SKIPPED', exitCode: 1 })).toBe('The run was skipped.');
    expect(firstRunEnding({ status: 'RUNNING' })).toBe('The run ended RUNNING.');
    expect(firstRunEnding({ status: 'ABORTED', exitCode: 3, rowsLoaded: 10 })).toBe('The run ended ABORTED (exit code 3).');
  });

  it("leads an admin to the Lab's pipelines and its plugin catalogue, in that order", () => {
    const admin = { id: 'w 1', _links: { 'update delete workspace': { href: '/api/workspaces/w1' } } };
    expect(firstDatasetSteps(admin)).toEqual([
      { kind: 'import', path: '/lab/w%201/pipelines' },
      { kind: 'plugins', path: '/lab/w%201/dataplugins' },
    ]);
  });
});
