// The /api routes in the API reference: "METHOD pattern" as registered -> its documentation.
// tests/api/openapi.test.ts fails when a registered route has no entry here or an entry names
// no registered route, so this list and the router cannot part ways.
import { priceSyncInput } from "../services/pricing/price-sync.ts";
import { channelFields } from "../services/channels/channel-input.ts";
import { manageKeysInput } from "../services/channels/channel-key-actions.ts";
import { optionChangesInput } from "../services/options/option-values.ts";
import { createRedemptionInput, redeemInput, updateRedemptionInput } from "../services/redemptions/redemption-schemas.ts";
import { tokenFields } from "../services/tokens/token-input.ts";
import { payInput } from "../services/topup/topup-orders.ts";
import { topUpAmountInput } from "../services/topup/topup-quote.ts";
import { settingInput } from "../services/users/notification-settings.ts";
import { resetInput } from "../services/users/password-reset.ts";
import {
  affTransferInput,
  createUserInput,
  loginInput,
  manageUserInput,
  registerInput,
  updateSelfInput,
  firstPasswordInput,
  updateUserInput,
} from "../services/users/user-schemas.ts";
import { operation as op, paging, type OperationCatalogue, type QueryParameter } from "./operations.ts";
import { securityOperations } from "./security-operations.ts";

const turnstile: QueryParameter = { name: "turnstile", description: "Turnstile answer, when the human check is on" };
const logFilters: QueryParameter[] = [
  {
    name: "type",
    type: "integer",
    description: "log type: 1 top-up, 2 consumption, 3 admin, 4 system, 5 error (a refused or failed relay call); 0 or absent: all",
  },
  { name: "start_timestamp", type: "integer", description: "unix seconds, inclusive" },
  { name: "end_timestamp", type: "integer", description: "unix seconds, inclusive" },
  { name: "model_name", description: "model name" },
  { name: "token_name", description: "token name" },
  { name: "group", description: "group" },
];
const adminLogFilters: QueryParameter[] = [
  ...logFilters,
  { name: "username", description: "user name" },
  { name: "channel", type: "integer", description: "channel id" },
  { name: "ip", description: "the client's address" },
];
const taskFilters: QueryParameter[] = [
  ...paging(true),
  { name: "start_timestamp", type: "integer", description: "submitted at or after (unix seconds)" },
  { name: "end_timestamp", type: "integer", description: "submitted at or before (unix seconds)" },
];
const keyword: QueryParameter = { name: "keyword", description: "text to search for" };

