// The console face: server-rendered pages. Each route names its access rule (page-route.ts);
// unknown paths render the not-found page (or the JSON 404 of the face they belong to).
import { Elysia, NotFoundError } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { faceOf } from "../faces.ts";
import { page } from "./page-route.ts";
import { aboutPage } from "./pages/about-page.tsx";
import { apiReferencePage } from "./pages/api-reference-page.tsx";
import { renderNotFoundPage } from "./pages/error-page.tsx";
import { channelPage } from "./pages/channels/channel-page.tsx";
import { chatPage, chatRedirectPage } from "./pages/chat/chat-pages.tsx";
import { detailPage } from "./pages/detail-page.tsx";
import { homePage } from "./pages/home-page.tsx";
import { loginPage } from "./pages/login-page.tsx";
import { logPage } from "./pages/logs/log-page.tsx";
import { playgroundPage } from "./pages/playground-page.tsx";
import { pricingPage } from "./pages/pricing-page.tsx";
import { registerPage } from "./pages/register-page.tsx";
import { redemptionPage } from "./pages/redemption/redemption-page.tsx";
import { settingsPage } from "./pages/settings/settings-page.tsx";
import { oauthCallbackPage } from "./pages/oauth-callback-page.tsx";
import { resetConfirmPage, resetRequestPage } from "./pages/reset-page.tsx";
import { userEditPage } from "./pages/users/user-edit-page.tsx";
import { usersPage } from "./pages/users/users-page.tsx";
import { topUpPage } from "./pages/topup-page.tsx";
import { tokenPage } from "./pages/tokens/token-page.tsx";
import { midjourneyPage } from "./pages/tasks/midjourney-page.tsx";
import { taskPage } from "./pages/tasks/task-page.tsx";

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
    .get("/oauth/telegram", page("public", oauthCallbackPage("/api/oauth/telegram/login")))
    .get("/oauth/telegram/bind", page("public", oauthCallbackPage("/api/oauth/telegram/bind")))
    .get("/user", page("admin", usersPage))
    .get("/user/edit", page("admin", userEditPage))
    .get("/user/edit/:id", page("admin", userEditPage))
    .get("/redemption", page("admin", redemptionPage))
    .get("/topup", page("user", topUpPage))
    .get("/detail", page("user", detailPage))
    .get("/token", page("user", tokenPage))
    .get("/log", page("user", logPage))
    .get("/midjourney", page("user", midjourneyPage))
    .get("/task", page("user", taskPage))
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
