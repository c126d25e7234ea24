// The /api routes in the API reference: "METHOD pattern" as registered -> its documentation.
// tests/api/openapi.test.ts fails when a registered route has no entry here or an entry names
// no registered route, so this list and the router cannot part ways.
import { channelFields } from "../services/channels/channel-input.ts";
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

const turnstile: QueryParameter = { name: "turnstile", description: "Turnstile answer, when the human check is on" };
const logFilters: QueryParameter[] = [
  { name: "type", type: "integer", description: "log type: 1 top-up, 2 consumption, 3 admin, 4 system (0 or absent: all)" },
  { name: "start_timestamp", type: "integer", description: "unix seconds, inclusive" },
  { name: "end_timestamp", type: "integer", description: "unix seconds, inclusive" },
  { name: "model_name", description: "model name" },
  { name: "token_name", description: "token name" },
  { name: "group", description: "group" },
];
const adminLogFilters: QueryParameter[] = [...logFilters, { name: "username", description: "user name" }, { name: "channel", type: "integer", description: "channel id" }];
const taskFilters: QueryParameter[] = [
  ...paging(true),
  { name: "start_timestamp", type: "integer", description: "submitted at or after (unix seconds)" },
  { name: "end_timestamp", type: "integer", description: "submitted at or before (unix seconds)" },
];
const keyword: QueryParameter = { name: "keyword", description: "text to search for" };

