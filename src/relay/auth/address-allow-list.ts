// A token's IP allow-list: one address or CIDR range per line (IPv4 or IPv6), matched with
// node:net's BlockList so ranges and IPv6 forms compare correctly. Entries were validated when
// the token was saved; anything unreadable is skipped rather than opening the list.
import { BlockList, isIP } from "node:net";

export type AddressAllowList = { allows(address: string): boolean };

export function parseAddressAllowList(text: string): AddressAllowList | null {
  const list = new BlockList();
  let entries = 0;
  for (const raw of text.split(/\r?\n/)) {
    const entry = raw.replace(/[\s,]/g, "");
    if (!entry) continue;
    const [address = "", prefix] = entry.split("/");
    const version = isIP(address);
    if (version === 0) continue;
    const family = version === 4 ? "ipv4" : "ipv6";
    try {
      if (prefix === undefined) list.addAddress(address, family);
      else list.addSubnet(address, Number(prefix), family);
      entries++;
    } catch {
      // An out-of-range prefix: skipped (the token form refuses it on save).
    }
  }
  if (entries === 0) return null;
  return {
    allows(address) {
      const version = isIP(address);
      return version !== 0 && list.check(address, version === 4 ? "ipv4" : "ipv6");
    },
  };
}
