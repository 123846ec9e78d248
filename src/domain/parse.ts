import type { z } from 'zod';

/** One failing field: a dotted path ('defaultWorkspace.id', '_links.self.href'; '' for the root). */
export type FieldIssue = { field: string; message: string };

type ParseResult<T> = { ok: true; value: T } | { ok: false; issues: FieldIssue[] };

type Issue = z.core.$ZodIssue;

export function parseWith<S extends z.ZodType>(schema: S, data: unknown): ParseResult<z.output<S>> {
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: result.error.issues.flatMap((issue) => toFieldIssues(issue, [])) };
}

function joinPath(path: readonly PropertyKey[]): string {
  return path.map((key) => (typeof key === 'symbol' ? (key.description ?? '') : String(key))).join('.');
}

// A union reports "Invalid input" at the union's own path, which hides the real culprit
// ('_links.self' instead of '_links.self.href'). Prefer the branch whose shape matched, i.e.
// whose issues all lie below the union's path.
function toFieldIssues(issue: Issue, prefix: readonly PropertyKey[]): FieldIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const branch = closestBranch(issue.errors);
    if (branch !== undefined) return branch.flatMap((inner) => toFieldIssues(inner, path));
  }
  return [{ field: joinPath(path), message: issue.message }];
}

function closestBranch(branches: readonly (readonly Issue[])[]): readonly Issue[] | undefined {
  const matched = branches.filter((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0));
  return matched.reduce<readonly Issue[] | undefined>(
    (best, branch) => (best === undefined || branch.length < best.length ? branch : best),
    undefined,
  );
}
