// The tabs of /setting, chosen by ?tab= (personal by default). Personal is for everyone; the others are for the
// super admin. A tab is one file exporting its renderer; add it to this list.
import type { SignedInPageContext } from "../../page-context.ts";
import type { PageOptions } from "../../render-page.tsx";
import { modelTab } from "./model-tab.tsx";
import { operationTab } from "./operation-tab.tsx";
import { otherTab } from "./other-tab.tsx";
import { personalFragment, personalTab, personalTabOptions } from "./personal-tab.tsx";
import { pricesTab } from "./prices-tab.tsx";
import { rateLimitTab } from "./ratelimit-tab.tsx";
import { systemTab } from "./system-tab.tsx";

export type SettingsTab = {
  key: string;
  label: string;
  rootOnly: boolean;
  render: (context: SignedInPageContext) => JSX.Element | Promise<JSX.Element>;
  /** Extra page options the tab needs: a widget's script origins. */
  pageOptions?: (context: SignedInPageContext) => Partial<PageOptions>;
  /** A region of the tab that htmx refreshes by itself (by its element id), if the tab has any. */
  fragment?: (context: SignedInPageContext, target: string) => Promise<JSX.Element | undefined>;
};

export const settingsTabs: SettingsTab[] = [
  { key: "personal", label: "个人设置", rootOnly: false, render: personalTab, pageOptions: personalTabOptions, fragment: personalFragment },
  { key: "operation", label: "运营设置", rootOnly: true, render: operationTab },
  { key: "ratelimit", label: "速率限制设置", rootOnly: true, render: rateLimitTab },
  { key: "model", label: "模型相关设置", rootOnly: true, render: modelTab },
  { key: "prices", label: "价格管理", rootOnly: true, render: pricesTab },
  { key: "system", label: "系统设置", rootOnly: true, render: systemTab },
  { key: "other", label: "其他设置", rootOnly: true, render: otherTab },
];
