/* No zod here: the public /ai-navigation page imports this module. */

/** The page /ai-navigation embeds when the tenant configures none (an AI tools directory). */
export const DEFAULT_AI_NAVIGATION_URL = 'https://ai-bot.cn/';

/** The tenant's URL when it is http(s), else the default (never a javascript: or data: frame). */
export function aiNavigationUrl(configured: string | undefined): string {
  if (!configured) return DEFAULT_AI_NAVIGATION_URL;
  try {
    const url = new URL(configured);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : DEFAULT_AI_NAVIGATION_URL;
  } catch {
    return DEFAULT_AI_NAVIGATION_URL;
  }
}

/**
 * Whether the page can show in our frame, as the server last found it: a browser reports no
 * error for a frame (a refused or unreachable page still fires `load`), so only a request of
 * our own can tell. `unknown` until the first check answers.
 */
export const EMBED_STATUSES = ['ok', 'refused', 'unavailable', 'unknown'] as const;
export type EmbedStatus = (typeof EMBED_STATUSES)[number];

/** What `GET /api/tenant/ai-navigation` answers (its schema is in tenant.ts: zod stays out of here). */
export interface AiNavigation {
  url: string;
  embed: EmbedStatus;
}
