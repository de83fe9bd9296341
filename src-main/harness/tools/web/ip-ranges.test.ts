import { describe, expect, it } from 'vitest';
import { addressKind, ipv4Inside } from './ip-ranges';

describe('addressKind', () => {
  it('tells public IPv4 addresses from this machine and the networks behind it', () => {
    const cases: [string, string][] = [
      ['8.8.8.8', 'public'],
      ['1.1.1.1', 'public'],
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['10.0.0.5', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.1', 'public'],
      ['172.15.255.255', 'public'],
      ['192.168.1.1', 'private'],
      ['192.169.0.1', 'public'],
      ['100.64.0.1', 'shared (carrier-grade NAT)'],
      ['100.127.255.255', 'shared (carrier-grade NAT)'],
      ['100.128.0.1', 'public'],
      ['169.254.169.254', 'link-local'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.255', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
    ];
    for (const [address, kind] of cases) expect([address, addressKind(address)]).toEqual([address, kind]);
  });

  it('reads IPv6 in every spelling, IPv4 inside it included', () => {
    const cases: [string, string][] = [
      ['2606:4700:4700::1111', 'public'],
      ['::1', 'loopback'],
      ['0:0:0:0:0:0:0:1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'link-local'],
      ['fe80::1%eth0', 'link-local'],
      ['febf::1', 'link-local'],
      ['fd00::2', 'private'],
      ['fc00::1', 'private'],
      ['fec0::1', 'private'],
      ['ff02::1', 'multicast'],
      // IPv4-mapped, IPv4-compatible and NAT64 forms go where their IPv4 address is.
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:a9fe:a9fe', 'link-local'],
      ['::ffff:10.0.0.5', 'private'],
      ['::ffff:8.8.8.8', 'public'],
      ['::10.0.0.5', 'private'],
      ['64:ff9b::10.0.0.5', 'private'],
      ['64:ff9b::a00:5', 'private'],
      ['[::ffff:192.168.0.1]', 'private'],
    ];
    for (const [address, kind] of cases) expect([address, addressKind(address)]).toEqual([address, kind]);
  });

  it('calls what is not an address reserved, never public', () => {
    for (const junk of ['', 'example.com', '999.1.1.1', '1.2.3', 'fe80::zz'])
      expect(addressKind(junk)).toBe('reserved');
  });
});

describe('ipv4Inside', () => {
  it('finds the IPv4 address an IPv6 literal spells, and nothing in IPv6 of its own', () => {
    expect(ipv4Inside('[::ffff:7f00:1]')).toBe('127.0.0.1');
    expect(ipv4Inside('::ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(ipv4Inside('::7f00:1')).toBe('127.0.0.1');
    expect(ipv4Inside('64:ff9b::a00:5')).toBe('10.0.0.5');
    expect(ipv4Inside('::1')).toBeNull();
    expect(ipv4Inside('::')).toBeNull();
    expect(ipv4Inside('2606:4700::1111')).toBeNull();
    expect(ipv4Inside('127.0.0.1')).toBeNull();
  });
});
