import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf, RESOURCE_CHUNK_BYTES, writeResource } from '../../server/repositories/workspaceResources';
import { placeWorkspaceFiles } from '../../server/runner/workspaceFiles';
import { startBench, type Bench } from './helpers';

// A workspace's files reach a job's project from the database (issue 42), as the database holds
// them, and never through a link the workspace's own jobs planted in its project.

let bench: Bench;
let project: string;
let outside: string;

beforeAll(async () => {
  bench = await startBench();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'files-project-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'files-outside-'));
});
afterAll(async () => {
  await bench?.close();
  for (const dir of [project, outside]) fs.rmSync(dir, { recursive: true, force: true });
});

async function store(filePath: string, body: string | Buffer, modified = new Date('2026-01-02T03:04:05.678Z')): Promise<void> {
  const written = await writeResource(bench.db, { workspaceId: bench.workspaceId, path: filePath, content: bytesOf(Buffer.from(body)), contentType: 'text/csv', profileId: null }, Number.POSITIVE_INFINITY);
  if (!written.ok) throw new Error(`${filePath} was not stored`);
  await bench.db.updateTable('workspace_resources').set({ last_modified: modified }).where('workspace_id', '=', bench.workspaceId).where('path', '=', filePath).execute();
}

describe('placeWorkspaceFiles', () => {
  it('writes each file at its path with its recorded time, keeps what the disk already holds, and refuses what would lead out or overwrite the runner’s own', async () => {
    await store('data/a.csv', 'id\n1\n');
    await store('top.csv', 'x\n');
    await store('meltano.yml', 'plugins: {}\n');
    await store('.meltano/runner-state/forged/state.json', '{}');
    await store('out/b.csv', 'id\n2\n');
    await store('linked.csv', 'id\n3\n');
    await store('repository/meltano.yml', 'plugins: {}\n');
    // the workspace's own jobs planted a link to a folder outside, and a link to a file outside
    fs.symlinkSync(outside, path.join(project, 'out'));
    fs.writeFileSync(path.join(outside, 'secret'), 'kept\n');
    fs.symlinkSync(path.join(outside, 'secret'), path.join(project, 'linked.csv'));

    const first = await placeWorkspaceFiles(bench.db, bench.workspaceId, project);
    expect(first.written).toBe(3);
    expect(first.refused).toEqual([
      '.meltano/runner-state/forged/state.json is in a hidden folder or is a hidden file, which the runner keeps for itself',
      'meltano.yml is written by the runner for each job',
      'out/b.csv out is a symbolic link',
      'repository/meltano.yml is inside the folder of the deployed repository',
    ]);
    expect(fs.readFileSync(path.join(project, 'data', 'a.csv'), 'utf8')).toBe('id\n1\n');
    expect(fs.statSync(path.join(project, 'data', 'a.csv')).mtime.toISOString()).toBe('2026-01-02T03:04:05.678Z');
    // the link was replaced by the file, never written through
    expect(fs.lstatSync(path.join(project, 'linked.csv')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(outside, 'secret'), 'utf8')).toBe('kept\n');
    expect(fs.readdirSync(outside)).toEqual(['secret']);
    expect(fs.existsSync(path.join(project, 'meltano.yml'))).toBe(false);

    const again = await placeWorkspaceFiles(bench.db, bench.workspaceId, project);
    expect([again.written, again.kept]).toEqual([0, 3]);

    // a job changed a file on this disk: the database's version comes back
    fs.writeFileSync(path.join(project, 'top.csv'), 'y\n');
    await store('data/a.csv', 'id\n1\n', new Date('2026-02-01T00:00:00.000Z'));
    const third = await placeWorkspaceFiles(bench.db, bench.workspaceId, project);
    expect([third.written, third.kept]).toEqual([2, 1]);
    expect(fs.readFileSync(path.join(project, 'top.csv'), 'utf8')).toBe('x\n');
    expect(fs.statSync(path.join(project, 'data', 'a.csv')).mtime.toISOString()).toBe('2026-02-01T00:00:00.000Z');
  });

  it('places a file of several chunks byte for byte', async () => {
    const big = Buffer.alloc(Math.floor(2.5 * RESOURCE_CHUNK_BYTES));
    for (let i = 0; i < big.length; i += 1) big[i] = (i * 31 + Math.floor(i / RESOURCE_CHUNK_BYTES)) & 255;
    await store('data/big.bin', big);
    await placeWorkspaceFiles(bench.db, bench.workspaceId, project);
    expect(fs.readFileSync(path.join(project, 'data', 'big.bin')).equals(big)).toBe(true);
  });
});
