// "/setting?tab=other" (super admin): the site's own words and look: notice, system name and
// logo, home page, about and footer. Admin content is Markdown or
// HTML, sanitised where it is shown (components/rich-content.tsx).
import type { PageContext } from "../../page-context.ts";
import { FieldGrid, OptionInput, OptionSection, OptionTextarea } from "./option-fields.tsx";

export function otherTab(context: PageContext): JSX.Element {
  const { t } = context;
  return (
    <div class="flex flex-col gap-4">
      <OptionSection context={context} id="other-notice" title={t("公告")} submit={t("设置公告")}>
        <OptionTextarea
          context={context}
          name="Notice"
          label={t("公告内容")}
          hint={t("支持 Markdown 与 HTML，留空则不显示公告")}
          rows={6}
        />
      </OptionSection>
      <OptionSection context={context} id="other-identity" title={t("个性化设置")}>
        <FieldGrid>
          <OptionInput context={context} name="SystemName" label={t("系统名称")} />
          <OptionInput context={context} name="Logo" label={t("Logo 图片地址")} placeholder="https://" type="url" />
        </FieldGrid>
      </OptionSection>
      <OptionSection context={context} id="other-home" title={t("首页内容")} submit={t("设置首页内容")}>
        <OptionTextarea
          context={context}
          name="HomePageContent"
          label={t("首页内容")}
          hint={t("支持 Markdown 与 HTML；填入一个 https 链接则以内嵌页面显示")}
          rows={8}
        />
      </OptionSection>
      <OptionSection context={context} id="other-about" title={t("关于")} submit={t("设置关于")}>
        <OptionTextarea
          context={context}
          name="About"
          label={t("关于页面内容")}
          hint={t("支持 Markdown 与 HTML；填入一个 https 链接则以内嵌页面显示")}
          rows={8}
        />
      </OptionSection>
      <OptionSection context={context} id="other-footer" title={t("页脚")} submit={t("设置页脚")}>
        <OptionTextarea context={context} name="Footer" label={t("页脚 HTML")} hint={t("留空则显示默认页脚")} rows={4} />
      </OptionSection>
    </div>
  );
}
