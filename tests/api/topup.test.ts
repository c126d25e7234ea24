// Online top-up through Epay (reliability plan P1-P5, L8): the
// quote by group ratio and minimum, the signed order form, and the notification that credits
// each order exactly once whatever arrives and however often.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { type ApiSession, rootSession } from "../helpers/api-session.ts";
import { seedUsers, type SeededUser } from "../helpers/seeded-users.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

const merchantId = "1001";
const merchantKey = "epay-merchant-key-canary";

let server: TestServer;
let root: ApiSession;
let buyer: SeededUser;
let vip: SeededUser;

beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  [buyer] = await seedUsers(server, "buyer", 1);
  [vip] = await seedUsers(server, "vip", 1, { group: "vip" });
});
afterAll(() => server.stop());

function sign(params: Record<string, string>, key = merchantKey): string {
  const text = Object.keys(params)
    .filter((name) => name !== "sign" && name !== "sign_type" && params[name] !== "")
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join("&");
  return createHash("md5")
    .update(text + key)
    .digest("hex");
}

const setOptions = (entries: Record<string, string>) =>
  root.put(
    "/api/option/",
    Object.entries(entries).map(([key, value]) => ({ key, value })),
  );

async function quotaOf(user: SeededUser): Promise<number> {
  const [row] = await server.store.query<{ quota: number }>("select quota from users where id = ?", user.id);
  return Number(row!.quota);
}

async function orderOf(tradeNo: string) {
  const [row] = await server.store.query<{ status: string; quota: number; money: number; amount: number; payment_method: string }>(
    "select status, quota, money, amount, payment_method from top_ups where trade_no = ?",
    tradeNo,
  );
  // PostgreSQL's driver returns bigint columns as strings.
  return { ...row!, quota: Number(row!.quota), amount: Number(row!.amount), money: Number(row!.money) };
}

function notifyParams(order: Record<string, string>, overrides: Record<string, string> = {}) {
  const params: Record<string, string> = {
    pid: merchantId,
    trade_no: `EP${Math.random().toString().slice(2, 12)}`,
    out_trade_no: order.out_trade_no!,
    type: order.type ?? "alipay",
    name: "TUC3",
    money: order.money!,
    trade_status: "TRADE_SUCCESS",
    ...overrides,
  };
  params.sign = sign(params);
  params.sign_type = "MD5";
  return params;
}

async function notify(params: Record<string, string>, method: "GET" | "POST" = "GET"): Promise<string> {
  const query = new URLSearchParams(params).toString();
  const response =
    method === "GET"
      ? await fetch(`${server.url}/api/user/epay/notify?${query}`)
      : await fetch(`${server.url}/api/user/epay/notify`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: query,
        });
  return response.text();
}

async function placeOrder(user: SeededUser, amount: number, method = "zfb") {
  const result = await user.session.post("/api/user/pay", { amount, payment_method: method });
  expect(result.body.success).toBe(true);
  return result.body as { data: Record<string, string>; url: string; message: string };
}

describe("before the gateway is configured", () => {
  test("quotes and orders are refused", async () => {
    for (const path of ["/api/user/amount", "/api/user/pay"]) {
      const result = await buyer.session.post(path, { amount: 10, payment_method: "zfb" });
      expect(result.body).toEqual({ success: false, message: "管理员未开启在线充值！", data: "管理员未开启在线充值！" });
    }
    expect((await fetch(`${server.url}/api/status`).then((r) => r.json())).data.enable_online_topup).toBe(false);
  });

  test("payment settings need the server address first", async () => {
    expect((await setOptions({ PayAddress: "https://pay.example.com" })).body).toEqual({ success: false, message: "请先填写服务器地址" });
    expect(
      (
        await setOptions({
          ServerAddress: "https://gw.example.com/",
          PayAddress: "https://pay.example.com/",
          EpayId: merchantId,
          EpayKey: merchantKey,
        })
      ).body.success,
    ).toBe(true);
    expect((await setOptions({ Price: "7.3", MinTopUp: "2", TopupGroupRatio: '{"default":1,"vip":0.8}' })).body.success).toBe(true);
    expect((await fetch(`${server.url}/api/status`).then((r) => r.json())).data.enable_online_topup).toBe(true);
  });
});

