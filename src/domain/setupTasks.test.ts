import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge, wellFormed } from './hostile.fixture';
import { hasUnfinishedProfileJob } from './landing';
import { JOB_STATUSES } from './resources';
import { parseRoute } from './routes';
import { isSetupTaskJob, isSetupTaskType, isTaskInProgress, orderTasks, PUBLISH_DOCS_URL, SETUP_TASK_TYPES, shortCommitId, taskStatusLabel, taskTarget, taskTitle } from './setupTasks';

describe('setup tasks', () => {
  it('RUNNING and QUEUED are in progress; every other status counts as completed', () => {
    expect(JOB_STATUSES.filter(isTaskInProgress).sort()).toEqual(['QUEUED', 'RUNNING']);
  });

  it('shows a commit id as its first 7 characters, and nothing without one', () => {
    expect(shortCommitId('0123456789abcdef0123456789abcdef01234567')).toBe('0123456');
    expect(shortCommitId('abc')).toBe('abc');
    expect(shortCommitId(null)).toBeUndefined();
    expect(shortCommitId('   ')).toBeUndefined();
  });

  it('names the five types and calls anything else Other job', () => {
    expect(new Set(SETUP_TASK_TYPES.map(taskTitle)).size).toBe(5);
    expect(taskTitle('PROFILE_INIT')).toBe('Other job');
    expect(taskTitle('PIPELINE_RUN')).toBe('Other job');
  });

  it('leads each card where spec 001 §2 says', () => {
    expect(taskTarget({ type: 'PROFILE_IMPORT' }, 'w1')).toEqual({ kind: 'internal', path: '/lab/w1/pipelines' });
    expect(taskTarget({ type: 'PROFILE_COLLABORATE' }, 'w1')).toEqual({ kind: 'internal', path: '/l/w1/invitations' });
    // issue 38: Publish opens the dataset editor, the documentation beside it
    expect(taskTarget({ type: 'PROFILE_PUBLISH' }, 'w1')).toEqual({ kind: 'internal', path: '/lab/w1/datasets?edit=new', docs: PUBLISH_DOCS_URL });
    expect([taskStatusLabel('QUEUED'), taskStatusLabel('RUNNING'), taskStatusLabel('COMPLETE'), taskStatusLabel('ERROR')]).toEqual(['To do', 'In progress', 'Done', 'ERROR']);
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_PIPELINE', _embedded: { pipeline: { id: 'p1' } } }, 'w1')).toEqual({ kind: 'internal', path: '/lab/w1/pipelines/p1?validate=true' });
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_DATASTORE', _embedded: { datastore: { id: 'd1' } } }, 'w1')).toEqual({ kind: 'internal', path: '/lab/w1/datastores/d1?validate=true' });
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_PIPELINE', _embedded: null }, 'w1')).toEqual({ kind: 'none' });
    expect(taskTarget({ type: 'PROFILE_INIT' }, 'w1')).toEqual({ kind: 'none' });
  });

  it('the landing rule agrees with the cards: any unfinished PROFILE_ job is a setup task', () => {
    for (const type of SETUP_TASK_TYPES) {
      expect(isSetupTaskJob({ type })).toBe(true);
      expect(hasUnfinishedProfileJob([{ type, status: 'QUEUED' }])).toBe(true);
      expect(hasUnfinishedProfileJob([{ type, status: 'COMPLETE' }])).toBe(false);
    }
  });

  it('puts open tasks first, newest first within each group', () => {
    const tasks = [
      { id: 'a', status: 'COMPLETE', created: '2026-01-03' },
      { id: 'b', status: 'QUEUED', created: '2026-01-01' },
      { id: 'c', status: 'RUNNING', created: '2026-01-02' },
      { id: 'd', status: 'ERROR', created: '2026-01-04' },
    ];
    expect(orderTasks(tasks).map((t) => t.id)).toEqual(['c', 'b', 'd', 'a']);
  });
});

