import { hostname as machineName, networkInterfaces } from 'node:os';

/** Addresses that mean "every interface". */
export const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '0:0:0:0:0:0:0:0']);

export function isLoopback(address: string): boolean {
  return /^127\./.test(address) || address === '::1' || address === 'localhost' || /^::ffff:127\./.test(address);
}

/** How an address is written in a URL or a Host header: IPv6 in brackets. */
export function urlHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * The host names a request may name in its Host header. Loopback names, any
 * `*.localhost` name (RFC 6761: always loopback, which browsers resolve without DNS;
 * it is how `<bucket>.s3.localhost`, `<id>.execute-api.localhost` and
 * `<id>.lambda-url.localhost` reach the server), and the address the server is bound
 * to. Anything else is what a DNS-rebinding page sends (`Host: evil.example:4566`).
 */
export class HostAllowList {
  private readonly names = new Set(['localhost', '127.0.0.1', '[::1]']);

  constructor(boundAddress: string) {
    if (WILDCARD_HOSTS.has(boundAddress)) {
      // Every interface answers: its addresses, the machine's name, and the name containers use for their host.
      for (const entries of Object.values(networkInterfaces())) {
        for (const entry of entries ?? []) this.names.add(urlHost(entry.address.replace(/%.*$/, '')).toLowerCase());
      }
      this.names.add(machineName().toLowerCase());
      this.names.add('host.docker.internal');
    } else {
      this.names.add(urlHost(boundAddress).toLowerCase());
    }
  }

  /** `hostname` is the Host header without its port. */
  allows(hostname: string): boolean {
    const name = hostname.toLowerCase();
    return this.names.has(name) || /^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.localhost$/.test(name);
  }
}

/** The host name of a Host header value: `[::1]:4566` → `[::1]`, `localhost:4566` → `localhost`. */
export function hostnameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
}
