// The signer as the Bedrock kind configures it, against AWS's published SigV4 test suite
// (credentials AKIDEXAMPLE, 2015-08-30T12:36:00Z, service "service", us-east-1).
import { describe, expect, test } from "bun:test";
import { signAwsRequest } from "./aws-signing.ts";

const scope = {
  credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
  region: "us-east-1",
  service: "service",
};
const date = new Date(Date.UTC(2015, 7, 30, 12, 36, 0));
const credential =
  "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=";

describe("SigV4 (AWS test suite vectors)", () => {
  test("get-vanilla", async () => {
    const headers = await signAwsRequest({ method: "GET", url: "https://example.amazonaws.com/", headers: {} }, scope, date);
    expect(headers["x-amz-date"]).toBe("20150830T123600Z");
    expect(headers.authorization).toBe(`${credential}5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31`);
  });

  test("post-vanilla", async () => {
    const headers = await signAwsRequest({ method: "POST", url: "https://example.amazonaws.com/", headers: {} }, scope, date);
    expect(headers.authorization).toBe(`${credential}5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b`);
  });

  test("get-vanilla-query-order-key-case: the query is sorted before signing", async () => {
    const headers = await signAwsRequest(
      { method: "GET", url: "https://example.amazonaws.com/?Param2=value2&Param1=value1", headers: {} },
      scope,
      date,
    );
    expect(headers.authorization).toBe(`${credential}b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500`);
  });

  test("signed headers include the ones given; the body changes the signature", async () => {
    const request = {
      method: "POST",
      url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-v2%3A1/invoke",
      headers: { "content-type": "application/json" },
    };
    const one = await signAwsRequest({ ...request, body: '{"a":1}' }, { ...scope, service: "bedrock" }, date);
    const two = await signAwsRequest({ ...request, body: '{"a":2}' }, { ...scope, service: "bedrock" }, date);
    expect(one.authorization).toContain("/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=");
    expect(one.authorization).not.toBe(two.authorization);
  });
});
