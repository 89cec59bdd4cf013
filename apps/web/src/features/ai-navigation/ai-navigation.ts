/** The page /ai-navigation embeds when the tenant configures none (an AI tools directory). */
export const DEFAULT_AI_NAVIGATION_URL = 'https://ai-bot.cn/';
/** Without a load event by then, the embedded page is treated as unavailable. */
export const AI_NAVIGATION_TIMEOUT_MS = 15_000;

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
