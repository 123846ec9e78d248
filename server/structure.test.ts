import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The house's boundaries are lint rules (eslint.config.mjs); this proves each one fires on the
// crossing it exists for, by linting a probe file placed where the crossing would be. The
// response-schema rule is checked by server/routes/structure.test.ts against the real routes.

const ROOT = path.resolve(import.meta.dirname, '..');
const RULES = new Set(['no-restricted-imports', 'no-restricted-globals', 'local/page-boundaries', 'local/route-boundaries']);

// Only the boundary rules run, so the probes need no type information (and no file on disk).
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
  ruleFilter: ({ ruleId }) => RULES.has(ruleId),
});

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('the boundaries of the house', () => {
  it('refuses a route file importing another route file, and lets it import plumbing, services and representations', async () => {
    expect(await problems('server/routes/alerts.ts', "import { jobRoutes } from './jobs';\nexport const x = jobRoutes;\n")).toEqual([
      expect.stringContaining('local/route-boundaries'),
    ]);
    expect(await problems('server/routes/lab/pipelines.ts', "import { x } from '../comments';\nexport const y = x;\n")).toEqual([expect.stringContaining('local/route-boundaries')]);
    expect(
      await problems(
        'server/routes/alerts.ts',
        "import { defineRoute } from './define';\nimport { stopJob } from '../services/jobControl';\nimport { jobBody } from '../representations/job';\nexport const x = [defineRoute, stopJob, jobBody];\n",
      ),
    ).toEqual([]);
  });

  it('refuses a route imported from outside the routes', async () => {
    expect(await problems('server/runner/deploy/apply.ts', "import { x } from '../../routes/datasets';\nexport const y = x;\n")).toEqual([expect.stringContaining('no-restricted-imports')]);
  });

  it('refuses a view that fetches for itself, by the HTTP layer or by the browser', async () => {
    expect(await problems('src/ui/pages/lab/Probe.tsx', "import { listPipelines } from '../../../api/pipelines';\nexport const x = listPipelines;\n")).toEqual([
      expect.stringContaining('no-restricted-imports'),
    ]);
    expect(await problems('src/ui/pages/lab/Probe.tsx', "export const load = () => fetch('/api/workspaces');\n")).toEqual([expect.stringContaining('no-restricted-globals')]);
    // the data hooks are where reads live
    expect(await problems('src/ui/data/probe.ts', "import { listPipelines } from '../../api/pipelines';\nexport const x = listPipelines;\n")).toEqual([]);
  });

  it('refuses a page importing another page, and lets it import the shared components', async () => {
    expect(await problems('src/ui/pages/lab/Probe.tsx', "import { X } from '../datasets/DatasetPage';\nexport const y = X;\n")).toEqual([expect.stringContaining('local/page-boundaries')]);
    expect(await problems('src/ui/pages/lab/Probe.tsx', "import { X } from '../../components/feed/FeedCard';\nexport const y = X;\n")).toEqual([]);
  });
});
