// The tabs of /setting (spec §2 Settings tabs). Personal is for everyone; the others are for the
// super admin. A tab is one file exporting its renderer; add it to this list.
import type { PageContext } from "../../page-context.ts";
import { personalTab } from "./personal-tab.tsx";

export type SettingsTab = {
  key: string;
  label: string;
  rootOnly: boolean;
  render: (context: PageContext) => JSX.Element | Promise<JSX.Element>;
};

export const settingsTabs: SettingsTab[] = [{ key: "personal", label: "个人设置", rootOnly: false, render: personalTab }];
