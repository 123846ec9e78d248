import { ApiFailure, fromResponse, NETWORK, toApiError } from './errors';

type PasswordResetRequest = { readonly client_id: string; readonly email: string; readonly connection: string };

/**
 * POST {authDomain}/dbconnections/change_password. This call goes to the identity provider, not
 * to the API, so it carries no bearer token, has its own base and is not retried (a POST).
 * Resolves with the provider's text ("We've just sent you an email ..."); rejects with ApiFailure.
 */
export async function requestPasswordReset(
  fetchFn: typeof fetch,
  authDomain: string,
  request: PasswordResetRequest,
  signal?: AbortSignal,
): Promise<string> {
  const url = `${authDomain.replace(/\/+$/, '')}/dbconnections/change_password`;
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/plain' },
      body: JSON.stringify({ client_id: request.client_id, email: request.email, connection: request.connection }),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    const apiError = toApiError(error);
    throw new ApiFailure(apiError.kind === 'cancelled' ? apiError : NETWORK, { cause: error });
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) throw new ApiFailure(fromResponse(response.status, decode(text)));
  return unquote(text);
}

/** Providers answer either plain text or a JSON string; both become the text itself. */
function unquote(text: string): string {
  const value = decode(text);
  return typeof value === 'string' ? value : text;
}

function decode(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
