import { BlockList, isIP } from 'node:net';
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

type Family = 'ipv4' | 'ipv6';
interface Net {
  address: string;
  prefix: number;
  family: Family;
}

const familyOf = (address: string): Family | null => {
  const f = isIP(address);
  return f === 4 ? 'ipv4' : f === 6 ? 'ipv6' : null;
};
/** An address as checked: without an IPv6 zone (`fe80::1%eth0`). */
const bare = (address: string) => address.split('%')[0] ?? '';

function parseNet(entry: string): Net | null {
  const [address = '', prefixText, extra] = entry.split('/');
  const family = familyOf(address);
  if (extra !== undefined || !family) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  return prefix <= max ? { address, prefix, family } : null;
}

/** Node's own subnet matching (IPv4-mapped IPv6 addresses match their IPv4 subnets). */
function listOf(nets: Net[]): BlockList {
  const list = new BlockList();
  for (const n of nets) list.addSubnet(n.address, n.prefix, n.family);
  return list;
}

/** Reached only when an entry inside them says so. */
const GUARDS = ['127.0.0.0/8', '0.0.0.0/8', '169.254.0.0/16', '::1/128', '::/128', 'fe80::/10'].map((e) => {
  const net = parseNet(e) as Net;
  return { net, list: listOf([net]) };
});
const GUARDED = listOf(GUARDS.map((g) => g.net));

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
  const allowed = listOf(nets);
  // Entries that lie inside a guarded range: only they open it.
  const inside = listOf(
    nets.filter((n) => GUARDS.some((g) => n.prefix >= g.net.prefix && g.list.check(n.address, n.family))),
  );
  return {
    text: entries.join(','),
    allowsSomeAddress: nets.length > 0,
    allowsAddress(address) {
      const a = bare(address);
      const family = familyOf(a);
      if (!family || !allowed.check(a, family)) return false;
      return !GUARDED.check(a, family) || inside.check(a, family);
    },
    allowsSocket: (socketPath) => path.isAbsolute(socketPath) && sockets.includes(path.normalize(socketPath)),
  };
}

/** HOST_NETWORKS unset: nothing is reachable. */
export const NO_HOST_NETWORKS = parseHostNetworks('') as HostNetworks;
