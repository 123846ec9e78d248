// The yardstick: a bare Fastify hello-world, run in its own process by bench/run.ts so that it
// and our server are measured under the same conditions (own event loop, same client).
import Fastify from 'fastify';

const port = Number(process.env.PORT);
const app = Fastify({ logger: false });
app.get('/', () => ({ hello: 'world' }));
await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
