import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's `docker-registry` package (Distribution 2.x): a registry without any internet. */
export const REGISTRY_BINARY = 'docker-registry';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/**
 * Starts a throwaway registry on 127.0.0.1 (dockerd talks plain HTTP to 127.0.0.0/8 without
 * being told), storage in a temporary folder, deletes allowed; `stop` kills it by its pid and
 * removes the folder. Fails clearly when the package is missing.
 */
export async function startTestRegistry(): Promise<{ address: string; stop(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'gpu-test-registry-'));
  const port = await freePort();
  const config = join(dir, 'config.yml');
  await writeFile(
    config,
    [
      'version: 0.1',
      'log: { level: error }',
      `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} }, delete: { enabled: true } }`,
      `http: { addr: 127.0.0.1:${port} }`,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(REGISTRY_BINARY, ['serve', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  const spawnError = new Promise<never>((_, reject) =>
    child.once('error', (err) =>
      reject(new Error(`${REGISTRY_BINARY} did not start (apt-get install docker-registry): ${err.message}`)),
    ),
  );
  const stop = async () => {
    if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGTERM');
    await rm(dir, { recursive: true, force: true });
  };
  const address = `127.0.0.1:${port}`;
  const ready = (async () => {
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`http://${address}/v2/`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      if (child.exitCode !== null) throw new Error(`${REGISTRY_BINARY} exited: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${REGISTRY_BINARY} did not answer on ${address}: ${stderr}`);
  })();
  try {
    await Promise.race([ready, spawnError]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, stop };
}
