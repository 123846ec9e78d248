// `npm run openapi:client`: regenerates the typed client of tests/api/openapi-client.test.ts from
// the description a real server (in-memory database) serves, as the test does.
import fs from 'node:fs';
import { startTestServer } from '../tests/support/server';
import { CLIENT_TYPES_FILE, clientTypes } from '../tests/support/openapiClient';

const server = await startTestServer();
try {
  const document = (await (await fetch(`${server.baseUrl}/api/openapi.json`)).json()) as Record<string, unknown>;
  fs.writeFileSync(CLIENT_TYPES_FILE, await clientTypes(document));
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
} finally {
  await server.close();
}
