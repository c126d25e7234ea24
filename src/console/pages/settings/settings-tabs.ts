// The tabs of /setting (spec §2 Settings tabs). Personal is for everyone; the others are for the
// super admin. A tab is one file exporting its renderer; add it to this list.
import type { PageContext } from "../../page-context.ts";
import type { PageOptions } from "../../render-page.tsx";
import { personalTab, personalTabOptions } from "./personal-tab.tsx";

export type SettingsTab = {
  key: string;
  label: string;
  rootOnly: boolean;
  render: (context: PageContext) => JSX.Element | Promise<JSX.Element>;
  /** Extra page options the tab needs (e.g. a widget's script origins). */
  pageOptions?: (context: PageContext) => Partial<PageOptions>;
};

export const settingsTabs: SettingsTab[] = [
  { key: "personal", label: "个人设置", rootOnly: false, render: personalTab, pageOptions: personalTabOptions },
];
