import type { Db } from '../db/database';
import { DEFAULT_NOISE_SETTINGS, uniqueRoutes, type NoiseSettings } from '../../src/domain/noiseControl';

/** The noise settings of each of these profiles; a profile without a row has the defaults. */
export async function noiseSettingsOf(db: Db, profileIds: readonly string[]): Promise<Map<string, NoiseSettings>> {
  const result = new Map<string, NoiseSettings>();
  if (profileIds.length === 0) return result;
  // One after the other: inside a transaction there is one connection.
  const settings = await db.selectFrom('notification_settings').selectAll().where('profile_id', 'in', profileIds).execute();
  const routes = await db.selectFrom('notification_routes').selectAll().where('profile_id', 'in', profileIds).execute();
  for (const id of profileIds) result.set(id, { ...DEFAULT_NOISE_SETTINGS, routes: [] });
  for (const row of settings) result.set(row.profile_id, { mentionsOnly: row.mentions_only, digest: row.digest, routes: [] });
  for (const row of routes) {
    const current = result.get(row.profile_id);
    if (current) result.set(row.profile_id, { ...current, routes: [...current.routes, { objectType: row.object_type, objectId: row.object_id, level: row.level }] });
  }
  return result;
}

export async function noiseSettingsFor(db: Db, profileId: string): Promise<NoiseSettings> {
  return (await noiseSettingsOf(db, [profileId])).get(profileId) ?? DEFAULT_NOISE_SETTINGS;
}

/** Replaces a profile's settings and routes as one change (pass a transaction). */
export async function saveNoiseSettings(db: Db, profileId: string, settings: NoiseSettings): Promise<void> {
  await db
    .insertInto('notification_settings')
    .values({ profile_id: profileId, mentions_only: settings.mentionsOnly, digest: settings.digest })
    .onConflict((oc) => oc.column('profile_id').doUpdateSet({ mentions_only: settings.mentionsOnly, digest: settings.digest }))
    .execute();
  await db.deleteFrom('notification_routes').where('profile_id', '=', profileId).execute();
  const routes = uniqueRoutes(settings.routes);
  if (routes.length > 0) {
    await db
      .insertInto('notification_routes')
      .values(routes.map((r) => ({ profile_id: profileId, object_type: r.objectType, object_id: r.objectId, level: r.level })))
      .execute();
  }
}
