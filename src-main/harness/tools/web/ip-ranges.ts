import { isIPv4, isIPv6 } from 'node:net';

/**
 * What kind of address a resolved IP is, for WebFetch's DNS check: anything but `public` is this
 * machine or a network behind it (a dev server, the cloud metadata service, a router), which a name
 * must not lead to without the person naming the address itself.
 */
export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared (carrier-grade NAT)'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

type Range = readonly [prefix: number[], bits: number, kind: AddressKind];

const V4_RANGES: readonly Range[] = [
  // 0.0.0.0/8 "this network": Linux connects 0.x.x.x to the local machine.
  [[0], 8, 'unspecified'],
  [[10], 8, 'private'],
  [[100, 64], 10, 'shared (carrier-grade NAT)'],
  [[127], 8, 'loopback'],
  [[169, 254], 16, 'link-local'],
  [[172, 16], 12, 'private'],
  [[192, 168], 16, 'private'],
  [[224], 4, 'multicast'],
  // 240/4 and the broadcast address: never a web server.
  [[240], 4, 'reserved'],
];

const V6_RANGES: readonly Range[] = [
  [[0xfe, 0x80], 10, 'link-local'],
  // Unique local addresses (fc00::/7) and the deprecated site-local fec0::/10.
  [[0xfc], 7, 'private'],
  [[0xfe, 0xc0], 10, 'private'],
  [[0xff], 8, 'multicast'],
  // RFC 8215's local-use NAT64 prefix: a network's own translator, which forwards to any IPv4
  // address (10.x and 169.254.169.254 included) wherever in the /48 the address is put.
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'private'],
];

function inRange(bytes: Uint8Array, prefix: number[], bits: number): boolean {
  for (let i = 0; i < prefix.length; i++) {
    const mask = bits >= (i + 1) * 8 ? 0xff : (0xff << (8 - Math.max(0, bits - i * 8))) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function v4Bytes(address: string): Uint8Array {
  return Uint8Array.from(address.split('.').map(Number));
}

/** The 16 bytes of an IPv6 address (`::` expanded, a trailing dotted IPv4 part read as 4 bytes). */
function v6Bytes(address: string): Uint8Array {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    tail.push(...v4Bytes(dotted[1]));
    text = text.slice(0, -dotted[1].length) + '0:0';
  }
  const [head = '', rest] = text.split('::');
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const words = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[i * 2] = w >> 8;
    bytes[i * 2 + 1] = w & 0xff;
  });
  if (tail.length === 4) bytes.set(tail, 12);
  return bytes;
}

function kindOfV4(bytes: Uint8Array): AddressKind {
  for (const [prefix, bits, kind] of V4_RANGES) if (inRange(bytes, prefix, bits)) return kind;
  return 'public';
}

/**
 * The IPv4 address an IPv6 one stands for, where the connection really goes there: IPv4-mapped
 * (::ffff:a.b.c.d), the deprecated IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::/96, which a NAT64
 * gateway forwards to that IPv4 address, private ones included).
 */
function embeddedV4(bytes: Uint8Array): Uint8Array | null {
  const zeros = (from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.subarray(12);
  if (zeros(0, 12)) return bytes.subarray(12);
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12))
    return bytes.subarray(12);
  return null;
}

/**
 * The IPv4 address an IPv6 literal spells (`::ffff:7f00:1` → `127.0.0.1`), or null: a rule or a
 * question about the IPv4 address would not recognise it in this form.
 */
export function ipv4Inside(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(bare)) return null;
  const bytes = v6Bytes(bare);
  if (bytes.subarray(0, 15).every((b) => b === 0)) return null; // :: and ::1 are IPv6's own
  const v4 = embeddedV4(bytes);
  return v4 ? Array.from(v4).join('.') : null;
}

/** The kind of an IP address (v4 or v6, a `%zone` allowed); anything not an IP address is `reserved`. */
export function addressKind(address: string): AddressKind {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return kindOfV4(v4Bytes(bare));
  if (!isIPv6(bare)) return 'reserved';
  const bytes = v6Bytes(bare);
  if (bytes.every((b) => b === 0)) return 'unspecified';
  if (bytes.subarray(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
  const v4 = embeddedV4(bytes);
  if (v4) return kindOfV4(v4);
  // 6to4 (2002:AABB:CCDD::/48 is the site of IPv4 AA.BB.CC.DD): a host with a 6to4 tunnel sends it
  // to that IPv4 address, so it is what that address is.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    const kind = kindOfV4(bytes.subarray(2, 6));
    if (kind !== 'public') return kind;
  }
  for (const [prefix, bits, kind] of V6_RANGES) if (inRange(bytes, prefix, bits)) return kind;
  return 'public';
}
