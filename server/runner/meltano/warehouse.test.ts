import { describe, expect, it } from 'vitest';
import { repositoryWarehouseLoaders, warehouseEnv, withWarehouseEnv } from './warehouse';
import { upstreamOf, upstreamWantsTls } from './warehouseJob';
import { StreamRecordCounts } from './warehouseLoads';

describe("Meltano's loaders bound for the workspace's store", () => {
  it("takes a repository's annotated loaders and its target-postgres without a host, and leaves one with a host of its own", () => {
    const yml = `
default_environment: prod
environments:
  - name: prod
    config:
      plugins:
        loaders:
          - name: elsewhere
            config: { host: db.example.com }
plugins:
  loaders:
    - name: warehouse
      variant: meltanolabs
      pip_url: git+https://github.com/x/y.git
      annotations: { matatika: { properties_from_datastore: Warehouse } }
    - name: target-postgres
      variant: meltanolabs
      pip_url: meltanolabs-target-postgres
    - name: elsewhere
      inherit_from: target-postgres
    - name: own-url
      namespace: target_postgres
      config: { sqlalchemy_url: postgresql://x }
    - name: target-jsonl
      pip_url: target-jsonl
  transformers:
    - name: dbt-postgres
      pip_url: dbt-core dbt-postgres
    - name: dbt-elsewhere
      pip_url: dbt-postgres~=1.9
      config: { host: warehouse.example.com }
`;
    expect(repositoryWarehouseLoaders(yml)).toEqual([
      { name: 'dbt-postgres', namespace: 'dbt_postgres', kind: 'dbt' },
      { name: 'warehouse', namespace: 'warehouse' },
      { name: 'target-postgres', namespace: 'target_postgres' },
    ]);
    expect(repositoryWarehouseLoaders('plugins: [')).toEqual([]);
  });

  it("sets each setting once, by the namespace, and takes the name's variable out (Meltano refuses two)", () => {
    const env = warehouseEnv([{ name: 'warehouse', namespace: 'target_postgres', tablePrefix: 'app_' }], { socketDir: '/run/store', database: 'platform', role: 'ws_x_load_y', token: 'tok', schema: 'ws_x' });
    expect(env.TARGET_POSTGRES_HOST).toBe('/run/store');
    expect(env.TARGET_POSTGRES_PASSWORD).toBe('tok');
    expect(env.TARGET_POSTGRES_SQLALCHEMY_URL).toBe('postgresql+psycopg://ws_x_load_y:tok@/platform?host=%2Frun%2Fstore&port=5432');
    expect(JSON.parse(env.TARGET_POSTGRES_STREAM_MAPS!)).toEqual({ '*': { __alias__: "'app_' + __stream_name__" } });
    expect(Object.hasOwn(env, 'WAREHOUSE_PORT') && env.WAREHOUSE_PORT === undefined).toBe(true);
    const merged = withWarehouseEnv({ WAREHOUSE_PORT: '5432', KEEP: '1' }, env);
    expect(merged.WAREHOUSE_PORT).toBeUndefined();
    expect(merged.KEEP).toBe('1');
    expect(merged.TARGET_POSTGRES_USER).toBe('ws_x_load_y');
  });

  it("gives dbt-postgres its profile's settings and no loader's", () => {
    const env = warehouseEnv([{ name: 'dbt', namespace: 'dbt_postgres', kind: 'dbt' }], { socketDir: '/run/store', database: 'platform', role: 'r', token: 'tok', schema: 'ws_x' });
    expect(env).toMatchObject({ DBT_POSTGRES_HOST: '/run/store', DBT_POSTGRES_PORT: '5432', DBT_POSTGRES_USER: 'r', DBT_POSTGRES_PASSWORD: 'tok', DBT_POSTGRES_DBNAME: 'platform', DBT_POSTGRES_SCHEMA: 'ws_x', DBT_SEND_ANONYMOUS_USAGE_STATS: 'false' });
    expect(Object.keys(env).some((k) => k.endsWith('SQLALCHEMY_URL'))).toBe(false);
  });

  it("counts the tap's records per stream and the loader's per table from Meltano's log lines", () => {
    const counts = new StreamRecordCounts(new Set(['target-postgres']));
    for (const line of [
      '2026-11-29T02:29:39.470409Z [info     ] tap-counter  METRIC: {"type":"timer","metric":"sync_duration","value":0.0078,"tags":{"stream":"counts","pid":9,"context":{},"status":"succeeded"}}',
      '2026-11-29T02:29:39.470729Z [info     ] tap-counter  METRIC: {"type":"counter","metric":"record_count","value":10,"tags":{"stream":"counts","pid":9,"context":{}}}',
      '2026-11-29T02:29:40.470729Z [info     ] tap-counter  METRIC: {"type":"counter","metric":"record_count","value":2,"tags":{"stream":"counts","pid":9,"context":{}}} cmd_type=elb',
      '2026-11-29T02:29:48.914057Z [info     ] target-postgres METRIC: {"type":"counter","metric":"record_count","value":12,"tags":{"stream":"app_counts","pid":11}}',
      'METRIC: {"type":"counter","metric":"record_count","value":99,"tags":{"stream":"echoed"}}',
      '2026-11-29T02:29:48Z [info     ] tap-counter  METRIC: {"type":"counter","metric":"record_count","value":"7","tags":{"stream":"counts"}}',
    ])
      counts.observe(line);
    expect(Object.fromEntries(counts.byStream)).toEqual({ counts: 12 });
    expect(Object.fromEntries(counts.byTable)).toEqual({ app_counts: 12 });
  });

  it("finds the platform database's host and port, a socket directory, and a URL that asks for TLS", () => {
    expect(upstreamOf('postgres://u:p@db.internal:6543/app')).toEqual({ host: 'db.internal', port: 6543 });
    expect(upstreamOf('postgres://u@[::1]/app')).toEqual({ host: '::1', port: 5432 });
    expect(upstreamOf('postgres://u@/app?host=/var/run/postgresql')).toEqual({ host: '/var/run/postgresql', port: 5432 });
    expect(upstreamWantsTls('postgres://u@h/app?sslmode=require')).toBe(true);
    expect(upstreamWantsTls('postgres://u@h/app?sslmode=verify-full')).toBe(true);
    expect(upstreamWantsTls('postgres://u@h/app?ssl=true')).toBe(true);
    expect(upstreamWantsTls('postgres://u@h/app?sslmode=disable')).toBe(false);
    expect(upstreamWantsTls('postgres://u@127.0.0.1:5432/app')).toBe(false);
  });
});
