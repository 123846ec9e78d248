import { expect } from 'vitest';
import { checkQuery, QueryRefused } from './queryGuard';

/** The guard's message for a query it must refuse (a test fails when it is accepted, or refused otherwise). */
export async function refusalOf(query: string): Promise<string> {
  try {
    await checkQuery(query);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryRefused);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${query}`);
}
