import { describe, expect, test } from "bun:test";
import Sign from "tencentcloud-sdk-nodejs-common/tencentcloud/common/sign.js";
import { signTc3, utcDate } from "./hunyuan-sign.ts";

// Tencent's published example for TC3-HMAC-SHA256 (cloud.tencent.com "签名方法 v3", also in
// TencentCloud/signature-process-demo): CVM DescribeInstances in ap-guangzhou at 1551113065.
const example = {
  secretId: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******",
  secretKey: "Gu5t9xGARNpq86cd98joQYCN3*******",
  service: "cvm",
  host: "cvm.tencentcloudapi.com",
  timestamp: 1551113065,
  contentType: "application/json; charset=utf-8",
  payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
};

describe("TC3-HMAC-SHA256", () => {
  test("the published example: canonical request, string to sign, signature, Authorization", () => {
    const signed = signTc3(example);
    expect(signed.canonicalRequest).toBe(
      "POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064",
    );
    expect(signed.stringToSign).toBe(
      "TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031",
    );
    expect(signed.signature).toBe("2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c");
    expect(signed.authorization).toBe(
      "TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3*******/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=2230eefd229f582d8b1b891af7107b91597240707d778ab3738f756258d7652c",
    );
  });

  test("the earlier edition of the example (key ending EXAMPLE) signs to its published value", () => {
    const signed = signTc3({ ...example, secretId: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", secretKey: "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE" });
    expect(signed.signature).toBe("72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168");
  });

  test("Tencent's own SDK (tencentcloud-sdk-nodejs-common Sign.sign3) signs a Hunyuan call to the same Authorization", () => {
    const input = {
      secretId: "AKIDhunyuan",
      secretKey: "hunyuan-secret",
      service: "hunyuan",
      host: "hunyuan.tencentcloudapi.com",
      timestamp: 1_700_000_000,
      contentType: "application/json",
      payload: JSON.stringify({ Model: "hunyuan-lite", Messages: [{ Role: "user", Content: "你好" }], Stream: false }),
    };
    const official = Sign.sign3({
      method: "POST",
      url: `https://${input.host}/`,
      payload: Buffer.from(input.payload),
      timestamp: input.timestamp,
      service: input.service,
      secretId: input.secretId,
      secretKey: input.secretKey,
      headers: { "Content-Type": input.contentType },
    } as never);
    expect(signTc3(input).authorization).toBe(official);
  });

  test("the credential date is the UTC date, not the local one", () => {
    expect(utcDate(1551113065)).toBe("2019-02-25");
    expect(utcDate(1700006399)).toBe("2023-11-14");
    expect(utcDate(1700006400)).toBe("2023-11-15");
  });
});
