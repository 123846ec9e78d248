// Where a pipeline job's time went, read from its own log: every line carries the time the runner
// received it, so the lines each step prints (the runner's, Meltano's, the plugins') mark when it
// began and ended. `npm run bench` compares the built-in path with Meltano's on these marks.

export interface LoggedLine {
  timestamp: Date;
  message: string;
}

/** A pipeline job cut at its marks, in seconds; what a path has no mark for is left out. */
export interface JobPhases {
  /** from the job's start to its run step: Meltano's provisioning or cache check, the store proxy, the plugins' install */
  beforeRun: number;
  /** Meltano's own line when this job installed Meltano into the runner's cache */
  provisioned?: number;
  /** the install step (`meltano-install-changed`): the pipeline's plugins into the workspace */
  install?: number;
  /** from the run step's start to the first row: processes up, the file read and typed, the table ready */
  start: number;
  /** from the first row to the pipeline's end (its last row stored, the state written) */
  rows: number;
  /** from the pipeline's end to the job's: the state into the database, the rows counted */
  after: number;
}

/** The lines that end each phase of a path's job. */
export interface Marks {
  /** the run step starts after this line */
  runStart: RegExp;
  /** the first row flows once every one of these has been logged (after runStart) */
  firstRow: RegExp[];
  /** the pipeline's last line */
  runEnd: RegExp;
}

/** tap-files → target-store: the shim `meltano` runs them; target-store names the table once the tap's SCHEMA came. */
export const BUILT_IN_MARKS: Marks = {
  runStart: /^Sandbox: /,
  firstRow: [/^target-store \| stream \S+ → table /],
  runEnd: /^meltano \| .* done, state saved/,
};

/**
 * Meltano's `meltano run`: the tap says it begins its stream (after its discovery and typing the
 * file) and target-postgres its version once imported; rows flow once both are up.
 */
export const MELTANO_MARKS: Marks = {
  runStart: /^Plugins installed\. Running the pipeline\./,
  firstRow: [/ Beginning (\w+ )?sync of /, / target-postgres v\d/],
  runEnd: / Block run completed/,
};

const JOB_START = /^Job started on /;
const JOB_END = /^Job ended /;
const INSTALL_START = /^Installing the pipeline's Python plugins/;
const PROVISIONED = /^Meltano [\d.]+ installed in ([\d.]+) s\./;

function indexOf(lines: readonly LoggedLine[], pattern: RegExp, from = 0): number {
  return lines.findIndex((line, i) => i >= from && pattern.test(line.message));
}

const between = (from: LoggedLine, to: LoggedLine) => (to.timestamp.getTime() - from.timestamp.getTime()) / 1000;

/** The phases of a finished job's log, or a sentence naming the mark it lacks (a plugin changed its lines). */
export function jobPhases(lines: readonly LoggedLine[], marks: Marks): JobPhases | string {
  const at = (name: string, pattern: RegExp, from = 0): number => {
    const index = indexOf(lines, pattern, from);
    if (index < 0) throw new Error(`the job's log has no ${name} line (${String(pattern)})`);
    return index;
  };
  try {
    const jobStart = at('job start', JOB_START);
    const runStart = at('run step', marks.runStart, jobStart);
    const firstRow = Math.max(...marks.firstRow.map((pattern) => at('first row', pattern, runStart)));
    const runEnd = at('pipeline end', marks.runEnd, firstRow);
    const jobEnd = at('job end', JOB_END, runEnd);
    const installStart = indexOf(lines.slice(0, runStart), INSTALL_START, jobStart);
    const provisioned = lines.slice(jobStart, runStart).map((line) => PROVISIONED.exec(line.message)?.[1]).find((s) => s !== undefined);
    const line = (index: number) => lines[index]!;
    return {
      beforeRun: between(line(jobStart), line(runStart)),
      ...(provisioned === undefined ? {} : { provisioned: Number(provisioned) }),
      ...(installStart < 0 ? {} : { install: between(line(installStart), line(runStart)) }),
      start: between(line(runStart), line(firstRow)),
      rows: between(line(firstRow), line(runEnd)),
      after: between(line(runEnd), line(jobEnd)),
    };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
