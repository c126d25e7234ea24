// The console's header: site name, main links, theme and language switches, the account menu
// (or sign-in links), and the New Year greeting that the client shows on 1 January.
import { Icon } from "../components/icons.tsx";
import { htmlLanguageTags, languageNames, languages } from "../../i18n/languages.ts";
import type { PageContext } from "../page-context.ts";

export function TopBar(props: { context: PageContext }) {
  const { context } = props;
  const { t, user, status } = context;
  const links = [
    { href: "/", label: "首页" },
    { href: user ? "/token" : "/login", label: "控制台" },
    { href: "/pricing", label: "定价" },
    { href: "/about", label: "关于" },
  ];
  return (
    <header class="navbar bg-base-100 border-base-300 sticky top-0 z-40 h-16 border-b px-2">
      <div class="navbar-start w-auto min-w-0 flex-1 gap-1">
        {user ? (
          <button type="button" class="btn btn-ghost btn-square min-[601px]:hidden" data-action="toggle-sidebar" aria-label={t("菜单")}>
            <Icon name="menu" />
          </button>
        ) : (
          ""
        )}
        <a href="/" class="btn btn-ghost gap-2 px-2 text-lg font-semibold">
          {status.logo ? <img src={status.logo} alt="" class="size-7 rounded" /> : <Icon name="route" class="size-6" />}
          <span class="max-[600px]:hidden" safe>
            {status.system_name}
          </span>
        </a>
        <nav class="hidden gap-1 md:flex" aria-label={t("主导航")}>
          {links.map((link) => (
            <a href={link.href} class="btn btn-ghost btn-sm" safe>
              {t(link.label)}
            </a>
          ))}
        </nav>
      </div>
      <div class="navbar-end w-auto shrink-0 gap-1 max-[600px]:gap-0">
        <button type="button" id="new-year" class="btn btn-ghost btn-sm hidden" data-action="new-year" title={t("新年快乐")}>
          🎉{" "}
          <span class="max-[600px]:hidden" safe>
            {t("新年快乐")}
          </span>
        </button>
        <button type="button" class="btn btn-ghost btn-square" data-action="toggle-theme" aria-label={t("切换主题")} title={t("切换主题")}>
          <span class="theme-dark-icon">
            <Icon name="moon" />
          </span>
          <span class="theme-light-icon">
            <Icon name="sun" />
          </span>
        </button>
        <div class="dropdown dropdown-end">
          <button type="button" tabindex="0" class="btn btn-ghost btn-square" aria-label={t("语言")} title={t("语言")}>
            <Icon name="languages" />
          </button>
          <ul tabindex="0" class="dropdown-content menu bg-base-100 rounded-box z-50 w-36 p-2 shadow">
            {languages.map((language) => (
              <li>
                <button
                  type="button"
                  data-set-language={language}
                  lang={htmlLanguageTags[language]}
                  class={context.language === language ? "menu-active" : ""}
                  safe
                >
                  {languageNames[language]}
                </button>
              </li>
            ))}
          </ul>
        </div>
        {user ? (
          <div class="dropdown dropdown-end">
            <button type="button" tabindex="0" class="btn btn-ghost gap-2 px-2" aria-label={t("账户")}>
              <div class="avatar avatar-placeholder">
                <div class="bg-primary text-primary-content w-8 rounded-full">
                  <span safe>{(user.display_name || user.username).slice(0, 1).toUpperCase()}</span>
                </div>
              </div>
              <span class="max-[600px]:hidden" safe>
                {user.display_name || user.username}
              </span>
            </button>
            <ul tabindex="0" class="dropdown-content menu bg-base-100 rounded-box z-50 w-40 p-2 shadow">
              <li>
                <a href="/setting">
                  <Icon name="settings" class="size-4" />
                  <span safe>{t("个人设置")}</span>
                </a>
              </li>
              <li>
                <button type="button" data-action="logout">
                  <Icon name="logout" class="size-4" />
                  <span safe>{t("退出")}</span>
                </button>
              </li>
            </ul>
          </div>
        ) : (
          <div class="flex gap-1">
            <a href="/login" class="btn btn-ghost btn-sm" safe>
              {t("登录")}
            </a>
            {status.register_enabled ? (
              <a href="/register" class="btn btn-primary btn-sm" safe>
                {t("注册")}
              </a>
            ) : (
              ""
            )}
          </div>
        )}
      </div>
    </header>
  );
}
