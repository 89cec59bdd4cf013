import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
export const ARTIFACTS = path.join(REPO_ROOT, 'artifacts');
export const WEB_DIST = path.join(REPO_ROOT, 'apps/web/dist');
export const ADMIN = { username: 'admin', password: 'Admin12345' } as const;
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
