import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root folder: the nearest one above this module that holds package.json. Found
 * by walking up rather than by a fixed '../..' because this module runs from two places: from its
 * source (tsx, the plugins and the tests: server/plugins/) and bundled into dist-server/main.js
 * (`npm start`). Files shipped beside the sources (the plugins' scripts, the demo's sample files)
 * are named from here.
 */
export function repositoryRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}: the server runs from inside its repository`);
  }
}
