import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressKind, ipv4Inside, type AddressKind } from './ip-ranges';
import { WebFetchError } from './web-errors';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a name resolves to, in the resolver's order (the seam tests inject a resolver at). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver, as Node's own connections use it (getaddrinfo: /etc/hosts, then DNS). */
export const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** Where one hop of a fetch connects: these addresses and no others (the name is not resolved again). */
export interface PinnedHost {
  /** The host as the request names it (for Host, SNI and the certificate check), without brackets. */
  host: string;
  addresses: ResolvedAddress[];
}

const ARTICLE: Record<AddressKind, string> = {
  public: 'a public',
  loopback: 'a loopback',
  private: 'a private',
  'link-local': 'a link-local',
  'shared (carrier-grade NAT)': 'a shared (carrier-grade NAT)',
  unspecified: 'an unspecified',
  multicast: 'a multicast',
  reserved: 'a reserved',
};

function describe(address: string, kind: AddressKind): string {
  return `${address}, ${ARTICLE[kind]} address`;
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

/** Resolves, unless the caller's signal (abort or deadline) ends first: getaddrinfo itself cannot be stopped. */
function resolveWithin(resolve: Resolve, host: string, signal: AbortSignal): Promise<ResolvedAddress[]> {
  signal.throwIfAborted();
  return new Promise((ok, fail) => {
    const stop = () => fail(asError(signal.reason));
    signal.addEventListener('abort', stop, { once: true });
    resolve(host).then(
      (answers) => {
        signal.removeEventListener('abort', stop);
        ok(answers);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        fail(asError(error));
      },
    );
  });
}

/**
 * Decides where one hop of WebFetch may connect, once, before connecting. An IP literal (the URL parser
 * has already turned `2130706433`, `0x7f.1` or `127.1` into `127.0.0.1`) is where the person's
 * permission was given, so it is used as it is, whatever kind. A name is resolved here, every address
 * it has checked, and the request then connects only to these (fetch-page passes them as its `lookup`):
 * a name that resolves to this machine or a network behind it is refused, naming the address, so an
 * approved `evil.example` cannot lead to 127.0.0.1, 169.254.169.254 or 10.x — neither from the start
 * nor by answering differently when connected to (DNS rebinding). `localhost` is the machine by name,
 * deliberately: its addresses must be loopback ones. An IPv6 spelling of an IPv4 address
 * (`[::ffff:127.0.0.1]`) is refused with the plain address to fetch instead, so a rule about the
 * address cannot be stepped around.
 */
export async function pinHost(url: URL, resolve: Resolve, signal: AbortSignal): Promise<PinnedHost> {
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const family = isIP(host);
  const v4 = family === 6 ? ipv4Inside(host) : null;
  if (v4 !== null)
    throw new WebFetchError(
      'ipv4-as-ipv6',
      `${url.hostname} is ${v4} written as an IPv6 address; fetch it by its IPv4 address (${v4}) to ask for it`,
    );
  if (family !== 0) return { host, addresses: [{ address: host, family: family === 6 ? 6 : 4 }] };

  const answers = await resolveWithin(resolve, host, signal);
  if (answers.length === 0)
    throw new WebFetchError('network', `Could not fetch ${url.href}: ${host} resolves to no address`);
  if (host === 'localhost') {
    const away = answers.find((a) => addressKind(a.address) !== 'loopback');
    if (away)
      throw new WebFetchError(
        'private-address',
        `localhost resolves to ${describe(away.address, addressKind(away.address))}, not to this machine; WebFetch does not fetch it`,
      );
    return { host, addresses: answers };
  }
  for (const a of answers) {
    const kind = addressKind(a.address);
    if (kind !== 'public')
      throw new WebFetchError(
        'private-address',
        `${host} resolves to ${describe(a.address, kind)}: WebFetch does not follow a name to this machine or a network behind it; fetch it by its address to ask for it`,
      );
  }
  return { host, addresses: answers };
}