describe("quote", () => {
  test("money = amount x Price x the group's top-up ratio, to the cent", async () => {
    expect((await buyer.session.post("/api/user/amount", { amount: 3 })).body).toEqual({
      success: true,
      message: "success",
      data: "21.90",
    });
    expect((await vip.session.post("/api/user/amount", { amount: 3 })).body.data).toBe("17.52");
    expect((await buyer.session.post("/api/user/amount", { amount: "7" })).body.data).toBe("51.10");
  });

  test("the minimum and the amount's form are enforced with the specification's messages", async () => {
    expect((await buyer.session.post("/api/user/amount", { amount: 1 })).body).toEqual({
      success: false,
      message: "充值数量不能小于2",
      data: "充值数量不能小于2",
    });
    expect((await buyer.session.post("/api/user/amount", { amount: 2.5 })).body.message).toBe("请输入有效的充值数量");
    expect((await buyer.session.post("/api/user/amount", { amount: "many" })).body.message).toBe("请输入有效的充值数量");
    expect((await buyer.session.post("/api/user/pay", { amount: 1, payment_method: "zfb" })).body.message).toBe("充值数量不能小于2");
  });

  test("in points mode the amount is quota points and the minimum scales with QuotaPerUnit", async () => {
    await setOptions({ DisplayInCurrencyEnabled: "false" });
    try {
      expect((await buyer.session.post("/api/user/amount", { amount: 999_999 })).body.message).toBe("充值数量不能小于1000000");
      expect((await buyer.session.post("/api/user/amount", { amount: 1_500_000 })).body.data).toBe("21.90");
      const order = await placeOrder(buyer, 1_500_000);
      expect((await orderOf(order.data.out_trade_no!)).quota).toBe(1_500_000);
    } finally {
      await setOptions({ DisplayInCurrencyEnabled: "true" });
    }
  });

  test("a ratio that makes the money vanish is refused", async () => {
    await setOptions({ Price: "0.001" });
    try {
      expect((await buyer.session.post("/api/user/amount", { amount: 2 })).body.message).toBe("充值金额过低");
    } finally {
      await setOptions({ Price: "7.3" });
    }
  });
});

describe("order", () => {
  test("a pending order and the signed Epay form to post", async () => {
    const order = await placeOrder(buyer, 3);
    expect(order.url).toBe("https://pay.example.com/submit.php");
    const { sign: signature, sign_type, ...fields } = order.data;
    expect(sign_type).toBe("MD5");
    expect(signature).toBe(sign(fields));
    expect(fields).toMatchObject({
      pid: merchantId,
      type: "alipay",
      notify_url: "https://gw.example.com/api/user/epay/notify",
      return_url: "https://gw.example.com/api/user/epay/return",
      name: "TUC3",
      money: "21.90",
    });
    expect(fields.out_trade_no).toMatch(new RegExp(`^USR${buyer.id}NO[0-9A-Za-z]{6}\\d+$`));
    expect(await orderOf(fields.out_trade_no!)).toMatchObject({ status: "pending", quota: 1_500_000, amount: 3, payment_method: "alipay" });
    expect(Number((await orderOf(fields.out_trade_no!)).money)).toBeCloseTo(21.9, 10);
  });

  test("WeChat, a custom callback address, and unknown methods", async () => {
    await setOptions({ CustomCallbackAddress: "https://callback.example.com/" });
    try {
      const order = await placeOrder(vip, 2, "wx");
      expect(order.data.type).toBe("wxpay");
      expect(order.data.money).toBe("11.68");
      expect(order.data.notify_url).toBe("https://callback.example.com/api/user/epay/notify");
    } finally {
      await setOptions({ CustomCallbackAddress: "" });
    }
    expect((await buyer.session.post("/api/user/pay", { amount: 3, payment_method: "bitcoin" })).body.message).toBe("不支持的支付方式");
  });
});

