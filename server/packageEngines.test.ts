import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// What the project promises about its own installation: the Node versions `engines` names are ones
// every installed package supports, and every package the code imports is one package.json declares
// (a package that only arrives through another one can disappear with that one's next release).
const root = path.resolve(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string }; dependencies: Record<string, string>; devDependencies: Record<string, string>;
};
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { engines?: { node?: string } | string[] }>;
};

describe('package.json', () => {
  it("states Node versions that every locked package's engines allow", () => {
    const refused = Object.entries(lock.packages).flatMap(([where, meta]) => {
      const node = meta.engines && !Array.isArray(meta.engines) ? meta.engines.node : undefined;
      return where && node && !semver.subset(pkg.engines.node, node) ? [`${where} wants node ${node}`] : [];
    });
    expect(refused).toEqual([]);
  });

  it('declares every package the code imports', () => {
    const declared = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]);
    const builtins = new Set(builtinModules);
    const missing = new Set<string>();
    for (const file of sourceFiles(['server', 'src', 'scripts', 'tests', 'bench'])) {
      for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+'([^'.][^']*)'|import\('([^'.][^']*)'\)/gm)) {
        if (!specifier || specifier.startsWith('node:') || specifier.startsWith('/')) continue;
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!builtins.has(name) && !declared.has(name)) missing.add(`${name} (${path.relative(root, file)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});

function sourceFiles(dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name) && !e.parentPath.includes('node_modules'))
      .map((e) => path.join(e.parentPath, e.name)),
  );
}
