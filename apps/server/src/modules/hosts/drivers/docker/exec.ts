import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';

/**
 * Runs a command in a running container and answers its exit code and the tail of its output
 * (stdout and stderr together, at most `keep` characters: a chatty command cannot grow memory).
 */
export async function execOutput(
  docker: Docker,
  containerId: string,
  cmd: string[],
  opts: { user?: string; env?: string[]; keep?: number } = {},
): Promise<{ exitCode: number; output: string }> {
  const keep = opts.keep ?? 64_000;
  const exec = await docker.getContainer(containerId).exec({
    Cmd: cmd,
    ...(opts.user ? { User: opts.user } : {}),
    ...(opts.env ? { Env: opts.env } : {}),
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  let output = '';
  const sink = new PassThrough();
  sink.on('data', (d: Buffer) => {
    output = (output + d.toString()).slice(-keep);
  });
  docker.modem.demuxStream(stream, sink, sink);
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
  });
  const { ExitCode } = await exec.inspect();
  return { exitCode: ExitCode ?? -1, output };
}
