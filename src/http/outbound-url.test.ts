// The outbound URL guard (reliability plan S1): every address form that points into the
// gateway's own network is refused before any connection, whatever the spelling; public
// https targets pass; names resolving to a private address (or to a mix) are refused.
import { afterEach, describe, expect, test } from "bun:test";
import { checkOutboundUrl, isBlockedAddress, trustOutboundHosts } from "./outbound-url.ts";

const publicResolver = async () => ["93.184.216.34"];
const reason = async (url: string, resolve = publicResolver, allowHttp = false) => {
  try {
    await checkOutboundUrl(url, { allowHttp }, resolve);
    return "allowed";
  } catch (error) {
    expect((error as Error).message).toBe("不允许访问该地址");
    return String(((error as Error).cause as Error).message);
  }
};

afterEach(() => trustOutboundHosts([]));

describe("checkOutboundUrl", () => {
  test("refuses loopback, private, link-local, CGNAT and reserved addresses in every spelling", async () => {
    const corpus = [
      "https://127.0.0.1/",
      "https://[::1]/",
      "https://0.0.0.0/",
      "https://0/",
      "https://2130706433/",
      "https://0x7f000001/",
      "https://017700000001/",
      "https://127.1/",
      "https://[::ffff:127.0.0.1]/",
      "https://169.254.169.254/latest/meta-data",
      "https://10.1.2.3/",
      "https://172.16.0.1/",
      "https://172.31.255.255/",
      "https://192.168.1.1/",
      "https://100.64.0.1/",
      "https://[fc00::1]/",
      "https://[fd12:3456::1]/",
      "https://[fe80::1]/",
      "https://224.0.0.1/",
      "https://[::]/",
    ];
    for (const url of corpus) expect(await reason(url)).not.toBe("allowed");
  });

  test("refuses other schemes, credentials, plain http and unusual ports", async () => {
    expect(await reason("file:///etc/passwd")).toBe("scheme file:");
    expect(await reason("gopher://example.com/")).toBe("scheme gopher:");
    expect(await reason("data:text/plain,hi")).toBe("scheme data:");
    expect(await reason("ftp://example.com/")).toBe("scheme ftp:");
    expect(await reason("https://user:pass@example.com/")).toBe("credentials in the URL");
    expect(await reason("http://example.com/")).toBe("plain http");
    expect(await reason("https://example.com:2375/")).toBe("port 2375");
    expect(await reason("not a url")).toBe("not a URL");
  });

  test("names are resolved and every address must be public", async () => {
    expect(await reason("https://localhost/", async () => ["127.0.0.1"])).toBe("localhost resolves to 127.0.0.1");
    expect(await reason("https://metadata.google.internal/", async () => ["169.254.169.254"])).toContain("169.254.169.254");
    expect(await reason("https://mixed.example/", async () => ["93.184.216.34", "10.0.0.5"])).toBe("mixed.example resolves to 10.0.0.5");
    expect(
      await reason("https://nowhere.example/", async () => {
        throw new Error("ENOTFOUND");
      }),
    ).toBe("cannot resolve nowhere.example");
  });

  test("public https targets pass and carry the checked address", async () => {
    const target = await checkOutboundUrl("https://hooks.example.com/notify?x=1", {}, publicResolver);
    expect(target.address).toBe("93.184.216.34");
    expect(target.trusted).toBe(false);
    expect((await checkOutboundUrl("http://hooks.example.com:8080/", { allowHttp: true }, publicResolver)).url.port).toBe("8080");
  });

  test("hosts the operator trusts may be private, on any port and over http", async () => {
    trustOutboundHosts(["127.0.0.2", "Intranet.Example"]);
    expect((await checkOutboundUrl("http://127.0.0.2:9999/hook", {}, publicResolver)).trusted).toBe(true);
    expect((await checkOutboundUrl("https://intranet.example/", {}, async () => ["10.0.0.9"])).address).toBe("10.0.0.9");
    expect(await reason("http://127.0.0.1:9999/hook")).toBe("plain http");
    expect(await reason("https://127.0.0.1:443/")).toBe("private address 127.0.0.1");
  });
});

describe("isBlockedAddress", () => {
  test("classifies addresses", () => {
    expect(isBlockedAddress("8.8.8.8")).toBe(false);
    expect(isBlockedAddress("2606:4700::1111")).toBe(false);
    expect(isBlockedAddress("127.0.0.1")).toBe(true);
    expect(isBlockedAddress("::ffff:10.0.0.1")).toBe(true);
    expect(isBlockedAddress("not-an-ip")).toBe(true);
  });
});
