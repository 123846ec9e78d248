import { BridgeClient } from './bridgeClient';
import { runPlugin } from './singer';

// `meltano invoke <extractor> --discover | record-catalog <extractor>`, in a verify job: reads the
// Singer catalog the extractor printed and hands it to the runner bridge, which keeps its streams
// for the pipeline editor under the extractor's configuration (bridge.ts, 'catalog.save').

/** A catalog larger than this is not kept (the bridge reads requests of at most 64 MiB). */
const MAX_CATALOG_BYTES = 16 * 1024 * 1024;

async function readInput(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_CATALOG_BYTES) throw new Error(`the catalog is larger than ${MAX_CATALOG_BYTES / 1024 / 1024} MiB: its streams are not kept`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

runPlugin('record-catalog', async () => {
  const component = process.argv[2];
  if (!component) throw new Error('usage: record-catalog <extractor>');
  const text = await readInput();
  let catalog: unknown;
  try {
    catalog = JSON.parse(text);
  } catch {
    throw new Error(`${component} printed no Singer catalog on its standard output`);
  }
  const bridge = BridgeClient.fromEnv();
  if (!bridge) throw new Error('no runner bridge: the streams are kept only in a job');
  try {
    const { streams } = (await bridge.request('catalog.save', { component, catalog })) as { streams: number };
    process.stdout.write(`${component}: ${streams} stream${streams === 1 ? '' : 's'} discovered\n`);
  } finally {
    bridge.close();
  }
});
