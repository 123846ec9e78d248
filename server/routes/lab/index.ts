import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../context';
import { componentRoutes } from './components';
import { dataPluginRoutes } from './dataplugins';
import { dataStoreRoutes } from './dataStores';
import { globalDataPluginRoutes } from './globalDataplugins';
import { pipelineRunRoutes } from './pipelineRuns';
import { pipelineRoutes } from './pipelines';
import { storeTableRoutes } from './storeTables';

/** The Lab's API (spec 001 §3, §7): pipelines, their runs, components, the catalogue, stores and what they hold. */
export function labRoutes(app: FastifyInstance, ctx: RouteContext): void {
  pipelineRoutes(app, ctx);
  pipelineRunRoutes(app, ctx);
  componentRoutes(app, ctx);
  dataPluginRoutes(app, ctx);
  globalDataPluginRoutes(app, ctx);
  dataStoreRoutes(app, ctx);
  storeTableRoutes(app, ctx);
}
