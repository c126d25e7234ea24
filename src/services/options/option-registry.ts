// Every option key, under new-api's names (docs/COMPATIBILITY.md, Option keys), with its kind, default and rules.
// The store keeps values as text; this registry is the one place that says what a key means.
import {
  defaultCacheRatios,
  defaultCompletionRatios,
  defaultCreateCacheRatios,
  defaultModelPrices,
  defaultModelRatios,
} from "../pricing/default-ratios.ts";

export type OptionKind = "bool" | "int" | "float" | "string" | "text" | "json";

export type OptionDefinition = {
  kind: OptionKind;
  default: string;
  /** Never returned by GET /api/option/ nor shown back in the console. */
  secret?: boolean;
  /** Trailing slashes are stripped before saving. */
  stripTrailingSlash?: boolean;
  /** A comma-separated list: entries are trimmed, and empty or repeated ones dropped. */
  commaList?: boolean;
  /** For json options: the message when the value does not parse. */
  jsonMessage?: string;
  /** For json options: the shape the parsed value must have. */
  jsonShape?: "object-of-numbers" | "object-of-strings" | "object" | "array" | "price-tiers";
  /** Turning this bool on needs these other options to be non-empty first. */
  enableRequires?: { keys: string[]; message: string };
  /** Giving this option a non-empty value needs these other options to be non-empty first. */
  setRequires?: { keys: string[]; message: string };
  /** Shortest allowed non-empty value for string options (bearer tokens). */
  minLength?: number;
  /** Smallest allowed value for numeric options. */
  minimum?: number;
  /** For string options: the only values allowed (e.g. DataExportDefaultTime: hour, day or week). */
  choices?: readonly string[];
  /** Rendered into href/src: an http(s) link only (link-rules.ts). */
  webLink?: boolean;
  /** The Chats list: every template must be a safe link (link-rules.ts). */
  chatTemplates?: boolean;
  /**
   * What a new install stores instead of `default` (options.ts, loadOptions). `default` stays the
   * spec's value: what an upgraded install that never stored the key gets, and what the settings
   * page's one-click button puts back.
   */
  newInstall?: string;
};

const json = (value: unknown) => JSON.stringify(value);
type Extra = Omit<Partial<OptionDefinition>, "kind" | "default">;
const bool = (value: boolean, extra: Extra = {}) => ({ kind: "bool" as const, default: String(value), ...extra });
const int = (value: number, extra: Extra = {}) => ({ kind: "int" as const, default: String(value), ...extra });
const float = (value: number, extra: Extra = {}) => ({ kind: "float" as const, default: String(value), ...extra });
const string = (value = "", extra: Extra = {}) => ({ kind: "string" as const, default: value, ...extra });
const text = (value = "") => ({ kind: "text" as const, default: value });
const secret = (extra: Extra = {}) => ({ kind: "string" as const, default: "", secret: true, ...extra });
const jsonOption = (
  value: unknown,
  jsonShape: OptionDefinition["jsonShape"],
  jsonMessage = "不是合法的 JSON 字符串",
  extra: Extra = {},
) => ({
  kind: "json" as const,
  default: json(value),
  jsonShape,
  jsonMessage,
  ...extra,
});

/** The payment settings build callback URLs from the server address, so it must come first. */
const payment = { setRequires: { keys: ["ServerAddress"], message: "请先填写服务器地址" } };