export const apiOperations: OperationCatalogue = {
  ...securityOperations,
  // System
  "GET /api/status": op("System", "public", "站点名称、Logo、已启用的登录方式与功能，供控制台使用"),
  "GET /api/notice": op("System", "public", "站点公告（Markdown 或 HTML）"),
  "GET /api/about": op("System", "public", "关于页面的内容"),
  "GET /api/home_page_content": op("System", "public", "首页内容（HTML、Markdown 或要嵌入的网址）"),
  "GET /api/option/": op("Options", "root", "全部选项及其取值（不含敏感项）"),
  "PUT /api/option/": op("Options", "root", "修改一个选项，或一次修改多个（全部成功或全部不变）", { body: optionChangesInput }),
  "POST /api/option/rest_model_ratio": op("Options", "root", "将模型倍率重置为内置默认值"),

  // Sessions and accounts
  "POST /api/user/login": op("Sessions", "public", "用用户名（或邮箱）与密码登录；设置会话 Cookie", {
    body: loginInput,
    query: [turnstile],
  }),
  "GET /api/user/logout": op("Sessions", "public", "退出登录：会话在服务端（所有实例）结束，并清除其 Cookie"),
  "POST /api/user/logout": op("Sessions", "public", "退出登录（与 GET 相同）"),
  "POST /api/user/register": op("Sessions", "public", "注册账户", { body: registerInput, query: [turnstile] }),
  "GET /api/verification": op("Sessions", "public", "发送邮箱验证码", {
    query: [{ name: "email", description: "address to verify" }, turnstile],
  }),
  "GET /api/reset_password": op("Sessions", "public", "发送密码重置链接", {
    query: [{ name: "email", description: "the account's address" }, turnstile],
  }),
  "POST /api/user/reset": op("Sessions", "public", "用邮件中的令牌重置密码；返回新密码", {
    body: resetInput,
  }),
  "GET /api/oauth/state": op("Sessions", "public", "开始第三方登录：返回一个 state 值（同时写入 Cookie）", {
    query: [{ name: "aff", description: "invite code to credit" }],
  }),
  "GET /api/oauth/email/bind": op("Sessions", "user", "用验证码绑定邮箱地址", {
    query: [
      { name: "email", description: "address" },
      { name: "code", description: "verification code" },
    ],
  }),
  "GET /api/oauth/wechat": op("Sessions", "public", "用微信验证码登录", {
    query: [{ name: "code", description: "code from the WeChat account" }],
  }),
  "GET /api/oauth/wechat/bind": op("Sessions", "user", "用验证码绑定微信", {
    query: [{ name: "code", description: "code from the WeChat account" }],
  }),
  "GET /api/oauth/telegram/login": op("Sessions", "public", "用 Telegram 登录组件签名的字段登录"),
  "GET /api/oauth/telegram/bind": op("Sessions", "user", "用 Telegram 登录组件签名的字段绑定 Telegram"),
  "GET /api/oauth/:provider": op("Sessions", "public", "第三方登录回调（github、linuxdo、oidc）：登录、注册或绑定", {
    query: [
      { name: "code", description: "the provider's authorization code" },
      { name: "state", description: "the state from /api/oauth/state" },
    ],
  }),

  // The signed-in user
  "GET /api/user/self": op("Personal", "user", "当前登录用户的账户"),
  "PUT /api/user/self": op("Personal", "user", "修改显示名称或密码", { body: updateSelfInput }),
  "DELETE /api/user/self": op("Personal", "user", "注销自己的账户（超级管理员不可）"),
  "POST /api/user/self/password": op("Personal", "user", "为第三方登录创建的账户设置首个密码（登录后 10 分钟内）", {
    body: firstPasswordInput,
  }),
  "DELETE /api/user/self/sessions": op("Personal", "user", "在所有设备上退出：账户的每个会话都结束"),
  "GET /api/user/token": op("Personal", "user", "生成新的系统访问令牌（仅显示一次）"),
  "GET /api/user/aff": op("Personal", "user", "自己的邀请码（首次调用时创建）"),
  "POST /api/user/aff_transfer": op("Personal", "user", "将邀请奖励划转到余额", { body: affTransferInput }),
  "PUT /api/user/setting": op("Personal", "user", "余额不足提醒设置", { body: settingInput }),
  "GET /api/user/models": op("Personal", "user", "用户所在分组可调用的模型"),
  "GET /api/user/self/groups": op("Personal", "user", "用户可为令牌选择的分组及其倍率"),

  // Users (admin)
  "GET /api/user/": op("Users", "admin", "列出用户", { query: paging(false) }),
  "GET /api/user/search": op("Users", "admin", "按 ID、用户名、显示名称或邮箱搜索用户", {
    query: [keyword, { name: "group", description: "group" }, ...paging(false)],
  }),
  "GET /api/user/:id": op("Users", "admin", "获取单个用户"),
  "POST /api/user/": op("Users", "admin", "创建一个用户", { body: createUserInput }),
  "PUT /api/user/": op("Users", "admin", "修改用户（用户名、分组、额度、角色、密码）", { body: updateUserInput }),
  "POST /api/user/manage": op("Users", "admin", "提升、降级、禁用、启用或删除用户", { body: manageUserInput }),
  "DELETE /api/user/:id": op("Users", "admin", "删除一个用户"),

  // Channels (admin)
  "GET /api/channel/": op("Channels", "admin", "列出渠道（从不包含密钥）", {
    query: [
      ...paging(true),
      { name: "id_sort", type: "boolean", description: "order by id instead of priority" },
      { name: "tag_mode", type: "boolean", description: "group rows by tag" },
    ],
  }),
  "GET /api/channel/search": op("Channels", "admin", "按 ID、名称、密钥或 Base URL 搜索渠道", {
    query: [keyword, { name: "group", description: "group" }, { name: "model", description: "model" }],
  }),
  "GET /api/channel/models": op("Channels", "admin", "各渠道类型已知的全部模型名称，供渠道表单使用"),
  "GET /api/channel/test": op("Channels", "admin", "测试所有已启用的渠道（在后台进行）"),
  "GET /api/channel/test/:id": op("Channels", "admin", "用真实请求测试单个渠道", {
    query: [
      { name: "model", description: "model to test with" },
      { name: "key_index", type: "integer", description: "a multi-key channel's key to test (0-based; default: its first enabled key)" },
    ],
  }),
  "GET /api/channel/update_balance": op("Channels", "admin", "刷新所有渠道的余额（在后台进行）"),
  "GET /api/channel/update_balance/:id": op("Channels", "admin", "刷新单个渠道的余额"),
  "GET /api/channel/fetch_models/:id": op("Channels", "admin", "已保存渠道的上游所列出的模型"),
  "POST /api/channel/fetch_models": op("Channels", "admin", "尚未保存的渠道其上游所列出的模型", {
    bodyNote: "{type, key, base_url, other}",
  }),
  "GET /api/channel/:id": op("Channels", "admin", "获取单个渠道（不含密钥）"),
  "POST /api/channel/": op(
    "Channels",
    "admin",
    '创建渠道（批量模式下每行密钥一个渠道；或用 multi_key 或 new-api 的 {mode: "multi_to_single", multi_key_mode, channel} 创建一个含全部密钥的渠道）；能力随之生成',
    { body: channelFields },
  ),
  "POST /api/channel/multi_key/manage": op(
    "Channels",
    "admin",
    "多密钥渠道的密钥：查看各密钥状态（已打码），或启用、禁用、删除其中一个或全部",
    {
      body: manageKeysInput,
    },
  ),
  "PUT /api/channel/": op("Channels", "admin", "修改渠道（密钥留空则保留原密钥）", { body: channelFields }),
  "DELETE /api/channel/disabled": op("Channels", "admin", "删除所有已禁用的渠道"),
  "DELETE /api/channel/:id": op("Channels", "admin", "删除一个渠道"),
  "POST /api/channel/batch": op("Channels", "admin", "删除指定的渠道", { bodyNote: "{ids: number[]}" }),
  "POST /api/channel/batch/tag": op("Channels", "admin", "设置指定渠道的标签", {
    bodyNote: "{ids: number[], tag: string | null}",
  }),
  "POST /api/channel/fix": op("Channels", "admin", "重建所有渠道的能力"),
  "POST /api/channel/copy/:id": op("Channels", "admin", "复制一个渠道", {
    query: [
      { name: "suffix", description: "added to the copy's name" },
      { name: "reset_balance", type: "boolean", description: "start the copy at balance 0" },
    ],
  }),
  "PUT /api/channel/tag": op("Channels", "admin", "修改某标签下的所有渠道（新标签、优先级、权重、模型、分组）", {
    bodyNote: "{tag, new_tag?, priority?, weight?, models?, groups?, model_mapping?}",
  }),
  "POST /api/channel/tag/enabled": op("Channels", "admin", "启用某标签下的所有渠道", { bodyNote: "{tag}" }),
  "POST /api/channel/tag/disabled": op("Channels", "admin", "禁用某标签下的所有渠道", { bodyNote: "{tag}" }),

  // Tokens
  "GET /api/token/": op(
    "Tokens",
    "user",
    "用户的令牌及其密钥；设有周期额度（quota_period、period_quota）的令牌还给出本周期已用额度（period_used_quota）与重置时间（period_reset_at，Unix 秒）；rpm_limit、tpm_limit 与 concurrency_limit 为 0 表示不限",
    { query: paging(true, "size") },
  ),
  "GET /api/token/search": op("Tokens", "user", "按名称或密钥搜索用户的令牌", {
    query: [keyword, { name: "token", description: "key, or part of it" }],
  }),
  "GET /api/token/:id": op("Tokens", "user", "获取用户的单个令牌"),
  "POST /api/token/": op("Tokens", "user", "创建令牌（count 大于 1 时创建多个）", { body: tokenFields }),
  "POST /api/token/batch": op("Tokens", "user", "删除调用者的多个令牌", { bodyNote: "{ids: number[]}" }),
  "PUT /api/token/": op("Tokens", "user", "修改令牌；带 status_only 时只改其状态", {
    body: tokenFields,
    query: [{ name: "status_only", description: "any value: change the status alone" }],
  }),
  "DELETE /api/token/:id": op("Tokens", "user", "删除一个令牌"),

  // Logs and usage
  "GET /api/log/self": op("Logs", "user", "用户的日志条目", { query: [...logFilters, ...paging(false)] }),
  "GET /api/log/self/stat": op("Logs", "user", "用户匹配条目所用的额度，以及最近一分钟的请求数与 Token 数", {
    query: logFilters,
  }),
  "GET /api/log/:id/capture": op(
    "Logs",
    "user",
    "日志条目的请求检查器记录（请求与响应正文，截至 256 KB；请求头不含凭据），仅条目所属用户与管理员可见；其他人得到“不存在”",
  ),
  "GET /api/log/": op("Logs", "admin", "全站的日志条目", { query: [...adminLogFilters, ...paging(false)] }),
  "GET /api/log/stat": op("Logs", "admin", "匹配条目所用的额度，以及最近一分钟的请求数与 Token 数", {
    query: adminLogFilters,
  }),
  "DELETE /api/log/": op("Logs", "admin", "删除早于某一时间的条目", {
    query: [{ name: "target_timestamp", type: "integer", description: "unix seconds" }],
  }),
  "GET /api/audit/": op("Logs", "admin", "管理变更的审计记录（只读；敏感项只显示为已修改）", {
    query: [
      { name: "actor", description: "user id or username of who made the change" },
      { name: "action", description: "an action (channel.update) or an area (channel)" },
      { name: "start_timestamp", type: "integer", description: "unix seconds" },
      { name: "end_timestamp", type: "integer", description: "unix seconds" },
      ...paging(false),
    ],
  }),
  "GET /api/data/": op("Logs", "admin", "按用户和模型汇总的每小时用量", {
    query: [
      { name: "start_timestamp", type: "integer", description: "unix seconds" },
      { name: "end_timestamp", type: "integer", description: "unix seconds" },
      { name: "username", description: "one user" },
    ],
  }),
  "GET /api/data/self": op("Logs", "user", "用户按模型汇总的每小时用量", {
    query: [
      { name: "start_timestamp", type: "integer", description: "unix seconds" },
      { name: "end_timestamp", type: "integer", description: "unix seconds" },
    ],
  }),
  "POST /api/data/refresh": op("Logs", "admin", "立即重新计算用量汇总"),

  // Models, groups, prices
  "GET /api/models": op("Models", "admin", "按渠道类型列出的模型，供渠道表单使用"),
  "GET /api/group": op("Models", "admin", "全部分组名称"),
  "GET /api/pricing": op("Models", "public", "价格表（登录用户看到其所在分组的价格）"),
  "GET /api/pricing/unpriced": op("Models", "root", "渠道在提供但尚未定价的模型，以及提供它们的渠道"),
  "PUT /api/pricing/models": op(
    "Models",
    "root",
    "一次为多个模型定价：Switchyard 价格表（{models: {名称: {input, output, cache_read, cache_write, per_call, tiers}}}，单位为每百万 Token 的美元价格）",
  ),
  "POST /api/pricing/sync": op(
    "Models",
    "root",
    "从某网址的价格文档更新价格（Switchyard 价格表或 new-api 的倍率同步格式）：返回将做的改动，apply 为 true 时执行",
    { body: priceSyncInput },
  ),

  // Redemption codes
  "GET /api/redemption/": op("Redemptions", "admin", "列出兑换码", { query: paging(false) }),
  "GET /api/redemption/search": op("Redemptions", "admin", "按 ID 或名称搜索兑换码", { query: [keyword, ...paging(false)] }),
  "GET /api/redemption/:id": op("Redemptions", "admin", "获取单个兑换码"),
  "POST /api/redemption/": op("Redemptions", "admin", "创建兑换码（返回各兑换码的密钥）", { body: createRedemptionInput }),
  "PUT /api/redemption/": op("Redemptions", "admin", "修改兑换码；带 status_only 时只改其状态", {
    body: updateRedemptionInput,
    query: [{ name: "status_only", description: "any value: change the status alone ({id, status})" }],
  }),
  "DELETE /api/redemption/:id": op("Redemptions", "admin", "删除一个兑换码"),

  // Money in
  "POST /api/user/topup": op("Wallet", "user", "将兑换码兑换到余额", { body: redeemInput }),
  "POST /api/user/amount": op("Wallet", "user", "一定额度需要支付的金额", { body: topUpAmountInput }),
  "POST /api/user/pay": op("Wallet", "user", "发起在线支付（返回已签名的易支付表单）", { body: payInput }),
  "GET /api/user/epay/notify": op("Wallet", "payment", "易支付的支付通知（签名参数）"),
  "POST /api/user/epay/notify": op("Wallet", "payment", "易支付的支付通知（签名表单）"),
  "GET /api/user/epay/return": op("Wallet", "public", "付款人浏览器的返回地址：重定向到 /topup"),

  // Drawing and asynchronous tasks
  "GET /api/mj/self": op("Tasks", "user", "用户的绘图任务", {
    query: [...taskFilters, { name: "mj_id", description: "task id" }],
  }),
  "GET /api/task/self": op("Tasks", "user", "用户的异步任务", {
    query: [...taskFilters, { name: "task_id", description: "task id" }],
  }),
  "GET /api/mj": op("Tasks", "admin", "全站的绘图任务", {
    query: [...taskFilters, { name: "mj_id", description: "task id" }, { name: "channel_id", type: "integer", description: "channel" }],
  }),
  "GET /api/task": op("Tasks", "admin", "全站的异步任务", {
    query: [...taskFilters, { name: "task_id", description: "task id" }, { name: "channel_id", type: "integer", description: "channel" }],
  }),

  "GET /api/openapi.json": op("System", "public", "本文档", {
    query: [{ name: "lang", description: "language of the summaries: en (default), zh, zh-TW or ja" }],
  }),
};
