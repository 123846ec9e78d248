import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STALE_UPLOAD_MS, sweepStaleUploads } from './uploadSpool';

describe('sweepStaleUploads', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  const folder = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spool-'));
    dirs.push(dir);
    return dir;
  };
  const file = (dir: string, name: string, ageMs: number) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, 'bytes');
    const at = new Date(Date.now() - ageMs);
    fs.utimesSync(p, at, at);
    return p;
  };

  it('removes the spool files left unwritten past the limit and keeps those being written and anything else', () => {
    const dir = folder();
    const stale = file(dir, 'upload-aaa', STALE_UPLOAD_MS + 60_000);
    const live = file(dir, 'upload-bbb', 5_000);
    const other = file(dir, 'notes.txt', STALE_UPLOAD_MS * 3);
    fs.mkdirSync(path.join(dir, 'upload-folder'));
    expect(sweepStaleUploads(dir)).toBe(1);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'upload-folder'))).toBe(true);
  });

  it('a link named like a spool file is left alone, its target never touched', () => {
    const dir = folder();
    const target = file(folder(), 'precious', 0);
    const link = path.join(dir, 'upload-link');
    fs.symlinkSync(target, link);
    const at = new Date(Date.now() - STALE_UPLOAD_MS * 2);
    fs.lutimesSync(link, at, at);
    sweepStaleUploads(dir);
    expect(fs.readFileSync(target, 'utf8')).toBe('bytes');
  });

  it('a data directory without uploads is nothing to do', () => {
    expect(sweepStaleUploads(path.join(folder(), 'uploads'))).toBe(0);
  });
});
