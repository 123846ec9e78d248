import fs from 'node:fs';
import path from 'node:path';

/** The absolute path of a tool on the server's PATH (and the system directories), or undefined. */
export function findTool(name: string, searchPath: string = process.env.PATH ?? ''): string | undefined {
  for (const dir of [...searchPath.split(':'), '/usr/bin', '/usr/sbin', '/bin', '/sbin']) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
