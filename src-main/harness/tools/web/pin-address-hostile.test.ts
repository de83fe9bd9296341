import { describe, expect, it } from 'vitest';
import { addressKind } from './ip-ranges';
import { pinHost, type Resolve } from './pin-address';
import { WebFetchError } from './web-errors';

/*
 * A hostile name's DNS answers: every address a name resolves to must be one the open internet
 * reaches, whatever IPv6 spelling leads back to this machine or a network behind it.
 */

const answering =
  (...addresses: string[]): Resolve =>
  () =>
    Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

async function refusal(host: string, resolve: Resolve): Promise<WebFetchError> {
  const error = await pinHost(new URL(`https://${host}/`), resolve, new AbortController().signal).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebFetchError);
  return error as WebFetchError;
}

describe('WebFetch DNS pinning against hostile answers', () => {
  it('refuses a name answered with the local-use NAT64 prefix 64:ff9b:1::/48 (the network’s own gateway forwards it to any IPv4 address, 10.x included)', async () => {
    // RFC 8215: the /48 a network uses for its own translator; with a /96 form the IPv4 address is last.
    for (const address of [
      '64:ff9b:1::a00:5',
      '64:ff9b:1::a9fe:a9fe',
      '64:ff9b:1:a00:5::',
      '64:ff9b:1::7f00:1',
    ]) {
      expect([address, addressKind(address)]).not.toEqual([address, 'public']);
      const e = await refusal('rebind.example', answering('2606:4700::1111', address));
      expect(e.code).toBe('private-address');
      expect(e.message).toContain(address);
    }
  });

  it('refuses a name answered with a 6to4 address (2002::/16) whose IPv4 part is private or this machine', async () => {
    // 2002:AABB:CCDD::/48 is the 6to4 site of IPv4 AA.BB.CC.DD; a host with a 6to4 tunnel sends it there.
    const cases: [string, string][] = [
      ['2002:a00:5::1', 'private'],
      ['2002:7f00:1::1', 'loopback'],
      ['2002:a9fe:a9fe::', 'link-local'],
    ];
    for (const [address, kind] of cases) {
      expect([address, addressKind(address)]).toEqual([address, kind]);
      expect((await refusal('six.example', answering(address))).code).toBe('private-address');
    }
    // A 6to4 address of a public IPv4 site stays public.
    expect(addressKind('2002:808:808::1')).toBe('public');
  });

  it('refuses every spelling of this machine and of nowhere in an answer: ::, 0.0.0.0, 0.x, ::ffff:0.0.0.0, zone ids', async () => {
    for (const address of [
      '::',
      '0.0.0.0',
      '0.1.2.3',
      '::ffff:0.0.0.0',
      '::ffff:127.0.0.1',
      '::127.0.0.1',
      'fe80::1%eth0',
      '::1%lo',
      '127.0.0.1%lo',
    ]) {
      const e = await refusal('zero.example', answering('93.184.216.34', address));
      expect([address, e.code]).toEqual([address, 'private-address']);
    }
  });

  it('a name that resolves to nothing, or to text that is no address, is refused rather than connected to', async () => {
    expect((await refusal('empty.example', answering())).code).toBe('network');
    for (const junk of ['', 'localhost', 'not-an-ip', '1.2.3.4.5', '::g'])
      expect((await refusal('junk.example', answering('93.184.216.34', junk))).code).toBe('private-address');
  });

  it('an IP literal is where the person gave permission; its IPv4-in-IPv6 spellings are refused with the plain address', async () => {
    // `http://0/` and `http://0x0/` are 0.0.0.0 to the URL parser, as the permission prompt shows it.
    expect(new URL('http://0/').hostname).toBe('0.0.0.0');
    const literal = await pinHost(new URL('https://0/'), answering(), new AbortController().signal);
    expect(literal.addresses).toEqual([{ address: '0.0.0.0', family: 4 }]);
    for (const host of ['[::ffff:0:0]', '[::ffff:7f00:1]', '[64:ff9b::7f00:1]']) {
      const e = await refusal(host, answering());
      expect(e.code).toBe('ipv4-as-ipv6');
    }
  });
});
