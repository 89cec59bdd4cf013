import { useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { USER_QUERY_KEY } from '../../../lib/session';
import type { OpenApiDocument } from '../openapi';

/** GET /docs/json with the signed-in session: the server's OpenAPI document (not an envelope). */
export const useApiDocument = () =>
  useQuery({
    queryKey: [...USER_QUERY_KEY, 'api-docs'],
    queryFn: ({ signal }) => getJson<OpenApiDocument>('/docs/json', { signal }),
    // The document changes only with a deployment.
    staleTime: 10 * 60_000,
    retry: false,
  });
