// Runs npm scripts side by side (each line prefixed with its script's name) and fails when any
// fails. Lanes are independent: every API and runner test makes its own database, and the e2e
// suite its own server on a free port.
import { spawn } from 'node:child_process';
import readline from 'node:readline';

const lanes = process.argv.slice(2).map((lane) => lane.split('+'));
if (lanes.length === 0) throw new Error('usage: node --import tsx scripts/parallel.ts script[+script…] …');

function run(script: string): Promise<boolean> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => console.log(`[${script}] ${line}`));
    }
    child.on('close', (code) => {
      console.log(`[${script}] ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${Math.round((Date.now() - started) / 1000)} s`);
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
process.exit(results.every(Boolean) ? 0 : 1);
