import type { Command } from 'commander';
import { type Api, createApi, normaliseApi } from './api.ts';
import { effectiveConfig } from './config.ts';
import { CliError, EXIT } from './exit.ts';
import { type Lang, resolveLang, say } from './messages.ts';

/** What every command gets: the language, whether output is JSON, and the signed-in API. */
export interface Ctx {
  lang: Lang;
  json: boolean;
  /** The address given by --api, GPU_API or the stored config, normalised; throws when none. */
  apiBase(): string;
  /** The API with the token of GPU_TOKEN or the stored config; throws when not signed in. */
  api(): Api;
}

interface GlobalOptions {
  json?: boolean;
  lang?: string;
  api?: string;
}

export function contextOf(cmd: Command): Ctx {
  const opts = cmd.optsWithGlobals<GlobalOptions>();
  const lang = resolveLang(opts.lang);
  const apiBase = () => {
    const raw = opts.api ?? effectiveConfig().api;
    if (!raw) throw new CliError(EXIT.usage, say(lang, 'noApi'));
    return normaliseApi(raw, lang);
  };
  return {
    lang,
    json: opts.json === true,
    apiBase,
    api() {
      const base = apiBase();
      const token = effectiveConfig().token;
      if (!token) throw new CliError(EXIT.auth, say(lang, 'notLoggedIn'), { errorCode: 'cli.not_logged_in' });
      return createApi(base, token, lang);
    },
  };
}
