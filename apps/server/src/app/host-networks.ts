import { isIP } from 'node:net';
import path from 'node:path';

/**
 * HOST_NETWORKS: where host drivers may connect, so host settings cannot turn the server into a
 * port scanner for whoever holds an admin token. Comma-separated entries:
 * - an IP or CIDR (`10.20.0.0/16`, `192.0.2.7`, `2001:db8::/32`): engines at those addresses;
 * - `unix:/path/to/docker.sock`: that unix socket (sockets are refused unless listed).
 * Loopback (127/8, ::1), "this host" (0/8, ::) and link-local (169.254/16, fe80::/10, where cloud
 * metadata lives) are refused even inside a wide entry (`0.0.0.0/0`); an entry inside one of
 * them (`127.0.0.1`, `169.254.0.0/16`) allows it. Unset or empty: no engine anywhere (the
 * simulated hosts of the embedded default connect to nothing).
 */
export interface HostNetworks {
  /** The entries as given (for messages and logs). */
  readonly text: string;
  /** Some address is allowed (else a name need not even be resolved). */
  readonly allowsSomeAddress: boolean;
  allowsAddress(address: string): boolean;
  allowsSocket(socketPath: string): boolean;
}

interface Net {
  family: 4 | 6;
  base: bigint;
  bits: number;
}

const V4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

function v4ToBig(a: string): bigint {
  return a.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function v6ToBig(a: string): bigint {
  let text = a.toLowerCase().split('%')[0] ?? '';
  // An embedded IPv4 tail (::ffff:1.2.3.4) as two hex groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail?.[1]) {
    const v4 = v4ToBig(tail[1]);
    text = `${text.slice(0, -tail[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const h = head ? head.split(':') : [];
  const r = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? h : [...h, ...Array(8 - h.length - r.length).fill('0'), ...r];
  return groups.reduce((n, g) => (n << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n);
}

/** An address as (family, number); IPv4-mapped IPv6 counts as the IPv4 address it maps. */
function addressOf(address: string): { family: 4 | 6; value: bigint } | null {
  const mapped = V4_MAPPED.exec(address);
  const a = mapped?.[1] ?? address.split('%')[0] ?? '';
  const family = isIP(a);
  if (family === 4) return { family: 4, value: v4ToBig(a) };
  if (family === 6) return { family: 6, value: v6ToBig(a) };
  return null;
}

const width = (family: 4 | 6) => (family === 4 ? 32 : 128);
const contains = (net: Net, family: 4 | 6, value: bigint) => {
  if (net.family !== family) return false;
  const shift = BigInt(width(family) - net.bits);
  return value >> shift === net.base >> shift;
};

function parseNet(entry: string): Net | null {
  const [ip = '', bitsText, extra] = entry.split('/');
  if (extra !== undefined) return null;
  const a = addressOf(ip);
  if (!a) return null;
  const max = width(a.family);
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) return null;
  const bits = bitsText === undefined ? max : Number(bitsText);
  if (bits > max) return null;
  return { family: a.family, base: a.value, bits };
}

/** Reached only when an entry inside them says so. */
const GUARDED: Net[] = ['127.0.0.0/8', '0.0.0.0/8', '169.254.0.0/16', '::1/128', '::/128', 'fe80::/10'].map(
  (e) => parseNet(e) as Net,
);

/** Parses HOST_NETWORKS; a string answer is what is wrong with it (zh-CN). */
export function parseHostNetworks(text: string): HostNetworks | string {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const nets: Net[] = [];
  const sockets: string[] = [];
  for (const e of entries) {
    if (e.startsWith('unix:')) {
      const p = e.slice('unix:'.length);
      if (!path.isAbsolute(p)) return `unix: 后应为套接字的绝对路径：${e}`;
      sockets.push(path.normalize(p));
      continue;
    }
    const net = parseNet(e);
    if (!net) return `不是有效的 IP、CIDR 或 unix:路径：${e}`;
    nets.push(net);
  }
  return {
    text: entries.join(','),
    allowsSomeAddress: nets.length > 0,
    allowsAddress(address) {
      const a = addressOf(address);
      if (!a) return false;
      const guard = GUARDED.find((g) => contains(g, a.family, a.value));
      return nets.some(
        (n) =>
          contains(n, a.family, a.value) &&
          (!guard || (n.bits >= guard.bits && contains(guard, n.family, n.base))),
      );
    },
    allowsSocket: (socketPath) => path.isAbsolute(socketPath) && sockets.includes(path.normalize(socketPath)),
  };
}

/** HOST_NETWORKS unset: nothing is reachable. */
export const NO_HOST_NETWORKS = parseHostNetworks('') as HostNetworks;
