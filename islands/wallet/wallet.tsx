/** @jsxImportSource react */
// The wallet: balance, the redeem-code form, and online top-up with
// Alipay or WeChat through a confirm dialog; paying posts the signed form the server returns to
// the payment gateway in a new tab. Every rule is the server's; this only carries the inputs.
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { apiCall } from "../../console-runtime/api-client.ts";
import { showToast } from "../../console-runtime/toasts.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { moneyTranslator } from "../shared/money-translator.ts";
import { formatDollars } from "../../src/console/format.ts";
import { defineIsland } from "../island-definition.ts";

export type WalletProps = {
  language: Language;
  quota: number;
  quotaPerUnit: number;
  displayInCurrency: boolean;
  topUpLink: string;
  onlineEnabled: boolean;
  /** The smallest amount, in the unit typed (dollars, or points when currency is off). */
  minTopUp: number;
};

type Method = "zfb" | "wx";

function formatQuota(quota: number, props: WalletProps): string {
  return props.displayInCurrency ? formatDollars(quota / props.quotaPerUnit) : String(quota);
}

/** Posts the gateway's form in a new tab (Safari blocks that, so it uses the same tab there). */
function postPaymentForm(url: string, fields: Record<string, string>): void {
  const form = document.createElement("form");
  form.action = url;
  form.method = "POST";
  if (!/^((?!chrome|android).)*safari/i.test(navigator.userAgent)) form.target = "_blank";
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
  form.remove();
}

function RedeemCard(props: WalletProps & { quota: number; onRedeemed: (added: number) => void }) {
  const t = moneyTranslator(props.language);
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [redeemed, setRedeemed] = useState<number | null>(null);
  const redeem = async () => {
    if (!key.trim()) return showToast(t("请输入兑换码！"), "warning");
    setBusy(true);
    try {
      const envelope = await apiCall<number>("POST", "/api/user/topup", { key: key.trim() });
      const added = Number(envelope.data ?? 0);
      props.onRedeemed(added);
      setRedeemed(added);
      setKey("");
      // The success line below the form is the one confirmation (a toast as well said it twice).
    } catch {
      // apiCall showed the server's message.
    } finally {
      setBusy(false);
    }
  };
  const openTopUpLink = () => {
    if (!props.topUpLink) return showToast(t("超级管理员未设置充值链接！"), "error");
    window.open(props.topUpLink, "_blank", "noopener");
  };
  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="redeem-title">
      <div className="card-body gap-3">
        <h2 id="redeem-title" className="card-title">
          {t("兑换余额")}
        </h2>
        <div className="text-lg">
          {t("当前余额：")}
          <strong data-testid="wallet-balance">{formatQuota(props.quota, props)}</strong>
        </div>
        <form
          className="flex flex-wrap gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void redeem();
          }}
        >
          <input
            className="input input-bordered min-w-0 flex-1 font-mono"
            name="key"
            value={key}
            onChange={(event) => setKey(event.target.value)}
            placeholder={t("兑换码")}
            aria-label={t("兑换码")}
            autoComplete="off"
          />
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t("兑换")}
          </button>
          <button type="button" className="btn" onClick={openTopUpLink}>
            {t("获取兑换码")}
          </button>
        </form>
        {redeemed !== null ? (
          <div role="status" className="alert alert-success">
            <span>{t("成功兑换额度：{{quota}}", { quota: formatQuota(redeemed, props) })}</span>
          </div>
        ) : null}
      </div>
    </section>
  );
}

