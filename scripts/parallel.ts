// Runs npm scripts side by side (each line prefixed with its script's name) and fails when any
// fails. Lanes are independent: every API and runner test makes its own database, and the e2e
// suite its own server on a free port.
import { spawn } from 'node:child_process';
import readline from 'node:readline';

const lanes = process.argv.slice(2).map((lane) => lane.split('+'));
if (lanes.length === 0) throw new Error('usage: node --import tsx scripts/parallel.ts script[+script…] …');

const outcomes: string[] = [];
// Lines that name a failure (vitest's FAIL and ×, Playwright's ✘, tsc's and eslint's errors).
const failureLine = /\bFAIL\b|×|✘|error TS\d+|\d+:\d+\s+error\s/;
const failures: string[] = [];
// The first lines of each failed script's own failure report (vitest's 'Failed Tests' section,
// Playwright's numbered errors), repeated at the end with the summary so they survive the cut.
const DETAIL_START = /Failed Tests \d+|^\s+1\) /;
const DETAIL_LINES = 60;
const details = new Map<string, string[]>();

function run(script: string): Promise<boolean> {
  return new Promise((resolve) => {
    const started = Date.now();
    // plain text: CI keeps the log as text, where colour codes only get in the way
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        console.log(`[${script}] ${line}`);
        if (failureLine.test(line) && failures.length < 40) failures.push(`[${script}] ${line}`);
        const detail = details.get(script) ?? (DETAIL_START.test(line) ? [] : undefined);
        if (detail && detail.length < DETAIL_LINES) details.set(script, [...detail, `[${script}] ${line}`]);
      });
    }
    child.on('close', (code) => {
      const outcome = `[${script}] ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s`;
      outcomes.push(outcome);
      console.log(outcome);
      resolve(code === 0);
    });
  });
}

// Scripts joined with '+' run one after another in their lane; each runs even after one fails,
// so one run reports on every suite.
async function lane(scripts: string[]): Promise<boolean> {
  let passed = true;
  for (const script of scripts) passed = (await run(script)) && passed;
  return passed;
}

const results = await Promise.all(lanes.map(lane));
// Repeated at the end because CI keeps only the tail of a long, interleaved log.
for (const lines of details.values()) console.log(['', ...lines].join('\n'));
console.log(['', 'Summary:', ...outcomes, ...(failures.length ? ['', 'Failures:', ...failures] : [])].join('\n'));
process.exit(results.every(Boolean) ? 0 : 1);
