import fs from 'node:fs';
import { sql, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { installedVersion, isOwnTemplate, readTemplate, saveTemplate, templateFile, templateKey } from './memoryTemplate';

const versions = { pglite: '0.3.0', kysely: '0.28.0' };
const migrations: Record<string, Migration> = {
  '001_a': { up: async (db) => void (await sql`CREATE TABLE a (x int)`.execute(db)) },
  '002_b': { up: async (db) => void (await sql`CREATE TABLE b (y int)`.execute(db)) },
};

describe('templateKey', () => {
  it('is the same for the same migrations and versions', () => {
    expect(templateKey(versions, migrations)).toBe(templateKey({ ...versions }, { ...migrations }));
  });

  it('changes with the text of any migration, its name, a new one, or either version', () => {
    const keys = [
      templateKey(versions, migrations),
      templateKey(versions, { ...migrations, '002_b': { up: async (db) => void (await sql`CREATE TABLE b (y bigint)`.execute(db)) } }),
      templateKey(versions, { ...migrations, '002_b': { ...migrations['002_b']!, down: async (db) => void (await sql`DROP TABLE b`.execute(db)) } }),
      templateKey(versions, { '001_a': migrations['001_a']!, '003_b': migrations['002_b']! }),
      templateKey(versions, { ...migrations, '003_c': migrations['001_a']! }),
      templateKey({ ...versions, pglite: '0.3.1' }, migrations),
      templateKey({ ...versions, kysely: '0.28.1' }, migrations),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the template file', () => {
  const key = `test-${process.pid}-${Date.now()}`;

  it('is read back whole once saved, and nothing is left aside', async () => {
    try {
      await saveTemplate(key, new Blob(['dump bytes']));
      expect(await (await readTemplate(key))?.text()).toBe('dump bytes');
      expect(fs.statSync(templateFile(key)).mode & 0o777).toBe(0o600);
      expect(fs.existsSync(`${templateFile(key)}.${process.pid}.making`)).toBe(false);
    } finally {
      fs.rmSync(templateFile(key), { force: true });
    }
  });

  it('is not there before it is made', async () => {
    expect(await readTemplate(`${key}-never`)).toBeUndefined();
  });

  it('is not used when others may write it (the temporary directory is shared)', async () => {
    try {
      await saveTemplate(key, new Blob(['planted']));
      fs.chmodSync(templateFile(key), 0o622);
      expect(await readTemplate(key)).toBeUndefined();
      fs.chmodSync(templateFile(key), 0o660);
      expect(await readTemplate(key)).toBeUndefined();
    } finally {
      fs.rmSync(templateFile(key), { force: true });
    }
  });
});

describe('installedVersion', () => {
  it('reads the version the lock file installed, from a package whose entry is nested (kysely: dist/esm)', () => {
    const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version: string }> };
    expect(installedVersion('kysely')).toBe(lock.packages['node_modules/kysely']!.version);
    expect(installedVersion('@electric-sql/pglite')).toBe(lock.packages['node_modules/@electric-sql/pglite']!.version);
  });
});

describe('isOwnTemplate (the stores\' empty cluster is a directory, the app\'s dump a file)', () => {
  it("takes a directory only this user may write, and no other", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'own-template-'));
    try {
      expect(isOwnTemplate(dir)).toBe(true);
      fs.chmodSync(dir, 0o770);
      expect(isOwnTemplate(dir)).toBe(false);
      fs.chmodSync(dir, 0o707);
      expect(isOwnTemplate(dir)).toBe(false);
      fs.chmodSync(dir, 0o755);
      expect(isOwnTemplate(dir)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is false for a name nobody made', () => {
    expect(isOwnTemplate(path.join(os.tmpdir(), `never-made-${process.pid}-${Date.now()}`))).toBe(false);
  });

  // CI runs as root, which alone can give a file away: planted by another user, it is not ours
  it.runIf(process.getuid?.() === 0)("refuses one another user owns, whatever its mode", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'planted-template-'));
    try {
      fs.chownSync(dir, 65534, 65534);
      expect(isOwnTemplate(dir)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
