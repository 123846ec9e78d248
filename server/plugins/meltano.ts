import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { settingEnvName } from '../../src/domain/settingEnv';
import { stateIdOf } from '../../src/domain/pipelineScript';
import { selectRulesOf, withSelection } from '../../src/domain/streamSelection';
import { BridgeClient } from './bridgeClient';
import { PLUGIN_BIN_DIR, builtinPlugin, type BuiltinPlugin, type SettingDef } from './catalogue';

// Our `meltano`, on a job's PATH after the real one: it runs the same default scripts
// (`meltano run --state-id-suffix … tap target`, `meltano invoke plugin`) for the built-in
// plugins, reading the project's meltano.yml, settings from the environment by Meltano's rule,
// and keeping state per pipeline through the runner bridge. A plugin that is a Python package
// cannot run here, and it says so.

const NAME = 'meltano';

interface ProjectPlugin {
  name: string;
  type: string;
  builtin: BuiltinPlugin | undefined;
}

function say(message: string): void {
  process.stderr.write(`${message}\n`);
}

function projectPlugins(): ProjectPlugin[] {
  const root = process.env.MELTANO_PROJECT_ROOT ?? process.cwd();
  const file = path.join(root, 'meltano.yml');
  let project: { plugins?: Record<string, Array<{ name?: unknown; inherit_from?: unknown; variant?: unknown }>> };
  try {
    project = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof project;
  } catch (error) {
    throw new Error(`Cannot read the project file ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const plugins: ProjectPlugin[] = [];
  for (const [type, list] of Object.entries(project.plugins ?? {})) {
    for (const entry of list ?? []) {
      if (typeof entry.name !== 'string') continue;
      const base = typeof entry.inherit_from === 'string' ? entry.inherit_from : entry.name;
      // Another variant of a built-in's name (tap-postgres--meltanolabs) is the Python plugin, not ours.
      plugins.push({ name: entry.name, type, builtin: builtinPlugin(base, typeof entry.variant === 'string' ? entry.variant : undefined) });
    }
  }
  return plugins;
}

function find(plugins: ProjectPlugin[], name: string): ProjectPlugin {
  const plugin = plugins.find((p) => p.name === name);
  if (!plugin) throw new Error(`Plugin '${name}' is not in the project (meltano.yml)`);
  if (!plugin.builtin) {
    throw new Error(
      `${name} is a Python plugin: it is installed with pip, and this machine cannot install Python packages (no Python package index is reachable), so it cannot run here. Only the built-in plugins (tap-demo, tap-files, tap-postgres, target-store) run on this machine.`,
    );
  }
  return plugin;
}

function settingValue(setting: SettingDef, text: string | undefined): unknown {
  if (text === undefined) return setting.value;
  switch (setting.kind) {
    case 'INTEGER':
      return Number.isFinite(Number(text)) ? Number(text) : text;
    case 'BOOLEAN':
      return ['true', '1', 'yes', 'on'].includes(text.toLowerCase());
    case 'ARRAY':
    case 'OBJECT':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return setting.kind === 'ARRAY' ? text.split(',').map((s) => s.trim()).filter(Boolean) : text;
      }
    default:
      return text;
  }
}

/** The plugin's config file, built from the environment (explicit env first, then Meltano's rule). */
function writeConfig(dir: string, plugin: ProjectPlugin): string {
  const config: Record<string, unknown> = {};
  for (const setting of plugin.builtin!.settings) {
    const value = settingValue(setting, process.env[settingEnvName(plugin.name, setting.name, setting.env)]);
    if (value !== undefined) config[setting.name] = value;
  }
  const file = path.join(dir, `${plugin.name}.config.json`);
  fs.writeFileSync(file, JSON.stringify(config), { mode: 0o600 });
  return file;
}

function prefixLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: stream, crlfDelay: Infinity });
    rl.on('line', onLine);
    rl.on('close', resolve);
  });
}

function exitOf(child: ReturnType<typeof spawn>): Promise<number> {
  return new Promise((resolve) => {
    child.once('error', () => resolve(127));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const executable = (plugin: ProjectPlugin) => path.join(PLUGIN_BIN_DIR, plugin.builtin!.name);

async function invoke(plugins: ProjectPlugin[], name: string, args: string[]): Promise<number> {
  const plugin = find(plugins, name);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meltano-'));
  try {
    const child = spawn(executable(plugin), ['--config', writeConfig(dir, plugin), ...args], { stdio: 'inherit' });
    return await exitOf(child);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The catalog the tap prints with --discover (at most 64 MiB), its messages passed on to the log. */
async function discover(tap: ProjectPlugin, configFile: string): Promise<unknown> {
  const child = spawn(executable(tap), ['--config', configFile, '--discover'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  let size = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= 64 * 1024 * 1024) chunks.push(chunk);
  });
  const [code] = await Promise.all([exitOf(child), prefixLines(child.stderr, (line) => say(line))]);
  if (code !== 0) throw new Error(`${tap.name} --discover failed with exit code ${code}`);
  if (size > 64 * 1024 * 1024) throw new Error(`${tap.name} --discover printed a catalog larger than 64 MiB`);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new Error(`${tap.name} --discover printed no catalog`);
  }
}

interface StateStore {
  get(id: string): Promise<Record<string, unknown> | null>;
  set(id: string, value: Record<string, unknown>): Promise<void>;
  close(): void;
}

/** State through the runner bridge in a job; in a state directory of the project otherwise. */
function stateStore(): StateStore {
  const bridge = BridgeClient.fromEnv();
  if (bridge) {
    return {
      get: async (id) => (await bridge.request('state.get', { stateId: id })) as Record<string, unknown> | null,
      set: async (id, value) => void (await bridge.request('state.set', { stateId: id, value })),
      close: () => bridge.close(),
    };
  }
  const dir = path.join(process.env.MELTANO_PROJECT_ROOT ?? process.cwd(), '.meltano', 'state');
  const file = (id: string) => path.join(dir, `${encodeURIComponent(id)}.json`);
  return {
    get: (id) => Promise.resolve(fs.existsSync(file(id)) ? (JSON.parse(fs.readFileSync(file(id), 'utf8')) as Record<string, unknown>) : null),
    set: (id, value) => {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file(id), JSON.stringify(value));
      return Promise.resolve();
    },
    close: () => undefined,
  };
}

async function extractLoad(plugins: ProjectPlugin[], tapName: string, targetName: string, suffix: string | undefined, fullRefresh: boolean): Promise<number> {
  const tap = find(plugins, tapName);
  const target = find(plugins, targetName);
  const stateId = stateIdOf(tap.name, target.name, suffix);
  const states = stateStore();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meltano-'));
  try {
    const tapConfig = writeConfig(dir, tap);
    const tapArgs = ['--config', tapConfig];
    const rules = selectRulesOf(process.env[settingEnvName(tap.name, '_select')]);
    if (rules) {
      // as Meltano does: the tap's own discovery, the rules marked on it, and the tap run with that catalog
      const catalogFile = path.join(dir, 'catalog.json');
      fs.writeFileSync(catalogFile, JSON.stringify(withSelection(await discover(tap, tapConfig), rules)));
      tapArgs.push('--catalog', catalogFile);
      say(`${NAME} | ${tap.name} runs with the streams its select rules choose: ${rules.join(', ')}`);
    }
    const previous = fullRefresh ? null : await states.get(stateId);
    if (previous) {
      const stateFile = path.join(dir, 'state.json');
      fs.writeFileSync(stateFile, JSON.stringify(previous));
      tapArgs.push('--state', stateFile);
      say(`${NAME} | incremental run from the state of ${stateId}`);
    } else {
      say(`${NAME} | full run (no state for ${stateId})`);
    }
    const tapProcess = spawn(executable(tap), tapArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    // The tap's stdout is the target's stdin itself, one pipe between them: the rows never pass
    // through this process (relaying them cost as much CPU as the target's own work).
    const targetProcess = spawn(executable(target), ['--config', writeConfig(dir, target)], { stdio: [tapProcess.stdout, 'pipe', 'pipe'] });
    tapProcess.stdout.destroy();
    // a target that ends first reads no more: the tap would block on a full pipe for ever (Meltano stops it too)
    let tapStopped = false;
    targetProcess.once('exit', () => {
      if (tapProcess.exitCode !== null || tapProcess.signalCode !== null) return;
      tapStopped = true;
      tapProcess.kill('SIGTERM');
    });
    let saving = Promise.resolve();
    const outputs = [
      prefixLines(tapProcess.stderr, (line) => say(line)),
      prefixLines(targetProcess.stderr, (line) => say(line)),
      prefixLines(targetProcess.stdout, (line) => {
        try {
          const message = JSON.parse(line) as { type?: unknown; value?: unknown };
          if (message.type === 'STATE' && typeof message.value === 'object' && message.value !== null) {
            const value = message.value as Record<string, unknown>;
            saving = saving.then(() => states.set(stateId, value));
            return;
          }
        } catch {
          // not a message: an ordinary output line
        }
        process.stdout.write(`${line}\n`);
      }),
    ];
    const [tapCode, targetCode] = await Promise.all([exitOf(tapProcess), exitOf(targetProcess)]);
    await Promise.all(outputs);
    await saving;
    if (tapStopped) say(`${NAME} | ${tap.name} stopped: ${target.name} ended before reading all of its output`);
    else if (tapCode !== 0) say(`${NAME} | ${tap.name} failed with exit code ${tapCode}`);
    if (targetCode !== 0) say(`${NAME} | ${target.name} failed with exit code ${targetCode}`);
    if (tapCode === 0 && targetCode === 0) say(`${NAME} | ${tap.name} → ${target.name} done, state saved as ${stateId}`);
    if (tapStopped) return targetCode === 0 ? 1 : targetCode;
    return tapCode !== 0 ? tapCode : targetCode;
  } finally {
    states.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function run(args: string[]): Promise<number> {
  let suffix: string | undefined;
  let fullRefresh = false;
  const blocks: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--state-id-suffix') suffix = args[++i];
    else if (arg.startsWith('--state-id-suffix=')) suffix = arg.slice('--state-id-suffix='.length);
    else if (arg === '--full-refresh') fullRefresh = true;
    else if (arg.startsWith('--')) throw new Error(`meltano run: option ${arg} is not supported here`);
    else blocks.push(arg);
  }
  const plugins = projectPlugins();
  for (let i = 0; i < blocks.length; i++) {
    const name = blocks[i]!;
    const plugin = find(plugins, name.split(':')[0]!);
    if (plugin.type === 'extractors') {
      const next = blocks[i + 1];
      const target = next === undefined ? undefined : plugins.find((p) => p.name === next);
      if (!target || target.type !== 'loaders') throw new Error(`meltano run: extractor ${name} must be followed by a loader`);
      const code = await extractLoad(plugins, name, next!, suffix, fullRefresh);
      if (code !== 0) return code;
      i++;
    } else {
      const code = await invoke(plugins, name, []);
      if (code !== 0) return code;
    }
  }
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'run':
      return run(rest);
    case 'invoke': {
      const [name, ...args] = rest;
      if (!name) throw new Error('meltano invoke needs a plugin name');
      return invoke(projectPlugins(), name, args);
    }
    case '--version':
      process.stdout.write('meltano (built-in runner for the embedded plugins)\n');
      return 0;
    default:
      throw new Error(`meltano ${command ?? ''}: only 'run' and 'invoke' are available here`);
  }
}

main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    say(`${NAME} | ERROR ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
