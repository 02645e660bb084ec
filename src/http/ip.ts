// Client addresses: strict parsing (no `127.1`, `0x7f.0.0.1` or leading zeros: GHSA-r354-f388-2fhh),
// CIDR ranges, and the walk through `X-Forwarded-For`/`Forwarded` that stops at the first hop not run
// by a trusted proxy (anything to its left was written by the client and proves nothing).

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * The canonical form of an IP address, or `undefined` when it is not one: IPv4 as dotted decimal,
 * IPv6 compressed in lower case (a zone is dropped), IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as IPv4.
 */
export function canonicalAddress(text: string): string | undefined {
  if (IPV4.test(text)) return text;
  if (!text.includes(":") || !/^[0-9A-Fa-f:.]+(?:%[\w.-]+)?$/.test(text)) return undefined;
  const zone = text.indexOf("%");
  let host: string;
  try {
    host = new URL(`http://[${zone < 0 ? text : text.slice(0, zone)}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const high = Number.parseInt(mapped[1]!, 16);
    const low = Number.parseInt(mapped[2]!, 16);
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return host;
}

// An address as 16 bytes (IPv4 as its mapped IPv6 form), for range checks.
function toBytes(address: string): Uint8Array {
  const bytes = new Uint8Array(16);
  if (IPV4.test(address)) {
    bytes[10] = 0xff;
    bytes[11] = 0xff;
    address.split(".").forEach((part, i) => {
      bytes[12 + i] = Number(part);
    });
    return bytes;
  }
  const [head = "", tail] = address.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = [
    ...headGroups,
    ...Array(8 - headGroups.length - tailGroups.length).fill("0"),
    ...tailGroups,
  ];
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 255;
  });
  return bytes;
}

/**
 * The network an address stands for when counting clients: an IPv4 address itself, an IPv6 address its
 * /64 (one subscriber's usual allocation: a client holds all of it, and would otherwise count as 2^64).
 * Give it a canonical address.
 */
export function clientNetwork(address: string): string {
  if (IPV4.test(address)) return address;
  const bytes = toBytes(address);
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${groups.join(":")}::/64`;
}

/** A test for addresses in any of these ranges (`10.0.0.0/8`, `::1`, `2001:db8::/32`…); throws on a bad one. */
export function addressMatcher(ranges: readonly string[]): (address: string) => boolean {
  const compiled = ranges.map((range) => {
    const slash = range.indexOf("/");
    const address = canonicalAddress(slash < 0 ? range : range.slice(0, slash));
    const v4 = address !== undefined && IPV4.test(address);
    const bits = slash < 0 ? (v4 ? 32 : 128) : Number(range.slice(slash + 1));
    if (address === undefined || !Number.isInteger(bits) || bits < 0 || bits > (v4 ? 32 : 128)) {
      throw new TypeError(`Invalid address or range ${JSON.stringify(range)}`);
    }
    return { bytes: toBytes(address), prefix: v4 ? bits + 96 : bits };
  });
  return (address) => {
    const bytes = toBytes(address);
    return compiled.some(({ bytes: base, prefix }) => {
      for (let bit = 0; bit < prefix; bit += 8) {
        const mask = prefix - bit >= 8 ? 0xff : (0xff << (8 - (prefix - bit))) & 0xff;
        if ((bytes[bit >> 3]! & mask) !== (base[bit >> 3]! & mask)) return false;
      }
      return true;
    });
  };
}

/** Which header trusted proxies write. */
export type ProxyHeader = "x-forwarded-for" | "forwarded";

// One element of `Forwarded` (RFC 7239: `for=192.0.2.1;proto=https;host=example.com`), its parameter
// names in lower case and quotes removed.
function forwardedElements(value: string): (Map<string, string> | undefined)[] {
  return value.split(",").map((element) => {
    const pairs = new Map<string, string>();
    for (const part of element.split(";")) {
      const eq = part.indexOf("=");
      if (eq < 0) continue;
      let text = part.slice(eq + 1).trim();
      if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) text = text.slice(1, -1);
      const name = part.slice(0, eq).trim().toLowerCase();
      // RFC 7239 §4: a parameter occurs at most once per element. One that repeats (`for=a;for=b`)
      // makes the element invalid: it names no address, scheme or host (neither the first nor the last).
      if (pairs.has(name)) return undefined;
      pairs.set(name, text);
    }
    return pairs;
  });
}

// A `for=` node: an address with an optional port (`[v6]:port`, `v4:port`), or `undefined`.
function forwardedNode(node: string | undefined): string | undefined {
  if (node === undefined) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(node);
  if (bracketed) return canonicalAddress(bracketed[1]!);
  return canonicalAddress(node.replace(/:\d+$/, ""));
}

// The hops a header lists, left (client) to right (nearest proxy); `undefined` for one that is no address.
function hops(headers: Headers, header: ProxyHeader): (string | undefined)[] {
  const value = headers.get(header);
  if (value === null) return [];
  if (header === "x-forwarded-for") return value.split(",").map((hop) => canonicalAddress(hop.trim()));
  return forwardedElements(value).map((element) => forwardedNode(element?.get("for")));
}

// Where the walk from the right stops: the index of the first hop not run by a trusted proxy (the
// client), or of the leftmost hop when all are trusted; -1 when the peer itself is not trusted.
function clientHop(
  peer: string | undefined,
  list: readonly (string | undefined)[],
  trusted: (address: string) => boolean,
): number {
  if (peer === undefined || !trusted(peer)) return -1;
  for (let i = list.length - 1; i >= 0; i--) {
    const hop = list[i];
    if (hop === undefined) return i + 1;
    if (!trusted(hop)) return i;
  }
  return 0;
}

/**
 * The client's address: the peer's (canonical), unless the peer is a trusted proxy; then the
 * header's hops are walked from the right while they are trusted, and the first untrusted one is the
 * client (the request's headers are read only then).
 */
export function clientAddress(
  peer: string | undefined,
  request: { readonly headers: Headers },
  trusted: ((address: string) => boolean) | undefined,
  header: ProxyHeader,
): string | undefined {
  const client = peer === undefined ? undefined : (canonicalAddress(peer) ?? peer);
  if (trusted === undefined || client === undefined || !trusted(client)) return client;
  const list = hops(request.headers, header);
  const at = clientHop(client, list, trusted);
  return at < list.length ? list[at] : client;
}

/** The scheme and Host the client used, as trusted proxies tell them. */
export interface ForwardedOrigin {
  /** `http` or `https`, when a trusted proxy said which. */
  readonly scheme: "http" | "https" | undefined;
  /** The Host (`host[:port]`, lower case), when a trusted proxy said which. */
  readonly host: string | undefined;
}

/**
 * What the trusted proxies in front of the app say of the request the client made: its scheme
 * (`X-Forwarded-Proto`, or `proto=` of `Forwarded`) and Host (`X-Forwarded-Host`, or `host=`). Read only
 * when the peer is a trusted proxy (a client that reaches the app directly writes these headers as it
 * likes). With `Forwarded`, from the element of the hop where the client's address is found (the one
 * the outermost trusted proxy wrote); with `X-Forwarded-*`, from the value in the same position when a
 * header lists one per `X-Forwarded-For` hop, else the last value (the nearest proxy's). A value that is
 * not a scheme or a valid Host is ignored.
 */
export function forwardedOrigin(
  peer: string | undefined,
  request: { readonly headers: Headers },
  trusted: (address: string) => boolean,
  header: ProxyHeader,
  isHost: (host: string) => boolean,
): ForwardedOrigin | undefined {
  const client = peer === undefined ? undefined : (canonicalAddress(peer) ?? peer);
  if (client === undefined || !trusted(client)) return undefined;
  const headers = request.headers;
  let scheme: string | undefined;
  let host: string | undefined;
  if (header === "forwarded") {
    const value = headers.get("forwarded");
    if (value === null) return undefined;
    const elements = forwardedElements(value);
    const at = clientHop(
      client,
      elements.map((element) => forwardedNode(element?.get("for"))),
      trusted,
    );
    const element = elements[Math.min(at, elements.length - 1)];
    scheme = element?.get("proto");
    host = element?.get("host");
  } else {
    const list = hops(headers, header);
    const at = clientHop(client, list, trusted);
    scheme = aligned(headers.get("x-forwarded-proto"), list.length, at);
    host = aligned(headers.get("x-forwarded-host"), list.length, at);
  }
  scheme = scheme?.toLowerCase();
  host = host?.toLowerCase();
  return {
    scheme: scheme === "http" || scheme === "https" ? scheme : undefined,
    host: host !== undefined && isHost(host) ? host : undefined,
  };
}

// The value of an `X-Forwarded-Proto`/`-Host` list for the hop at `at` of `hops` hops: that position when
// the list has one value per hop, else the last (the nearest proxy's own).
function aligned(value: string | null, hopCount: number, at: number): string | undefined {
  if (value === null) return undefined;
  const values = value.split(",");
  const chosen = values.length === hopCount && at < hopCount ? values[at] : values[values.length - 1];
  return chosen?.trim() || undefined;
}
