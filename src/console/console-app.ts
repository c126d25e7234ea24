// The console face: server-rendered pages. Each route names its access rule (page-route.ts);
// unknown paths render the not-found page (or the JSON 404 of the face they belong to).
import { Elysia, NotFoundError } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { faceOf } from "../faces.ts";
import { page } from "./page-route.ts";
import { aboutPage } from "./pages/about-page.tsx";
import { renderNotFoundPage } from "./pages/error-page.tsx";
import { detailPage } from "./pages/detail-page.tsx";
import { homePage } from "./pages/home-page.tsx";
import { loginPage } from "./pages/login-page.tsx";
import { registerPage } from "./pages/register-page.tsx";
import { redemptionPage } from "./pages/redemption/redemption-page.tsx";
import { settingsPage } from "./pages/settings/settings-page.tsx";
import { topUpPage } from "./pages/topup-page.tsx";
import { tokenPage } from "./pages/tokens/token-page.tsx";

export const consoleApp = ({ auth }: WebDeps) =>
  new Elysia({ name: "console" })
    .use(auth)
    .get("/", page("public", homePage))
    .get("/login", page("public", loginPage))
    .get("/register", page("public", registerPage))
    .get("/about", page("public", aboutPage))
    .get("/setting", page("user", settingsPage))
    .get("/redemption", page("admin", redemptionPage))
    .get("/topup", page("user", topUpPage))
    .get("/detail", page("user", detailPage))
    .get("/token", page("user", tokenPage))
    .get("*", (handler) => {
      if (faceOf(handler.path) !== "console") throw new NotFoundError();
      return page("public", renderNotFoundPage)(handler);
    });
