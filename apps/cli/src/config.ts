import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** What `gpu login` stores: the platform's address and an access token. */
export interface StoredConfig {
  api: string;
  token: string;
}

/** The config folder: %APPDATA%\gpu on Windows, else $XDG_CONFIG_HOME/gpu or ~/.config/gpu. */
export function configDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform) {
  if (platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'gpu');
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'gpu');
}
export const configFile = (env: NodeJS.ProcessEnv = process.env) => path.join(configDir(env), 'config.json');

export function readConfig(env: NodeJS.ProcessEnv = process.env): Partial<StoredConfig> {
  try {
    const parsed = JSON.parse(readFileSync(configFile(env), 'utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') return {};
    const { api, token } = parsed as Record<string, unknown>;
    return {
      api: typeof api === 'string' ? api : undefined,
      token: typeof token === 'string' ? token : undefined,
    };
  } catch {
    return {};
  }
}

/**
 * Writes the config readable by its owner only (0600, folder 0700): it holds a bearer token. The
 * file is written beside and renamed over, so a crash never leaves half a token.
 */
export function writeConfig(config: StoredConfig, env: NodeJS.ProcessEnv = process.env) {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = configFile(env);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return file;
}

/** Removes the stored config; false when there was none. */
export function removeConfig(env: NodeJS.ProcessEnv = process.env) {
  const file = configFile(env);
  try {
    readFileSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}

/** Environment first (GPU_API, GPU_TOKEN: CI scripts), then the stored file. */
export function effectiveConfig(env: NodeJS.ProcessEnv = process.env): Partial<StoredConfig> {
  const stored = readConfig(env);
  return { api: env.GPU_API || stored.api, token: env.GPU_TOKEN || stored.token };
}
