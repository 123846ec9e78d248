// Deterministic sample business data: everything of a day follows from (seed, day), so the same
// settings always yield the same rows, and a later run picks up where the bookmark left off.

export const DAY_MS = 24 * 60 * 60 * 1000;

const FIRST = ['Ava', 'Ben', 'Chloe', 'Dev', 'Elena', 'Farid', 'Grace', 'Hiro', 'Isla', 'Jonas', 'Keira', 'Liam', 'Maya', 'Noah', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sam', 'Tariq', 'Uma', 'Victor', 'Wen', 'Yusuf', 'Zoe'];
const LAST = ['Adams', 'Brown', 'Chen', 'Diaz', 'Evans', 'Fischer', 'Garcia', 'Hughes', 'Ito', 'Jones', 'Khan', 'Lopez', 'Martin', 'Nowak', 'Okafor', 'Patel', 'Rossi', 'Smith', 'Tanaka', 'Walker'];
const COUNTRIES = ['GB', 'GB', 'GB', 'US', 'US', 'DE', 'FR', 'NL', 'IE', 'ES'];
const SEGMENTS = ['SMB', 'SMB', 'Mid-market', 'Enterprise'];
const STATUSES = ['completed', 'completed', 'completed', 'completed', 'shipped', 'processing', 'refunded', 'cancelled'];
const SOURCES = ['organic', 'organic', 'paid search', 'social', 'email', 'referral', 'direct'];
const DEVICES = ['desktop', 'desktop', 'mobile', 'mobile', 'tablet'];
const PAGES = ['/', '/pricing', '/blog/data-pipelines', '/features', '/signup', '/docs/getting-started', '/customers'];

/** mulberry32: small, fast, good enough for sample data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mix(...parts: number[]): number {
  let h = 2166136261;
  for (const p of parts) {
    h ^= p >>> 0;
    h = Math.imul(h, 16777619);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

const pick = <T>(rng: () => number, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;
const between = (rng: () => number, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));

interface DemoOptions {
  seed: number;
  scale: number;
}

export function dayIndex(date: Date): number {
  return Math.floor(date.getTime() / DAY_MS);
}

function timesOfDay(rng: () => number, day: number, count: number): Date[] {
  return Array.from({ length: count }, () => new Date(day * DAY_MS + Math.floor(rng() * DAY_MS))).sort((a, b) => a.getTime() - b.getTime());
}

function customersCreatedOn(day: number, o: DemoOptions): number {
  return between(random(mix(o.seed, day, 1)), 2, 5) * o.scale;
}

function customerAttributes(id: number, o: DemoOptions) {
  const rng = random(mix(o.seed, id, 7));
  const first = pick(rng, FIRST);
  const last = pick(rng, LAST);
  return { name: `${first} ${last}`, email: `${first}.${last}${id % 1000}@example.com`.toLowerCase(), country: pick(rng, COUNTRIES) };
}

export type Row = Record<string, string | number | boolean | null>;

/** Customers created on the day, then existing customers (from firstDay on) updated that day. */
function customersOn(day: number, firstDay: number, o: DemoOptions): Row[] {
  const rng = random(mix(o.seed, day, 2));
  const created = customersCreatedOn(day, o);
  const times = timesOfDay(rng, day, created + 2);
  const rows: Row[] = [];
  for (let k = 0; k < created; k++) {
    const id = day * 1000 + k;
    const at = times[k]!.toISOString();
    rows.push({ id, ...customerAttributes(id, o), segment: pick(rng, SEGMENTS), created_at: at, updated_at: at });
  }
  if (day > firstDay) {
    for (let u = 0; u < between(rng, 0, 2); u++) {
      const earlier = between(rng, firstDay, day - 1);
      const id = earlier * 1000 + Math.floor(rng() * customersCreatedOn(earlier, o));
      const created_at = new Date(earlier * DAY_MS).toISOString();
      rows.push({ id, ...customerAttributes(id, o), segment: pick(rng, SEGMENTS), created_at, updated_at: times[created + u]!.toISOString() });
    }
  }
  return rows.sort((a, b) => String(a.updated_at).localeCompare(String(b.updated_at)));
}

function ordersOn(day: number, firstDay: number, o: DemoOptions): Row[] {
  const rng = random(mix(o.seed, day, 3));
  const count = between(rng, 5, 15) * o.scale;
  return timesOfDay(rng, day, count).map((at, k) => {
    const customerDay = between(rng, firstDay, day);
    const items = between(rng, 1, 6);
    return {
      id: `ord-${day}-${String(k).padStart(4, '0')}`,
      customer_id: customerDay * 1000 + Math.floor(rng() * customersCreatedOn(customerDay, o)),
      status: pick(rng, STATUSES),
      currency: 'GBP',
      items,
      amount: Math.round(items * (12 + rng() * 180) * 100) / 100,
      ordered_at: at.toISOString(),
    };
  });
}

function sessionsOn(day: number, firstDay: number, o: DemoOptions): Row[] {
  const rng = random(mix(o.seed, day, 4));
  const count = between(rng, 15, 40) * o.scale;
  return timesOfDay(rng, day, count).map((at, k) => {
    const known = rng() < 0.35;
    const customerDay = between(rng, firstDay, day);
    const pages = between(rng, 1, 12);
    return {
      id: `ses-${day}-${String(k).padStart(5, '0')}`,
      customer_id: known ? customerDay * 1000 + Math.floor(rng() * customersCreatedOn(customerDay, o)) : null,
      source: pick(rng, SOURCES),
      device: pick(rng, DEVICES),
      landing_page: pick(rng, PAGES),
      pages,
      duration_seconds: pages * between(rng, 8, 95),
      converted: rng() < 0.06,
      started_at: at.toISOString(),
    };
  });
}

const ts = { type: ['string'], format: 'date-time' };
export const DEMO_STREAMS = {
  customers: {
    key: ['id'],
    replicationKey: 'updated_at',
    rows: customersOn,
    schema: {
      type: 'object',
      properties: { id: { type: ['integer'] }, name: { type: ['string'] }, email: { type: ['string'] }, country: { type: ['string'] }, segment: { type: ['string'] }, created_at: ts, updated_at: ts },
    },
  },
  orders: {
    key: ['id'],
    replicationKey: 'ordered_at',
    rows: ordersOn,
    schema: {
      type: 'object',
      properties: { id: { type: ['string'] }, customer_id: { type: ['integer'] }, status: { type: ['string'] }, currency: { type: ['string'] }, items: { type: ['integer'] }, amount: { type: ['number'] }, ordered_at: ts },
    },
  },
  web_sessions: {
    key: ['id'],
    replicationKey: 'started_at',
    rows: sessionsOn,
    schema: {
      type: 'object',
      properties: {
        id: { type: ['string'] },
        customer_id: { type: ['integer', 'null'] },
        source: { type: ['string'] },
        device: { type: ['string'] },
        landing_page: { type: ['string'] },
        pages: { type: ['integer'] },
        duration_seconds: { type: ['integer'] },
        converted: { type: ['boolean'] },
        started_at: ts,
      },
    },
  },
} as const;