describe("notify", () => {
  test("forged, foreign and unfinished notifications change nothing", async () => {
    const order = (await placeOrder(buyer, 3)).data;
    const before = await quotaOf(buyer);
    const good = notifyParams(order);
    expect(await notify({ ...good, sign: "0".repeat(32) })).toBe("fail");
    const { sign: _sign, ...unsigned } = good;
    expect(await notify(unsigned)).toBe("fail");
    expect(await notify({ ...good, sign_type: "SHA256" })).toBe("fail");
    expect(await notify({ ...good, money: "2190.00" })).toBe("fail"); // changed after signing
    expect(await notify(notifyParams(order, { pid: "9999" }))).toBe("fail");
    expect(await notify(notifyParams({ ...order, out_trade_no: "USR1NOnothing0" }))).toBe("fail");
    const forged = { ...good };
    forged.sign = sign(Object.fromEntries(Object.entries(good).filter(([name]) => name !== "sign")), "guessed-key");
    expect(await notify(forged)).toBe("fail");
    expect(await notify(notifyParams(order, { trade_status: "WAIT_BUYER_PAY" }))).toBe("success");
    expect((await orderOf(order.out_trade_no!)).status).toBe("pending");
    expect(await quotaOf(buyer)).toBe(before);
  });

  test("a signed notification with another amount or method goes to review, never credited", async () => {
    const order = (await placeOrder(buyer, 3)).data;
    const before = await quotaOf(buyer);
    expect(await notify(notifyParams(order, { money: "0.01" }))).toBe("fail");
    expect((await orderOf(order.out_trade_no!)).status).toBe("review");
    expect(await notify(notifyParams(order))).toBe("fail");
    expect(await quotaOf(buyer)).toBe(before);

    const other = (await placeOrder(buyer, 3)).data;
    expect(await notify(notifyParams(other, { type: "wxpay" }))).toBe("fail");
    expect((await orderOf(other.out_trade_no!)).status).toBe("review");
    expect(await quotaOf(buyer)).toBe(before);
  });

  test("the same good notification ten times in a row credits once", async () => {
    const order = (await placeOrder(buyer, 3)).data;
    const before = await quotaOf(buyer);
    const params = notifyParams(order);
    for (let attempt = 0; attempt < 10; attempt++) expect(await notify(params, attempt % 2 ? "POST" : "GET")).toBe("success");
    expect(await quotaOf(buyer)).toBe(before + 1_500_000);
    expect((await orderOf(order.out_trade_no!)).status).toBe("success");
    const logs = await server.store.query<{ quota: number; content: string }>(
      "select quota, content from logs where user_id = ? and type = 1 and content like ?",
      buyer.id,
      "%支付金额：21.90",
    );
    expect(logs.map((log) => Number(log.quota))).toEqual([1_500_000]);
  });

  test("ten identical notifications at the same moment credit once", async () => {
    for (let round = 0; round < 5; round++) {
      const order = (await placeOrder(vip, 5, "wx")).data;
      const before = await quotaOf(vip);
      const params = notifyParams(order, { type: "wxpay" });
      const answers = await Promise.all(Array.from({ length: 10 }, (_, index) => notify(params, index % 2 ? "POST" : "GET")));
      expect(answers).toEqual(Array(10).fill("success"));
      expect(await quotaOf(vip)).toBe(before + 2_500_000);
    }
  });

  test("the browser's return shows the order and never credits", async () => {
    const order = (await placeOrder(buyer, 4)).data;
    const before = await quotaOf(buyer);
    const query = new URLSearchParams(notifyParams(order)).toString();
    const response = await fetch(`${server.url}/api/user/epay/return?${query}`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toEndWith(`/topup?trade_no=${order.out_trade_no}`);
    const forged = await fetch(`${server.url}/api/user/epay/return?${query.replace(/sign=[0-9a-f]+/, "sign=bad")}`, { redirect: "manual" });
    expect(forged.headers.get("location")).toEndWith("/topup");
    expect((await orderOf(order.out_trade_no!)).status).toBe("pending");
    expect(await quotaOf(buyer)).toBe(before);
  });

  test("ledger: every successful order is one online top-up log of its quota", async () => {
    const [orders] = await server.store.query<{ total: number; count: number }>(
      "select coalesce(sum(quota), 0) as total, count(*) as count from top_ups where status = 'success'",
    );
    const [logs] = await server.store.query<{ total: number; count: number }>(
      "select coalesce(sum(quota), 0) as total, count(*) as count from logs where type = 1 and content like ?",
      "使用在线充值成功%",
    );
    expect(Number(logs!.total)).toBe(Number(orders!.total));
    expect(Number(logs!.count)).toBe(Number(orders!.count));
  });

  test("without a merchant key nothing verifies (fails closed)", async () => {
    const order = (await placeOrder(buyer, 3)).data;
    await setOptions({ EpayKey: "" });
    const params: Record<string, string> = {
      pid: merchantId,
      out_trade_no: order.out_trade_no!,
      type: "alipay",
      money: "21.90",
      trade_status: "TRADE_SUCCESS",
    };
    params.sign = sign(params, "");
    expect(await notify(params)).toBe("fail");
    expect((await orderOf(order.out_trade_no!)).status).toBe("pending");
  });
});
