// The console face: server-rendered pages. Each route names its access rule (page-route.ts);
// unknown paths render the not-found page (or the JSON 404 of the face they belong to).
import { Elysia, NotFoundError } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { faceOf } from "../faces.ts";
import { lazyPage } from "./lazy-page.ts";
import { page } from "./page-route.ts";
import { renderNotFoundPage } from "./pages/error-page.tsx";

// Page modules load on their first render (lazy-page.ts); the not-found page is also the
// error page app.ts renders, so it is loaded with the app.
const aboutPage = lazyPage(() => import("./pages/about-page.tsx").then((module) => module.aboutPage));
const apiReferencePage = lazyPage(() => import("./pages/api-reference-page.tsx").then((module) => module.apiReferencePage));
const channelPage = lazyPage(() => import("./pages/channels/channel-page.tsx").then((module) => module.channelPage));
const chatPage = lazyPage(() => import("./pages/chat/chat-pages.tsx").then((module) => module.chatPage));
const chatRedirectPage = lazyPage(() => import("./pages/chat/chat-pages.tsx").then((module) => module.chatRedirectPage));
const detailPage = lazyPage(() => import("./pages/detail-page.tsx").then((module) => module.detailPage));
const homePage = lazyPage(() => import("./pages/home-page.tsx").then((module) => module.homePage));
const loginPage = lazyPage(() => import("./pages/login-page.tsx").then((module) => module.loginPage));
const logPage = lazyPage(() => import("./pages/logs/log-page.tsx").then((module) => module.logPage));
const playgroundPage = lazyPage(() => import("./pages/playground-page.tsx").then((module) => module.playgroundPage));
const pricingPage = lazyPage(() => import("./pages/pricing-page.tsx").then((module) => module.pricingPage));
const registerPage = lazyPage(() => import("./pages/register-page.tsx").then((module) => module.registerPage));
const auditPage = lazyPage(() => import("./pages/audit/audit-page.tsx").then((module) => module.auditPage));
const redemptionPage = lazyPage(() => import("./pages/redemption/redemption-page.tsx").then((module) => module.redemptionPage));
const settingsPage = lazyPage(() => import("./pages/settings/settings-page.tsx").then((module) => module.settingsPage));
const resetConfirmPage = lazyPage(() => import("./pages/reset-page.tsx").then((module) => module.resetConfirmPage));
const resetRequestPage = lazyPage(() => import("./pages/reset-page.tsx").then((module) => module.resetRequestPage));
const userEditPage = lazyPage(() => import("./pages/users/user-edit-page.tsx").then((module) => module.userEditPage));
const usersPage = lazyPage(() => import("./pages/users/users-page.tsx").then((module) => module.usersPage));
const topUpPage = lazyPage(() => import("./pages/topup-page.tsx").then((module) => module.topUpPage));
const tokenPage = lazyPage(() => import("./pages/tokens/token-page.tsx").then((module) => module.tokenPage));
const drawingPage = lazyPage(() => import("./pages/tasks/drawing-page.tsx").then((module) => module.drawingPage));
const musicPage = lazyPage(() => import("./pages/tasks/music-page.tsx").then((module) => module.musicPage));
const oauthCallbackPage = (endpoint: string) =>
  lazyPage(() => import("./pages/oauth-callback-page.tsx").then((module) => module.oauthCallbackPage(endpoint)));

export const consoleApp = ({ auth }: WebDeps) =>
  new Elysia({ name: "console" })
    .use(auth)
    .get("/", page("public", homePage))
    .get("/login", page("public", loginPage))
    .get("/register", page("public", registerPage))
    .get("/about", page("public", aboutPage))
    .get("/setting", page("user", settingsPage))
    .get("/reset", page("public", resetRequestPage))
    .get("/user/reset", page("public", resetConfirmPage))
    .get("/oauth/github", page("public", oauthCallbackPage("/api/oauth/github")))
    .get("/oauth/linuxdo", page("public", oauthCallbackPage("/api/oauth/linuxdo")))
    .get("/oauth/oidc", page("public", oauthCallbackPage("/api/oauth/oidc")))
    .get("/oauth/telegram", page("public", oauthCallbackPage("/api/oauth/telegram/login")))
    .get("/oauth/telegram/bind", page("public", oauthCallbackPage("/api/oauth/telegram/bind")))
    .get("/user", page("admin", usersPage))
    .get("/user/edit", page("admin", userEditPage))
    .get("/user/edit/:id", page("admin", userEditPage))
    .get("/redemption", page("admin", redemptionPage))
    .get("/audit", page("admin", auditPage))
    .get("/topup", page("user", topUpPage))
    .get("/detail", page("user", detailPage))
    .get("/token", page("user", tokenPage))
    .get("/log", page("user", logPage))
    .get("/midjourney", page("user", drawingPage))
    .get("/task", page("user", musicPage))
    .get("/channel", page("admin", channelPage))
    .get("/channel/add", page("admin", channelPage))
    .get("/channel/edit/:id", page("admin", channelPage))
    .get("/chat", page("public", chatPage))
    .get("/chat/:id", page("public", chatPage))
    .get("/chat2link", page("user", chatRedirectPage))
    .get("/playground", page("user", playgroundPage))
    .get("/pricing", page("public", pricingPage))
    .get("/api-reference", page("admin", apiReferencePage))
    .get("*", (handler) => {
      if (faceOf(handler.path) !== "console") throw new NotFoundError();
      return page("public", renderNotFoundPage)(handler);
    });
