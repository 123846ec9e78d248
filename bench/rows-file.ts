// The rows every loading path of the bench pushes: one CSV file, written once per run, read by
// tap-files, by the bench's Singer tap for Meltano (bench/fixtures/tap-bench-csv) and by COPY.
import fs from 'node:fs';
import path from 'node:path';

/** The stream (and table) name both taps give the file: its name without extension. */
export const ROWS_STREAM = 'bench_rows';

/** The table target-store makes of the file (integer, number and text columns, keyed by id), for COPY. */
export const ROWS_COLUMNS = 'id bigint PRIMARY KEY, label text, amount double precision, at text';

/** Writes `rows` rows (id, label, amount, at) to `dir/bench_rows.csv`; returns the file's path. */
export function writeRowsFile(dir: string, rows: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${ROWS_STREAM}.csv`);
  const start = Date.UTC(2024, 0, 1);
  const lines = ['id,label,amount,at'];
  for (let id = 1; id <= rows; id++) {
    // a label of varying text, an amount with and without decimals, a timestamp a minute apart
    lines.push(`${id},item ${((id * 2654435761) % 4294967296).toString(16)},${(id % 1000) * 1.5},${new Date(start + id * 60_000).toISOString()}`);
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
