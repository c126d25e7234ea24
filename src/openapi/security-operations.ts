// The /api routes of issue 28 in the API reference: two-factor, passkeys, OpenID Connect and
// signed-in sessions (merged into api-operations.ts).
import { passkeyAssertionInput, passkeyRegistrationInput } from "../services/passkeys/passkey-ceremonies.ts";
import { passkeyNameInput } from "../services/passkeys/passkey-store.ts";
import { secondFactorInput, totpCodeInput } from "../services/two-factor/totp-accounts.ts";
import { operation as op, type OperationCatalogue } from "./operations.ts";

export const securityOperations: OperationCatalogue = {
  // Two-factor (TOTP, RFC 6238)
  "GET /api/user/2fa/status": op("Two-factor", "user", "两步验证是否开启、剩余恢复码数量，以及站点是否要求此管理员开启"),
  "POST /api/user/2fa/setup": op("Two-factor", "user", "一个等待首次验证码的新 TOTP 密钥：{secret, otpauth_url}"),
  "POST /api/user/2fa/enable": op(
    "Two-factor",
    "user",
    "用首个验证码开启两步验证；返回 {recovery_codes}（十个，仅显示一次），并结束账户的其他会话",
    { body: totpCodeInput },
  ),
  "POST /api/user/2fa/disable": op("Two-factor", "user", "用当前验证码或恢复码关闭两步验证", {
    body: secondFactorInput,
  }),
  "DELETE /api/user/:id/2fa": op("Two-factor", "root", "重置用户的两步验证（验证器丢失时）：移除 TOTP 与恢复码"),
  "POST /api/user/login/2fa": op(
    "Two-factor",
    "public",
    "登录返回 {require_2fa: true} 后的第二步：{code}、{recovery_code} 或 {response}（通行密钥断言）；设置会话 Cookie",
    { body: secondFactorInput },
  ),
  "POST /api/user/login/2fa/passkey": op("Two-factor", "public", "用待完成登录的账户的通行密钥作为第二步时的 WebAuthn 选项"),

  // Passkeys (WebAuthn)
  "GET /api/user/passkeys": op("Passkeys", "user", "账户的通行密钥：名称、添加时间、最近使用时间"),
  "POST /api/user/passkeys/options": op("Passkeys", "user", "新通行密钥的 WebAuthn 注册选项（依赖方为站点地址）"),
  "POST /api/user/passkeys": op("Passkeys", "user", "用验证器的应答注册一个通行密钥，并为其命名", {
    body: passkeyRegistrationInput,
  }),
  "PUT /api/user/passkeys/:id": op("Passkeys", "user", "重命名通行密钥", { body: passkeyNameInput }),
  "DELETE /api/user/passkeys/:id": op("Passkeys", "user", "移除通行密钥（不能是账户最后一种登录方式）"),
  "POST /api/user/passkey/login/options": op("Passkeys", "public", "仅用通行密钥登录的 WebAuthn 选项（可发现凭据）"),
  "POST /api/user/passkey/login": op("Passkeys", "public", "仅用通行密钥登录；设置会话 Cookie", {
    body: passkeyAssertionInput,
  }),

  // OpenID Connect
  "GET /api/oauth/oidc/authorize": op(
    "Sessions",
    "public",
    "开始 OpenID Connect 登录（已登录时为绑定）：返回带 state、nonce 与 PKCE 质询的提供方授权地址",
    { query: [{ name: "aff", description: "invite code to credit" }] },
  ),
  "DELETE /api/oauth/oidc/bind": op("Sessions", "user", "解绑 OpenID Connect 账户（不能是账户最后一种登录方式）"),

  // Signed-in sessions
  "GET /api/user/sessions": op("Personal", "user", "账户的会话：设备、地址、登录时间与方式、最近活动；`current` 标出当前会话"),
  "DELETE /api/user/sessions/:id": op("Personal", "user", "结束账户的某个会话"),
  "DELETE /api/user/:id/sessions": op("Users", "admin", "结束某个较低角色用户的全部会话"),
};
