// The SPA's `zod`: vite.config.ts resolves every `import ... from 'zod'` of the build to this module.
// Zod builds fast parsers with `new Function` once a probe finds eval allowed; under the app's
// Content-Security-Policy (script-src 'self', no 'unsafe-eval') the probe fails, and although zod
// catches it the browser still reports a violation. Jitless, zod never probes and parses the same.
// The probe runs when the first z.object is built, at module load, so the setting must be in place
// before any module that uses zod is evaluated: being their `zod` import guarantees that order.
import { z } from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
