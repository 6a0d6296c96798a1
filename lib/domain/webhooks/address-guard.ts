/**
 * Which IP addresses a webhook may never reach from a public install: anything that is not the
 * public internet (loopback, private, link-local with the cloud metadata services, CGNAT,
 * multicast, documentation and reserved ranges). A merchant's URL is attacker-controlled input;
 * without this, "send a webhook" becomes "make the gateway call its own admin ports".
 */

import { BlockList, isIP } from "node:net";

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT (also Alibaba's metadata at 100.100.100.200)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local: AWS/GCP/Azure metadata at 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["100::", 64], // discard-only
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local (incl. fd00:ec2::254, AWS metadata over IPv6)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // old site-local
  ["ff00::", 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/** True when the address must not be called; also for anything that is not an IP address. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return NON_PUBLIC.check(address, "ipv4");
  if (family !== 6) return true;
  if (NON_PUBLIC.check(address, "ipv6")) return true;
  const embedded = embeddedIpv4(address);
  return embedded !== null && NON_PUBLIC.check(embedded, "ipv4");
}

/**
 * The IPv4 address inside an IPv6 one that routes to it: IPv4-mapped (::ffff:a.b.c.d),
 * IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
 */
export function embeddedIpv4(address: string): string | null {
  const words = ipv6Words(address);
  if (!words) return null;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && (words[5] === 0xffff || words[5] === 0)) return v4(words[6], words[7]);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return v4(words[6], words[7]);
  if (words[0] === 0x2002) return v4(words[1], words[2]);
  return null;
}

type Ipv6Words = [number, number, number, number, number, number, number, number];

function isEightWords(words: number[]): words is Ipv6Words {
  return words.length === 8;
}

/** The eight 16-bit words of an IPv6 address (a trailing dotted IPv4 part allowed), or null. */
function ipv6Words(address: string): Ipv6Words | null {
  // biome-ignore lint/style/noNonNullAssertion: split always returns at least one part
  let text = address.toLowerCase().split("%")[0]!;
  const dotted = /\d+\.\d+\.\d+\.\d+$/.exec(text);
  if (dotted) {
    const octets = dotted[0].split(".").map(Number);
    if (octets.some((o) => o > 255)) return null;
    // biome-ignore lint/style/noNonNullAssertion: the regex matched four dot-separated numbers, so octets has four entries
    text = `${text.slice(0, dotted.index)}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((w) => parseInt(w, 16)));
  // biome-ignore lint/style/noNonNullAssertion: split always returns at least one part
  const head = parse(halves[0]!);
  // biome-ignore lint/style/noNonNullAssertion: halves has two parts here
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const words = [...head, ...Array<number>(Math.max(0, fill)).fill(0), ...tail];
  return isEightWords(words) && words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

/** The host of a URL as an IP address when it is one (brackets of IPv6 literals removed). */
export function ipLiteralHost(url: URL): string | null {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : null;
}