describe('setup tasks with hostile input', () => {
  it('a short commit id is a prefix of at most 7 characters and never throws', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        const short = shortCommitId(text);
        if (short !== undefined) {
          expect(short.length).toBeLessThanOrEqual(7);
          expect(text.trim().startsWith(short)).toBe(true);
        }
      }),
    );
  });

  it('a card never leads out of its workspace: an internal target parses as a route of that workspace, or is the root', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SETUP_TASK_TYPES, 'PROFILE_X'), hostileString, hostileString, (type, workspaceId, subjectId) => {
        const target = taskTarget({ type, _embedded: { pipeline: { id: subjectId }, datastore: { id: subjectId } } }, workspaceId);
        if (target.kind !== 'internal') return;
        const match = parseRoute(target.path);
        if (target.path === '/') return;
        expect(match).toBeDefined();
        expect((match?.params as { workspaceId?: string }).workspaceId).toBe(wellFormed(workspaceId));
      }),
    );
  });

  it('ordering keeps every task, whatever the statuses', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ status: hostileString, created: hostileString })), (tasks) => {
        const ordered = orderTasks(tasks);
        expect(ordered).toHaveLength(tasks.length);
        const firstDone = ordered.findIndex((t) => !isTaskInProgress(t.status));
        if (firstDone >= 0) expect(ordered.slice(firstDone).every((t) => !isTaskInProgress(t.status))).toBe(true);
      }),
    );
  });
});

describe('setup tasks, checked by hand', () => {
  it('titles each type in its own words', () => {
    expect(['PROFILE_IMPORT', 'PROFILE_COLLABORATE', 'PROFILE_PUBLISH', 'PROFILE_CONFIGURE_PIPELINE', 'PROFILE_CONFIGURE_DATASTORE'].map(taskTitle)).toEqual([
      'Import your data',
      'Invite your team',
      'Publish a dataset',
      'Finish configuring a pipeline',
      'Finish configuring a data store',
    ]);
    expect(isSetupTaskType('PROFILE_PUBLISH')).toBe(true);
    expect(isSetupTaskType('PROFILE_INIT')).toBe(false);
    expect(isSetupTaskType('profile_publish')).toBe(false);
  });

  it('counts only a type starting with PROFILE_ as a setup task', () => {
    expect(isSetupTaskJob({ type: 'PROFILE_INIT' })).toBe(true);
    for (const type of ['PIPELINE_RUN', 'profile_import', 'X_PROFILE_IMPORT', 'PROFILE', '']) expect(isSetupTaskJob({ type })).toBe(false);
  });

  it('shows the first 7 characters of the trimmed commit id', () => {
    expect(shortCommitId('  0123456789  ')).toBe('0123456');
    expect(shortCommitId(' abc ')).toBe('abc');
    expect(shortCommitId(undefined)).toBeUndefined();
    expect(shortCommitId('')).toBeUndefined();
  });

  it('leads a configure card nowhere without its subject', () => {
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_DATASTORE', _embedded: null }, 'w1')).toEqual({ kind: 'none' });
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_DATASTORE', _embedded: { datastore: null } }, 'w1')).toEqual({ kind: 'none' });
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_DATASTORE', _embedded: { datastore: { id: '' } } }, 'w1')).toEqual({ kind: 'none' });
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_PIPELINE' }, 'w1')).toEqual({ kind: 'none' });
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_PIPELINE', _embedded: { pipeline: { id: '' } } }, 'w1')).toEqual({ kind: 'none' });
    // each card reads its own subject
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_PIPELINE', _embedded: { datastore: { id: 'd1' } } }, 'w1')).toEqual({ kind: 'none' });
    expect(taskTarget({ type: 'PROFILE_CONFIGURE_DATASTORE', _embedded: { pipeline: { id: 'p1' } } }, 'w1')).toEqual({ kind: 'none' });
  });

  it('orders open tasks first, newest first, and keeps the order of tasks created together', () => {
    const tasks = [
      { id: 'a', status: 'COMPLETE', created: '2026-01-02' },
      { id: 'b', status: 'COMPLETE', created: '2026-01-02' },
      { id: 'c', status: 'COMPLETE', created: '2026-01-03' },
      { id: 'd', status: 'QUEUED', created: '2026-01-01' },
      { id: 'e', status: 'RUNNING', created: '2026-01-01' },
      { id: 'f', status: 'QUEUED', created: '2026-01-05' },
    ];
    expect(orderTasks(tasks).map((t) => t.id)).toEqual(['f', 'd', 'e', 'c', 'a', 'b']);
    expect(orderTasks([...tasks].reverse()).map((t) => t.id)).toEqual(['f', 'e', 'd', 'c', 'b', 'a']);
    expect(tasks.map((t) => t.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});
