// The console's icons (lucide, as static SVG text): one import per icon in use.
import {
  Bot,
  ChartColumn,
  ChevronDown,
  CircleUser,
  Coins,
  FileText,
  Funnel,
  Gift,
  House,
  Image,
  Info,
  KeyRound,
  Languages,
  ListChecks,
  LogOut,
  Menu,
  MessageSquare,
  Moon,
  PanelLeftClose,
  PanelLeftOpen,
  Route,
  Settings,
  Sparkles,
  Sun,
  Tag,
  Users,
  Wallet,
} from "lucide-static";

export const icons = {
  bot: Bot,
  chart: ChartColumn,
  chevronDown: ChevronDown,
  user: CircleUser,
  coins: Coins,
  file: FileText,
  filter: Funnel,
  gift: Gift,
  home: House,
  image: Image,
  info: Info,
  key: KeyRound,
  languages: Languages,
  tasks: ListChecks,
  logout: LogOut,
  menu: Menu,
  chat: MessageSquare,
  moon: Moon,
  collapse: PanelLeftClose,
  expand: PanelLeftOpen,
  route: Route,
  settings: Settings,
  sparkles: Sparkles,
  sun: Sun,
  tag: Tag,
  users: Users,
  wallet: Wallet,
} as const;

export type IconName = keyof typeof icons;

/** An icon sized by its container's font; the SVG text is ours, so it is not escaped. */
export function Icon(props: { name: IconName; class?: string }) {
  const safeSvg = icons[props.name]
    .replace("<svg", `<svg aria-hidden="true" class="${props.class ?? "size-5"}"`)
    .replace(/class="lucide[^"]*"/, "");
  return <span class="inline-flex shrink-0">{safeSvg}</span>;
}