function OnlineTopUpCard(props: WalletProps) {
  const t = moneyTranslator(props.language);
  const [amount, setAmount] = useState(Math.max(1, props.minTopUp));
  const [payable, setPayable] = useState<string | null>(null);
  const [problem, setProblem] = useState("");
  const [method, setMethod] = useState<Method | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  const quote = async (value: number): Promise<string | null> => {
    try {
      const envelope = await apiCall<string>("POST", "/api/user/amount", { amount: value }, true);
      setProblem("");
      setPayable(envelope.data ?? null);
      return envelope.data ?? null;
    } catch (error) {
      setPayable(null);
      setProblem(error instanceof Error ? error.message : "");
      return null;
    }
  };

  // The amount typed is quoted once the typing pauses.
  const quoteTyped = useEffectEvent((value: number) => void quote(value));
  useEffect(() => {
    if (!props.onlineEnabled) return;
    const timer = setTimeout(() => quoteTyped(amount), 300);
    return () => clearTimeout(timer);
  }, [amount, props.onlineEnabled]);

  const choose = async (chosen: Method) => {
    if (amount < props.minTopUp) return showToast(t("充值数量不能小于{{min}}", { min: props.minTopUp }), "error");
    const money = await quote(amount);
    if (money === null) return;
    setMethod(chosen);
    dialog.current?.showModal();
  };

  const pay = async () => {
    if (!method) return;
    setBusy(true);
    try {
      const envelope = (await apiCall<Record<string, string>>("POST", "/api/user/pay", { amount, payment_method: method })) as {
        data?: Record<string, string>;
        url?: string;
      };
      dialog.current?.close();
      if (envelope.url && envelope.data) postPaymentForm(envelope.url, envelope.data);
    } catch {
      // apiCall showed the server's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card bg-base-100 shadow-sm" aria-labelledby="online-title">
      <div className="card-body gap-3">
        <h2 id="online-title" className="card-title">
          {t("在线充值")}
        </h2>
        {props.onlineEnabled ? null : (
          <div role="alert" className="alert alert-info">
            <span>{t("管理员未开启在线充值！")}</span>
          </div>
        )}
        {/* With online top-up off there is nothing to pay: no amount and no payment buttons. */}
        {props.onlineEnabled ? (
          <>
            <label className="form-control w-full max-w-xs">
              <span className="label-text mb-1 block text-sm">{t(props.displayInCurrency ? "充值数量（美元）" : "充值数量（额度）")}</span>
              <input
                className="input input-bordered w-full"
                type="number"
                min={1}
                step={1}
                value={amount}
                onChange={(event) => setAmount(Math.max(1, Math.floor(Number(event.target.value) || 1)))}
              />
            </label>
            <div className="text-sm">
              {t("实付金额：")}
              <strong data-testid="payable">{payable ?? "-"}</strong>
              {problem ? <span className="text-error ml-2">{t("错误：") + problem}</span> : null}
            </div>
            <div className="flex gap-2">
              <button type="button" className="btn btn-primary" onClick={() => void choose("zfb")}>
                {t("支付宝")}
              </button>
              <button type="button" className="btn btn-success" onClick={() => void choose("wx")}>
                {t("微信")}
              </button>
            </div>
          </>
        ) : null}
      </div>
      <dialog ref={dialog} className="modal" aria-labelledby="pay-confirm-title">
        <div className="modal-box">
          <h3 id="pay-confirm-title" className="text-lg font-bold">
            {t("充值确认")}
          </h3>
          <dl className="my-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-base-content/60">{t("充值数量")}</dt>
            <dd>{amount}</dd>
            <dt className="text-base-content/60">{t("实付金额")}</dt>
            <dd>{payable ?? "-"}</dd>
            <dt className="text-base-content/60">{t("支付方式")}</dt>
            <dd>{t(method === "wx" ? "微信" : "支付宝")}</dd>
          </dl>
          <p>{t("是否确认充值？")}</p>
          <div className="modal-action">
            <button type="button" className="btn" onClick={() => dialog.current?.close()}>
              {t("取消")}
            </button>
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void pay()}>
              {t("确定")}
            </button>
          </div>
        </div>
      </dialog>
    </section>
  );
}

export function Wallet(props: WalletProps) {
  const [quota, setQuota] = useState(props.quota);
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <RedeemCard {...props} quota={quota} onRedeemed={(added) => setQuota((value) => value + added)} />
      <OnlineTopUpCard {...props} />
    </div>
  );
}

/** The island's one declaration (island-definition.ts): rendered by /topup, mounted by wallet.island.tsx. */
export const walletIsland = defineIsland("wallet", Wallet);
