// Lint enforces the layer boundaries of CONVENTIONS.md:
//   ui -> machines -> domain;  api -> domain;  server -> domain;  nothing imports ui.
//   src/domain imports no framework; only src/api imports ofetch; only the auth bridge imports auth0.
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import path from 'node:path';

const frameworks = ['react', 'react-dom', 'react/*', 'xstate', 'xstate/*', '@xstate/*', 'ofetch', '@auth0/*', '@fluentui/*', 'react-router-dom', 'fastify', 'fastify/*', '@fastify/*', 'kysely', 'pg', '@electric-sql/*', 'oidc-provider', 'jose', 'pino'];
const noImport = (patterns, message) => ({ group: patterns, message });
// A page folder (src/ui/pages/<page>/) is one page: what two pages share lives in src/ui/components.
const pageBoundaries = {
  meta: { type: 'problem', schema: [], messages: { crossing: "src/ui/pages/{{from}} imports src/ui/pages/{{to}}: move what both pages use to src/ui/components." } },
  create(context) {
    const file = path.relative(import.meta.dirname, context.filename).split(path.sep).join('/');
    const from = /^src\/ui\/pages\/([^/]+)\//.exec(file)?.[1];
    if (from === undefined) return {};
    const check = (source) => {
      if (typeof source?.value !== 'string' || !source.value.startsWith('.')) return;
      const target = path.relative(import.meta.dirname, path.resolve(path.dirname(context.filename), source.value)).split(path.sep).join('/');
      const to = /^src\/ui\/pages\/([^/]+)/.exec(target)?.[1];
      if (to !== undefined && to !== from) context.report({ node: source, messageId: 'crossing', data: { from, to } });
    };
    return { ImportDeclaration: (node) => check(node.source), ImportExpression: (node) => check(node.source), ExportNamedDeclaration: (node) => check(node.source), ExportAllDeclaration: (node) => check(node.source) };
  },
};
// A route file is one resource's HTTP edge: what two route files share is a body (server/representations),
// a use case (server/services) or the routes' own plumbing (context.ts, define.ts, and watch.ts, which
// declares the watch routes of every watchable resource). Only the registries (index.ts) import route files.
const ROUTE_PLUMBING = new Set(['server/routes/context.ts', 'server/routes/define.ts', 'server/routes/watch.ts']);
const routeBoundaries = {
  meta: { type: 'problem', schema: [], messages: { crossing: '{{from}} imports the route file {{to}}: move what both use to server/representations or server/services.' } },
  create(context) {
    const from = path.relative(import.meta.dirname, context.filename).split(path.sep).join('/');
    if (!from.startsWith('server/routes/') || /(^|\/)index\.ts$/.test(from)) return {};
    const check = (node) => {
      const source = node.source;
      if (typeof source?.value !== 'string' || !source.value.startsWith('.') || node.importKind === 'type' || node.exportKind === 'type') return;
      const resolved = path.relative(import.meta.dirname, path.resolve(path.dirname(context.filename), source.value)).split(path.sep).join('/');
      const to = resolved.endsWith('.ts') ? resolved : `${resolved}.ts`;
      if (to.startsWith('server/routes/') && !ROUTE_PLUMBING.has(to)) context.report({ node: source, messageId: 'crossing', data: { from, to } });
    };
    return { ImportDeclaration: check, ImportExpression: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
// The project's own rules, as the plugin `local`.
const local = { rules: { 'page-boundaries': pageBoundaries, 'route-boundaries': routeBoundaries } };
const serverOnly = noImport(['**/src/ui/**', '**/src/machines/**', '**/src/api/**', 'react', 'react-dom', 'xstate', '@fluentui/*', '@auth0/*', 'ofetch'], 'server may import src/domain only.');

export default tseslint.config(
  { ignores: ['dist/**', 'dist-server/**', '.build-stamps/**', 'public/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', '.stryker-tmp/**', 'reports/**', '*.config.*', 'eslint.config.mjs'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { import: importPlugin },
    // Cycles are ours to find: never parse packages in node_modules for them.
    settings: { 'import/ignore': ['node_modules'], 'import/extensions': ['.ts', '.tsx'], 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'no-restricted-imports': ['error', { patterns: [noImport(['**/ui/**', '**/src/ui', '**/src/ui/*'], 'Nothing imports the view layer.'), noImport(['ofetch'], 'Only src/api imports ofetch.'), noImport(['@auth0/*'], 'Only the auth bridge (src/ui/auth) imports @auth0.')] }],
    },
  },
  {
    files: ['src/domain/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noImport(frameworks, 'src/domain is framework-free.'), noImport(['**/machines/**', '**/api/**', '**/ui/**', '**/server/**', '../*/**'], 'src/domain imports nothing outside itself.')] }] },
  },
  {
    files: ['src/api/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noImport(['react', 'react-dom', 'xstate', '@xstate/*', '@fluentui/*', '@auth0/*', 'react-router-dom'], 'src/api is the HTTP layer only.'), noImport(['**/machines/**', '**/ui/**', '**/server/**'], 'src/api imports only src/domain.')] }] },
  },
  {
    files: ['src/machines/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noImport(['react', 'react-dom', '@fluentui/*', '@auth0/*', 'react-router-dom', 'ofetch'], 'Machines get their effects injected.'), noImport(['**/ui/**', '**/server/**'], 'Machines import only domain (and api types).')] }] },
  },
  {
    files: ['src/ui/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noImport(['ofetch'], 'Only src/api imports ofetch.'), noImport(['**/server/**'], 'The SPA never imports the server.')] }] },
  },
  {
    // Views only render: what they read or change goes through src/ui/data (queries and
    // mutations over src/api) or a machine; the composition roots hand the client out.
    files: ['src/ui/**'],
    // runtimeConfig and serviceWorker run before the app (its config, its worker script), outside any view.
    ignores: ['src/ui/data/**', 'src/ui/runtime.tsx', 'src/ui/machines.ts', 'src/ui/runtimeConfig.ts', 'src/ui/serviceWorker.ts', '**/*.test.ts', '**/*.test.tsx'],
    plugins: { local },
    rules: {
      'no-restricted-globals': ['error', ...['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket'].map((name) => ({ name, message: 'Views only render: read and change through src/ui/data (or a machine).' }))],
      'no-restricted-imports': ['error', { patterns: [noImport(['ofetch'], 'Only src/api imports ofetch.'), noImport(['**/server/**'], 'The SPA never imports the server.'), { group: ['**/api/*', '**/api'], allowTypeImports: true, message: 'Views only render: read and change through src/ui/data (or a machine), not src/api.' }] }],
      'local/page-boundaries': 'error',
    },
  },
  {
    // Paths of the SPA are built and read only by the route table (src/domain/routes.ts).
    files: ['src/ui/**', 'src/machines/**', 'src/api/**', 'src/domain/**'],
    ignores: ['src/domain/routes.ts', '**/*.fixture.ts', '**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TemplateLiteral > TemplateElement:first-child[value.raw=/^\\/(l|lab|w|setup|p|dataset)\\//]', message: 'Build SPA paths with pathTo (src/domain/routes.ts).' },
        { selector: 'Literal[value=/^\\/(l|lab|w|setup|p|dataset)\\/./]', message: 'Build SPA paths with pathTo (src/domain/routes.ts).' },
      ],
    },
  },
  {
    files: ['src/ui/auth/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noImport(['ofetch'], 'Only src/api imports ofetch.'), noImport(['**/server/**'], 'The SPA never imports the server.')] }] },
  },
  {
    files: ['server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverOnly] }] },
  },
  {
    // Use cases live in server/services, which routes, the runner and deployments all call; a
    // route is only an HTTP edge, so nothing but the app's wiring imports one.
    files: ['server/**'],
    ignores: ['server/routes/**', 'server/app.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [serverOnly, noImport(['./routes', './routes/**', '../routes', '../routes/**', '../../routes', '../../routes/**'], 'Only server/app.ts imports routes; put a shared use case in server/services.')] }] },
  },
  {
    // ...and no route file imports another: bodies live in server/representations, use cases in server/services.
    files: ['server/routes/**'],
    ignores: ['**/*.test.ts'],
    plugins: { local },
    rules: { 'local/route-boundaries': 'error' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'tests/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['tests/e2e/**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: '@playwright/test', message: "Import from './fixtures': its test fails on any Content-Security-Policy violation." }] }] },
  },
);