export const defaultChats = [
  { "ChatGPT Next Web 官方示例": 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' }, // i18n-exempt: default data
  {
    "Lobe Chat 官方示例": 'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}', // i18n-exempt: default data
  },
  { "AMA 问天": "ama://set-api-key?server={address}&key={key}" }, // i18n-exempt: default data
  { OpenCat: "opencat://team/join?domain={address}&token={key}" },
];

const defaultDisableKeywords = [
  "Your credit balance is too low",
  "This organization has been disabled.",
  "You exceeded your current quota",
  "Permission denied",
  "The security token included in the request is invalid",
  "Operation not allowed",
  "Your account is not authorized",
].join("\n");

export const optionRegistry = {
  // Server
  // Rendered into links (invitations, chat links, the home page): an http(s) address only.
  ServerAddress: string("", { stripTrailingSlash: true, webLink: true }),
  WorkerUrl: string("", { stripTrailingSlash: true }),
  WorkerValidKey: secret(),
  // Payment
  PayAddress: string("", { stripTrailingSlash: true, ...payment }),
  EpayId: string("", payment),
  EpayKey: secret(payment),
  CustomCallbackAddress: string("", { stripTrailingSlash: true, ...payment }),
  Price: float(7.3, { minimum: 0, ...payment }),
  MinTopUp: int(1, { minimum: 0, ...payment }),
  TopupGroupRatio: jsonOption({ default: 1, vip: 1, svip: 1 }, "object-of-numbers", "充值分组倍率不是合法的 JSON 字符串", payment),
  // Login and registration
  PasswordLoginEnabled: bool(true),
  PasswordRegisterEnabled: bool(true),
  EmailVerificationEnabled: bool(false, {
    enableRequires: { keys: ["SMTPServer"], message: "无法启用邮箱验证，请先填入 SMTP 服务器信息！" },
  }),
  RegisterEnabled: bool(true),
  GitHubOAuthEnabled: bool(false, {
    enableRequires: {
      keys: ["GitHubClientId", "GitHubClientSecret"],
      message: "无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！",
    },
  }),
  GitHubClientId: string(),
  GitHubClientSecret: secret(),
  LinuxDOOAuthEnabled: bool(false, {
    enableRequires: {
      keys: ["LinuxDOClientId", "LinuxDOClientSecret"],
      message: "无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！",
    },
  }),
  LinuxDOClientId: string(),
  LinuxDOClientSecret: secret(),
  WeChatAuthEnabled: bool(false, {
    enableRequires: {
      keys: ["WeChatServerAddress", "WeChatServerToken"],
      message: "无法启用微信登录，请先填入微信登录相关配置信息！",
    },
  }),
  WeChatServerAddress: string("", { stripTrailingSlash: true }),
  WeChatServerToken: secret(),
  WeChatAccountQRCodeImageURL: string(),
  TelegramOAuthEnabled: bool(false, {
    enableRequires: {
      keys: ["TelegramBotToken", "TelegramBotName"],
      message: "无法启用 Telegram OAuth，请先填入 Telegram Bot Token 以及 Telegram Bot Name！",
    },
  }),
  TelegramBotToken: secret(),
  // Generic OpenID Connect sign-in (issue 28): discovery document, client, scopes, and the ID
  // token claim that names new accounts.
  OidcEnabled: bool(false, {
    enableRequires: {
      keys: ["OidcDiscoveryUrl", "OidcClientId", "OidcClientSecret"],
      message: "无法启用 OIDC 登录，请先填入发现地址、Client Id 以及 Client Secret！",
    },
  }),
  OidcDiscoveryUrl: string("", { webLink: true }),
  OidcClientId: string(),
  OidcClientSecret: secret(),
  OidcScopes: string("openid profile email"),
  OidcUsernameClaim: string("preferred_username"),
  OidcProviderName: string("OIDC"),
  // Two-factor (issue 28): admins and root must switch it on before they can manage anything.
  AdminTwoFactorRequired: bool(false),
  TelegramBotName: string(),
  TurnstileCheckEnabled: bool(false, {
    enableRequires: {
      keys: ["TurnstileSiteKey", "TurnstileSecretKey"],
      message: "无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！",
    },
  }),
  TurnstileSiteKey: string(),
  TurnstileSecretKey: secret(),
  // Email
  EmailDomainRestrictionEnabled: bool(false, {
    enableRequires: { keys: ["EmailDomainWhitelist"], message: "无法启用邮箱域名限制，请先填入限制的邮箱域名！" },
  }),
  EmailAliasRestrictionEnabled: bool(false),
  EmailDomainWhitelist: string("gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com", {
    commaList: true,
  }),
  SMTPServer: string(),
  SMTPPort: int(587, { minimum: 1 }),
  SMTPAccount: string(),
  SMTPFrom: string(),
  SMTPToken: secret(),
  SMTPSSLEnabled: bool(false),
  // Content
  Notice: text(),
  SystemName: string("Switchyard"),
  Logo: string("", { webLink: true }),
  HomePageContent: text(),
  About: text(),
  Footer: text(),
  // General
  TopUpLink: string("", { webLink: true }),
  ChatLink: string("", { webLink: true }),
  ChatLink2: string("", { webLink: true }),
  QuotaPerUnit: float(500000, { minimum: 1 }),
  RetryTimes: int(0, { minimum: 0 }),
  DisplayInCurrencyEnabled: bool(true),
  DisplayTokenStatEnabled: bool(true),
  DefaultCollapseSidebar: bool(false),
  DemoSiteEnabled: bool(false),
  // Drawing and tasks
  DrawingEnabled: bool(true),
  TaskEnabled: bool(true),
  MjNotifyEnabled: bool(false),
  MjAccountFilterEnabled: bool(false),
  MjForwardUrlEnabled: bool(false),
  MjModeClearEnabled: bool(false),
  MjActionCheckSuccessEnabled: bool(false),
  // Sensitive words
  CheckSensitiveEnabled: bool(true),
  CheckSensitiveOnPromptEnabled: bool(true),
  SensitiveWords: text("test_sensitive"),
  // Logs
  LogConsumeEnabled: bool(true),
  // Refused and failed relay calls (log type 5), kept this many days (0: until cleaned by hand).
  ErrorLogEnabled: bool(true),
  ErrorLogRetentionDays: int(7, { minimum: 0 }),
  // The audit trail of management changes (issue 27), kept this many days (0: for good).
  AuditRetentionDays: int(180, { minimum: 0 }),
  // Responses API state kept by the gateway (issue 24): whether it keeps the responses it
  // answers itself, how many days, and how many MB per user at most.
  ResponsesStoreEnabled: bool(true),
  ResponsesRetentionDays: int(30, { minimum: 1 }),
  ResponsesStoreUserLimitMB: int(200, { minimum: 1 }),
  // The request inspector (issue 27): off by default; turning it off ends every capture and
  // deletes what was kept. Captures are kept this many days.
  RequestCaptureEnabled: bool(false),
  RequestCaptureRetentionDays: int(3, { minimum: 1 }),
  // Dashboard
  DataExportEnabled: bool(true),
  DataExportInterval: int(5, { minimum: 1 }),
  DataExportDefaultTime: string("hour", { choices: ["hour", "day", "week"] }),
  // Monitoring
  ChannelDisableThreshold: float(5, { minimum: 0 }),
  QuotaRemindThreshold: int(1000, { minimum: 0 }),
  AutomaticDisableChannelEnabled: bool(false),
  AutomaticEnableChannelEnabled: bool(false),
  AutomaticDisableKeywords: text(defaultDisableKeywords),
  // Quotas
  QuotaForNewUser: int(0, { minimum: 0 }),
  PreConsumedQuota: int(500, { minimum: 0 }),
  QuotaForInviter: int(0, { minimum: 0 }),
  QuotaForInvitee: int(0, { minimum: 0 }),
  // Pricing
  ModelPrice: jsonOption(defaultModelPrices, "object-of-numbers"),
  ModelRatio: jsonOption(defaultModelRatios, "object-of-numbers"),
  CompletionRatio: jsonOption(defaultCompletionRatios, "object-of-numbers"),
  CacheRatio: jsonOption(defaultCacheRatios, "object-of-numbers"),
  CreateCacheRatio: jsonOption(defaultCreateCacheRatios, "object-of-numbers"),
  // The operator's prices by prompt size; the built-in long-context tiers apply without an entry
  // here (services/billing/model-prices.ts), so it starts empty.
  ModelPriceTiers: jsonOption({}, "price-tiers"),
  // What a model without a price does: refused, billed at UnpricedModelRatio, or free.
  UnpricedModelPolicy: string("refuse", { choices: ["refuse", "ratio", "free"] }),
  UnpricedModelRatio: float(30, { minimum: 0 }),
  // The last price list URL synced from the settings page, offered again next time.
  PriceSyncUrl: string("", { webLink: true }),
  GroupRatio: jsonOption({ default: 1, vip: 1, svip: 1 }, "object-of-numbers"),
  UserUsableGroups: jsonOption({ default: "默认分组", vip: "vip分组" }, "object-of-strings"), // i18n-exempt: default data
  // The demo chat links point at third-party sites with the user's key: a new install starts
  // without them (the operator turns them on in the settings), an upgraded one keeps what it had.
  Chats: jsonOption(defaultChats, "array", "不是合法的 JSON 字符串", { chatTemplates: true, newInstall: "[]" }),
  // The language of relay errors when the client's Accept-Language names neither zh nor en.
  RelayErrorLanguage: string("zh", { choices: ["zh", "en"] }),
  // Rate limit
  ModelRequestRateLimitEnabled: bool(false),
  ModelRequestRateLimitCount: int(0, { minimum: 0 }),
  ModelRequestRateLimitSuccessCount: int(1000, { minimum: 1 }),
  ModelRequestRateLimitDurationMinutes: int(1, { minimum: 1 }),
  // Token counting (count_tokens, countTokens) is free but not unlimited: per user and minute, 0 = off.
  CountTokensRateLimit: int(100, { minimum: 0 }),
  // Gemini
  GeminiSafetySettings: jsonOption({ default: "BLOCK_NONE", HARM_CATEGORY_CIVIC_INTEGRITY: "BLOCK_NONE" }, "object-of-strings"),
  GeminiVersionSettings: jsonOption({ default: "v1beta", "gemini-1.0-pro": "v1" }, "object-of-strings"),
  // Observability (issue 16): GET /metrics behind a bearer token, and daily SQLite backups.
  MetricsEnabled: bool(false, {
    enableRequires: { keys: ["MetricsToken"], message: "无法启用指标接口，请先填入指标接口的访问令牌！" },
  }),
  MetricsToken: secret({ minLength: 16 }),
  DailyBackupEnabled: bool(false),
  DailyBackupKeep: int(7, { minimum: 1 }),
  // Internal: the generated cookie-signing secret when SESSION_SECRET is unset.
  SessionSecret: secret(),
  // Internal: the one-time setup code while root has the default password (onboarding/setup-code.ts).
  SetupCode: secret(),
} satisfies Record<string, OptionDefinition>;

export type OptionKey = keyof typeof optionRegistry;

type KeysOfKind<K extends OptionKind> = {
  [Key in OptionKey]: (typeof optionRegistry)[Key]["kind"] extends K ? Key : never;
}[OptionKey];

export type BoolOptionKey = KeysOfKind<"bool">;
export type NumberOptionKey = KeysOfKind<"int"> | KeysOfKind<"float">;
export type StringOptionKey = KeysOfKind<"string"> | KeysOfKind<"text">;
export type JsonOptionKey = KeysOfKind<"json">;

/** Options only the process itself reads or writes; the option API neither lists nor accepts them. */
export const internalOptionKeys = new Set<string>(["SessionSecret", "SetupCode"]);

export function isOptionKey(key: string): key is OptionKey {
  return Object.hasOwn(optionRegistry, key);
}

export function definitionOf(key: OptionKey): OptionDefinition {
  return optionRegistry[key] as OptionDefinition;
}
