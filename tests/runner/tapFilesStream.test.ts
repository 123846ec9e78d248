import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_BIN_DIR } from '../../server/plugins/catalogue';

// tap-files streams (issue 39): a CSV far larger than the tap's heap loads record by record, with
// the exact count, and a bad row is named by file and line and skipped. The tap runs as a job runs
// it, a process of its own, with a V8 heap of 64 MB: reading the file whole, as it did, fails.

const ROWS = 400_000;
const HEAP_MB = 64;
let dir: string;
let file: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tap-files-stream-'));
  file = path.join(dir, 'big.csv');
  const out = fs.createWriteStream(file);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve())));
  await write('id,name,amount,note\n');
  const filler = 'x'.repeat(80);
  for (let i = 1; i <= ROWS; i++) {
    await write(`${i},"name ${i}, quoted",${(i % 1000) / 10},${filler}\n`);
    // one bad row: more fields than the header
    if (i === 10) await write('11,too,many,fields,here\n');
  }
  await new Promise<void>((resolve) => out.end(resolve));
}, 120_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('tap-files on a file larger than its memory', () => {
  it('sends every record, counts them exactly, names the bad row, and stays within its heap', async () => {
    expect(fs.statSync(file).size).toBeGreaterThan(40 * 1024 * 1024);
    const config = path.join(dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ paths: ['big.csv'] }));
    const child = spawn(path.join(PLUGIN_BIN_DIR, 'tap-files'), ['--config', config], {
      cwd: dir,
      env: { PATH: process.env.PATH, MELTANO_PROJECT_ROOT: dir, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let peakKb = 0;
    const watch = setInterval(() => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakKb = Math.max(peakKb, kb);
      } catch {
        // the process has ended
      }
    }, 200);
    const log: string[] = [];
    child.stderr.setEncoding('utf8').on('data', (text: string) => log.push(text));
    let records = 0;
    let schema: unknown;
    for await (const line of readline.createInterface({ input: child.stdout, crlfDelay: Infinity })) {
      if (line.startsWith('{"type":"RECORD"')) records++;
      else if (line.startsWith('{"type":"SCHEMA"')) schema = (JSON.parse(line) as { schema: unknown }).schema;
    }
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearInterval(watch);
    expect(code, log.join('')).toBe(0);
    expect(records).toBe(ROWS);
    expect(schema).toEqual({ type: 'object', properties: { id: { type: ['integer', 'null'] }, name: { type: ['string', 'null'] }, amount: { type: ['number', 'null'] }, note: { type: ['string', 'null'] } } });
    expect(log.join('')).toContain('big.csv line 12 has 5 fields, the header 4: skipped');
    expect(log.join('')).toContain(`big: ${ROWS} records from big.csv (1 bad rows skipped)`);
    // the file is over 40 MB; the process never held more than its heap and Node's own
    expect(peakKb).toBeLessThan(160 * 1024);
  }, 300_000);
});
