// The tabs of /setting (spec §2 Settings tabs). Personal is for everyone; the others are for the
// super admin. A tab is one file exporting its renderer; add it to this list.
import type { PageContext } from "../../page-context.ts";
import { modelTab } from "./model-tab.tsx";
import { operationTab } from "./operation-tab.tsx";
import { otherTab } from "./other-tab.tsx";
import { personalTab } from "./personal-tab.tsx";
import { rateLimitTab } from "./ratelimit-tab.tsx";
import { systemTab } from "./system-tab.tsx";

export type SettingsTab = {
  key: string;
  label: string;
  rootOnly: boolean;
  render: (context: PageContext) => JSX.Element | Promise<JSX.Element>;
  /** React islands the tab renders (their bundles are loaded with the page). */
  islands?: string[];
};

export const settingsTabs: SettingsTab[] = [
  { key: "personal", label: "个人设置", rootOnly: false, render: personalTab },
  { key: "operation", label: "运营设置", rootOnly: true, render: operationTab },
  { key: "ratelimit", label: "速率限制设置", rootOnly: true, render: rateLimitTab },
  { key: "model", label: "模型相关设置", rootOnly: true, render: modelTab, islands: ["pricing-editor"] },
  { key: "system", label: "系统设置", rootOnly: true, render: systemTab },
  { key: "other", label: "其他设置", rootOnly: true, render: otherTab },
];
