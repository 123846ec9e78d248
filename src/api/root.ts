import { rootSchema, type Root } from '../domain/resources';
import type { ApiClient, RequestOptions } from './client';

/** GET / : the root resource, whose links (such as 'new apikey') gate features. */
export function getRoot(client: ApiClient, options?: RequestOptions): Promise<Root> {
  return client.get('/', rootSchema, options);
}