export const apiOperations: OperationCatalogue = {
  // System
  "GET /api/status": op("System", "public", "Site name, logo, enabled sign-ins and features, as the console needs them"),
  "GET /api/notice": op("System", "public", "The site notice (Markdown or HTML)"),
  "GET /api/about": op("System", "public", "The About page content"),
  "GET /api/home_page_content": op("System", "public", "The home page content (HTML, Markdown or a URL to embed)"),
  "GET /api/option/": op("Options", "root", "Every option with its value (secrets left out)"),
  "PUT /api/option/": op("Options", "root", "Change one option, or several at once (all or nothing)", { body: optionChangesInput }),
  "POST /api/option/rest_model_ratio": op("Options", "root", "Reset the model ratios to the built-in defaults"),

  // Sessions and accounts
  "POST /api/user/login": op("Sessions", "public", "Sign in with user name (or email) and password; sets the session cookie", { body: loginInput, query: [turnstile] }),
  "GET /api/user/logout": op("Sessions", "public", "Sign out: the session ends on the server (every instance) and its cookie is cleared"),
  "POST /api/user/logout": op("Sessions", "public", "Sign out (the same as GET)"),
  "POST /api/user/register": op("Sessions", "public", "Register an account", { body: registerInput, query: [turnstile] }),
  "GET /api/verification": op("Sessions", "public", "Send an email verification code", { query: [{ name: "email", description: "address to verify" }, turnstile] }),
  "GET /api/reset_password": op("Sessions", "public", "Send a password reset link", { query: [{ name: "email", description: "the account's address" }, turnstile] }),
  "POST /api/user/reset": op("Sessions", "public", "Reset the password with the emailed token; answers the new password", { body: resetInput }),
  "GET /api/oauth/state": op("Sessions", "public", "Start a social sign-in: a state value (also set as a cookie)", { query: [{ name: "aff", description: "invite code to credit" }] }),
  "GET /api/oauth/email/bind": op("Sessions", "user", "Bind an email address with its verification code", { query: [{ name: "email", description: "address" }, { name: "code", description: "verification code" }] }),
  "GET /api/oauth/wechat": op("Sessions", "public", "Sign in with a WeChat verification code", { query: [{ name: "code", description: "code from the WeChat account" }] }),
  "GET /api/oauth/wechat/bind": op("Sessions", "user", "Bind WeChat with a verification code", { query: [{ name: "code", description: "code from the WeChat account" }] }),
  "GET /api/oauth/telegram/login": op("Sessions", "public", "Sign in with the Telegram login widget's signed fields"),
  "GET /api/oauth/telegram/bind": op("Sessions", "user", "Bind Telegram with the login widget's signed fields"),
  "GET /api/oauth/:provider": op("Sessions", "public", "Social sign-in callback (github, linuxdo): signs in, registers or binds", {
    query: [{ name: "code", description: "the provider's authorization code" }, { name: "state", description: "the state from /api/oauth/state" }],
  }),

  // The signed-in user
  "GET /api/user/self": op("Personal", "user", "The signed-in user's account"),
  "PUT /api/user/self": op("Personal", "user", "Change display name or password", { body: updateSelfInput }),
  "DELETE /api/user/self": op("Personal", "user", "Delete the own account (not for the super admin)"),
  "POST /api/user/self/password": op("Personal", "user", "Set the first password of an account created by a social sign-in (within 10 minutes of signing in)", { body: firstPasswordInput }),
  "DELETE /api/user/self/sessions": op("Personal", "user", "Sign out everywhere: every session of the account ends"),
  "GET /api/user/token": op("Personal", "user", "Generate a new system access token (shown once)"),
  "GET /api/user/aff": op("Personal", "user", "The own invite code (created on first call)"),
  "POST /api/user/aff_transfer": op("Personal", "user", "Move invite rewards into the balance", { body: affTransferInput }),
  "PUT /api/user/setting": op("Personal", "user", "Low-balance notification settings", { body: settingInput }),
  "GET /api/user/models": op("Personal", "user", "Models the user's group can call"),
  "GET /api/user/self/groups": op("Personal", "user", "Groups the user may choose for tokens, with their ratios"),

  // Users (admin)
  "GET /api/user/": op("Users", "admin", "List users", { query: paging(false) }),
  "GET /api/user/search": op("Users", "admin", "Search users by id, name, display name or email", { query: [keyword, { name: "group", description: "group" }, ...paging(false)] }),
  "GET /api/user/:id": op("Users", "admin", "One user"),
  "POST /api/user/": op("Users", "admin", "Create a user", { body: createUserInput }),
  "PUT /api/user/": op("Users", "admin", "Change a user (name, group, quota, role, password)", { body: updateUserInput }),
  "POST /api/user/manage": op("Users", "admin", "Promote, demote, disable, enable or delete a user", { body: manageUserInput }),
  "DELETE /api/user/:id": op("Users", "admin", "Delete a user"),

  // Channels (admin)
  "GET /api/channel/": op("Channels", "admin", "List channels (keys never included)", {
    query: [...paging(true), { name: "id_sort", type: "boolean", description: "order by id instead of priority" }, { name: "tag_mode", type: "boolean", description: "group rows by tag" }],
  }),
  "GET /api/channel/search": op("Channels", "admin", "Search channels by id, name, key or base URL", {
    query: [keyword, { name: "group", description: "group" }, { name: "model", description: "model" }],
  }),
  "GET /api/channel/models": op("Channels", "admin", "Every model name the channel types know, for the channel form"),
  "GET /api/channel/test": op("Channels", "admin", "Test every enabled channel (in the background)"),
  "GET /api/channel/test/:id": op("Channels", "admin", "Test one channel with a real request", { query: [{ name: "model", description: "model to test with" }] }),
  "GET /api/channel/update_balance": op("Channels", "admin", "Refresh every channel's balance (in the background)"),
  "GET /api/channel/update_balance/:id": op("Channels", "admin", "Refresh one channel's balance"),
  "GET /api/channel/fetch_models/:id": op("Channels", "admin", "The models a saved channel's upstream lists"),
  "POST /api/channel/fetch_models": op("Channels", "admin", "The models an upstream lists, for a channel not saved yet", { bodyNote: "{type, key, base_url, other}" }),
  "GET /api/channel/:id": op("Channels", "admin", "One channel (without its key)"),
  "POST /api/channel/": op("Channels", "admin", "Create channels (one per key line in batch mode); abilities follow", { body: channelFields }),
  "PUT /api/channel/": op("Channels", "admin", "Change a channel (an empty key keeps the old one)", { body: channelFields }),
  "DELETE /api/channel/disabled": op("Channels", "admin", "Delete every disabled channel"),
  "DELETE /api/channel/:id": op("Channels", "admin", "Delete a channel"),
  "POST /api/channel/batch": op("Channels", "admin", "Delete the given channels", { bodyNote: "{ids: number[]}" }),
  "POST /api/channel/batch/tag": op("Channels", "admin", "Set the tag of the given channels", { bodyNote: "{ids: number[], tag: string | null}" }),
  "POST /api/channel/fix": op("Channels", "admin", "Rebuild every channel's abilities"),
  "POST /api/channel/copy/:id": op("Channels", "admin", "Copy a channel", {
    query: [{ name: "suffix", description: "added to the copy's name" }, { name: "reset_balance", type: "boolean", description: "start the copy at balance 0" }],
  }),
  "PUT /api/channel/tag": op("Channels", "admin", "Change every channel of a tag (new tag, priority, weight, models, groups)", { bodyNote: "{tag, new_tag?, priority?, weight?, models?, groups?, model_mapping?}" }),
  "POST /api/channel/tag/enabled": op("Channels", "admin", "Enable every channel of a tag", { bodyNote: "{tag}" }),
  "POST /api/channel/tag/disabled": op("Channels", "admin", "Disable every channel of a tag", { bodyNote: "{tag}" }),

  // Tokens
  "GET /api/token/": op("Tokens", "user", "The user's tokens, with their keys", { query: paging(true, "size") }),
  "GET /api/token/search": op("Tokens", "user", "Search the user's tokens by name or key", { query: [keyword, { name: "token", description: "key, or part of it" }] }),
  "GET /api/token/:id": op("Tokens", "user", "One of the user's tokens"),
  "POST /api/token/": op("Tokens", "user", "Create tokens (count > 1 creates several)", { body: tokenFields }),
  "PUT /api/token/": op("Tokens", "user", "Change a token; with status_only, only its status", {
    body: tokenFields,
    query: [{ name: "status_only", description: "any value: change the status alone" }],
  }),
  "DELETE /api/token/:id": op("Tokens", "user", "Delete a token"),

  // Logs and usage
  "GET /api/log/self": op("Logs", "user", "The user's log entries", { query: [...logFilters, ...paging(false)] }),
  "GET /api/log/self/stat": op("Logs", "user", "Quota used by the user's matching entries, and the last minute's requests and tokens", { query: logFilters }),
  "GET /api/log/": op("Logs", "admin", "Log entries of the whole site", { query: [...adminLogFilters, ...paging(false)] }),
  "GET /api/log/stat": op("Logs", "admin", "Quota used by matching entries, and the last minute's requests and tokens", { query: adminLogFilters }),
  "DELETE /api/log/": op("Logs", "admin", "Delete entries older than a time", { query: [{ name: "target_timestamp", type: "integer", description: "unix seconds" }] }),
  "GET /api/data/": op("Logs", "admin", "Hourly usage rollups per user and model", {
    query: [{ name: "start_timestamp", type: "integer", description: "unix seconds" }, { name: "end_timestamp", type: "integer", description: "unix seconds" }, { name: "username", description: "one user" }],
  }),
  "GET /api/data/self": op("Logs", "user", "The user's hourly usage rollups per model", {
    query: [{ name: "start_timestamp", type: "integer", description: "unix seconds" }, { name: "end_timestamp", type: "integer", description: "unix seconds" }],
  }),
  "POST /api/data/refresh": op("Logs", "admin", "Recompute the usage rollups now"),

  // Models, groups, prices
  "GET /api/models": op("Models", "admin", "Models per channel type, for the channel form"),
  "GET /api/group": op("Models", "admin", "Every group name"),
  "GET /api/pricing": op("Models", "public", "The price list (signed-in users see their group's prices)"),

  // Redemption codes
  "GET /api/redemption/": op("Redemptions", "admin", "List redemption codes", { query: paging(false) }),
  "GET /api/redemption/search": op("Redemptions", "admin", "Search codes by id or name", { query: [keyword, ...paging(false)] }),
  "GET /api/redemption/:id": op("Redemptions", "admin", "One redemption code"),
  "POST /api/redemption/": op("Redemptions", "admin", "Create redemption codes (answers the keys)", { body: createRedemptionInput }),
  "PUT /api/redemption/": op("Redemptions", "admin", "Change a code; with status_only, only its status", {
    body: updateRedemptionInput,
    query: [{ name: "status_only", description: "any value: change the status alone ({id, status})" }],
  }),
  "DELETE /api/redemption/:id": op("Redemptions", "admin", "Delete a redemption code"),

  // Money in
  "POST /api/user/topup": op("Wallet", "user", "Redeem a code into the balance", { body: redeemInput }),
  "POST /api/user/amount": op("Wallet", "user", "The money an amount of quota costs", { body: topUpAmountInput }),
  "POST /api/user/pay": op("Wallet", "user", "Start an online payment (answers the signed Epay form)", { body: payInput }),
  "GET /api/user/epay/notify": op("Wallet", "payment", "Epay's payment notification (signed parameters)"),
  "POST /api/user/epay/notify": op("Wallet", "payment", "Epay's payment notification (signed form)"),
  "GET /api/user/epay/return": op("Wallet", "public", "Where the payer's browser returns: redirects to /topup"),

  // Drawing and asynchronous tasks
  "GET /api/mj/self": op("Tasks", "user", "The user's drawing tasks", { query: [...taskFilters, { name: "mj_id", description: "task id" }] }),
  "GET /api/task/self": op("Tasks", "user", "The user's asynchronous tasks", { query: [...taskFilters, { name: "task_id", description: "task id" }] }),
  "GET /api/mj": op("Tasks", "admin", "Drawing tasks of the whole site", { query: [...taskFilters, { name: "mj_id", description: "task id" }, { name: "channel_id", type: "integer", description: "channel" }] }),
  "GET /api/task": op("Tasks", "admin", "Asynchronous tasks of the whole site", {
    query: [...taskFilters, { name: "task_id", description: "task id" }, { name: "channel_id", type: "integer", description: "channel" }],
  }),

  "GET /api/openapi.json": op("System", "public", "This document"),
};
