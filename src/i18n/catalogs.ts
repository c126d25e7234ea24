// The catalogs by language and namespace, as the server's i18next instance loads them
// (namespaces.ts holds them by namespace, the way islands import them).
import { languages, type Language } from "./languages.ts";
import {
  common,
  accounts,
  settings,
  channels,
  tokens,
  logs,
  money,
  relay,
  users,
  models,
  operations,
  tasks,
  playground,
  onboarding,
  security,
  inbound,
  pricing,
  apidocs,
  type Catalog,
} from "./namespaces.ts";

export type { Catalog } from "./namespaces.ts";

const byNamespace = {
  common,
  accounts,
  settings,
  channels,
  tokens,
  logs,
  money,
  relay,
  users,
  models,
  operations,
  tasks,
  playground,
  onboarding,
  security,
  inbound,
  pricing,
  apidocs,
};

export type Namespace = keyof typeof byNamespace;
export const namespaces = Object.keys(byNamespace) as Namespace[];

export const catalogs = Object.fromEntries(
  languages.map((language) => [language, Object.fromEntries(namespaces.map((namespace) => [namespace, byNamespace[namespace][language]]))]),
) as Record<Language, Record<Namespace, Catalog>>;
