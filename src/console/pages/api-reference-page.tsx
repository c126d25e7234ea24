// "/api-reference" (admins): the OpenAPI document of /api and /v1 as a page, grouped by tag: each
// operation's method, path, who may call it, its parameters and its request body schema. The
// page's words, the groups, who may call, where a parameter goes and the operations' summaries
// follow the visitor's language (the document built in it); the longer notes on operations and
// parameters are the document's English, written for tools.
import type { Language } from "../../i18n/languages.ts";
import { currentOpenApiDocument } from "../../openapi/openapi-routes.ts";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

type Parameter = { name: string; in: string; description?: string; schema?: { type?: string } };
type OperationView = {
  summary: string;
  description?: string;
  tags: string[];
  parameters: Parameter[];
  requestBody?: { description?: string; content: Record<string, { schema: unknown }> };
  "x-access"?: string;
};

const methodBadge: Record<string, string> = {
  get: "badge-info",
  post: "badge-success",
  put: "badge-warning",
  patch: "badge-warning",
  delete: "badge-error",
  options: "badge-ghost",
};

/** The document's tags, access levels and parameter places as catalog keys; anything newer shows as the document has it. */
const tagNames: Record<string, string> = {
  Channels: "渠道接口",
  Logs: "日志接口",
  Models: "模型接口",
  Options: "选项接口",
  Passkeys: "通行密钥接口",
  Personal: "个人账户接口",
  Redemptions: "兑换码接口",
  Relay: "中转接口",
  Sessions: "登录与会话接口",
  System: "系统接口",
  Tasks: "任务接口",
  Tokens: "令牌接口",
  "Two-factor": "两步验证接口",
  Users: "用户接口",
  Wallet: "钱包接口",
  Undocumented: "未归档接口",
};
const accessNames: Record<string, string> = {
  public: "任何人",
  user: "登录用户",
  admin: "管理员",
  root: "超级管理员",
  relay: "中转令牌",
  payment: "支付平台回调",
};
const placeNames: Record<string, string> = { query: "查询参数", path: "路径参数" };
const named = (t: PageContext["t"], names: Record<string, string>, value: string) => (names[value] ? t(names[value]) : value);

function operationsByTag(language: Language): Map<string, { method: string; path: string; operation: OperationView }[]> {
  const groups = new Map<string, { method: string; path: string; operation: OperationView }[]>();
  const document = currentOpenApiDocument(language);
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods as Record<string, OperationView>)) {
      const tag = operation.tags[0] ?? "";
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ method, path, operation });
    }
  }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** "integer | null", "array of string", "\"true\" | 1": one line per field instead of the schema's JSON. */
function typeOf(schema: JsonSchema | undefined): string {
  if (!schema || typeof schema !== "object") return "any";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.anyOf) return [...new Set(schema.anyOf.map(typeOf))].join(" | ");
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return schema.type ?? "any";
}

function BodyFields({ context, schema }: { context: PageContext; schema: JsonSchema }) {
  const { t } = context;
  const variants = schema.anyOf ?? [schema];
  return (
    <>
      {variants.map((variant) => {
        const object = variant.type === "array" && variant.items ? variant.items : variant;
        if (!object.properties)
          return (
            <p class="font-mono text-xs" safe>
              {typeOf(variant)}
            </p>
          );
        const required = new Set(object.required ?? []);
        return (
          <table class="table table-xs">
            <thead>
              <tr>
                <th safe>{t("参数")}</th>
                <th safe>{t("类型")}</th>
                <th safe>{t("必填")}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(object.properties).map(([name, field]) => (
                <tr>
                  <td class="font-mono" safe>
                    {variant.type === "array" ? `[].${name}` : name}
                  </td>
                  <td class="font-mono" safe>
                    {typeOf(field)}
                  </td>
                  <td>{required.has(name) ? "✓" : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        );
      })}
    </>
  );
}

function OperationRow({
  context,
  method,
  path,
  operation,
}: {
  context: PageContext;
  method: string;
  path: string;
  operation: OperationView;
}) {
  const { t } = context;
  const body = operation.requestBody;
  const bodyType = body ? Object.keys(body.content)[0] : undefined;
  const schema = body && bodyType ? (body.content[bodyType]!.schema as JsonSchema) : undefined;
  return (
    <details class="collapse collapse-arrow border border-base-300 bg-base-100" data-operation={`${method.toUpperCase()} ${path}`}>
      <summary class="collapse-title flex flex-wrap items-center gap-2 text-sm">
        <span class={`badge badge-sm font-mono ${methodBadge[method] ?? "badge-ghost"}`} safe>
          {method.toUpperCase()}
        </span>
        <code class="font-mono" safe>
          {path}
        </code>
        <span class="text-base-content/70" safe>
          {operation.summary}
        </span>
        <span class="badge badge-outline badge-sm ml-auto" safe>
          {named(t, accessNames, operation["x-access"] ?? "")}
        </span>
      </summary>
      <div class="collapse-content space-y-2 text-sm">
        {operation.description ? <p safe>{operation.description}</p> : ""}
        {operation.parameters.length > 0 ? (
          <table class="table table-xs">
            <thead>
              <tr>
                <th safe>{t("参数")}</th>
                <th safe>{t("位置")}</th>
                <th safe>{t("类型")}</th>
                <th safe>{t("说明")}</th>
              </tr>
            </thead>
            <tbody>
              {operation.parameters.map((parameter) => (
                <tr>
                  <td class="font-mono" safe>
                    {parameter.name}
                  </td>
                  <td safe>{named(t, placeNames, parameter.in)}</td>
                  <td safe>{parameter.schema?.type ?? ""}</td>
                  <td safe>{parameter.description ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          ""
        )}
        {body ? (
          <div>
            <div class="font-semibold">
              <span safe>{t("请求体")}</span>{" "}
              <code class="text-xs" safe>
                {bodyType ?? ""}
              </code>
            </div>
            {body.description ? <p safe>{body.description}</p> : ""}
            {schema && (schema.properties || schema.anyOf) ? <BodyFields context={context} schema={schema} /> : ""}
          </div>
        ) : (
          ""
        )}
      </div>
    </details>
  );
}

export function apiReferencePage(context: PageContext): Response {
  const { t } = context;
  const groups = operationsByTag(context.language);
  return renderPage(
    context,
    { title: t("API 参考") },
    <div class="space-y-4">
      <div class="card bg-base-100 shadow-sm">
        <div class="card-body">
          <h1 class="card-title" safe>
            {t("API 参考")}
          </h1>
          <p safe>{t("本页列出 /api 与 /v1 的全部接口，由接口实际校验所用的数据结构生成。")}</p>
          {context.language === "en" ? (
            ""
          ) : (
            <p class="text-base-content/70 text-sm" safe>
              {t("接口与参数的补充说明为 OpenAPI 文档原文（英文）。")}
            </p>
          )}
          <p>
            <a
              class="link link-primary"
              href={context.language === "en" ? "/api/openapi.json" : `/api/openapi.json?lang=${context.language}`}
              safe
            >
              {t("下载 OpenAPI 文档（JSON）")}
            </a>
          </p>
        </div>
      </div>
      {[...groups].map(([tag, operations]) => (
        <section class="space-y-2">
          <h3 class="text-lg font-semibold" data-tag={tag} safe>
            {named(t, tagNames, tag)}
          </h3>
          {operations.map(({ method, path, operation }) => (
            <OperationRow context={context} method={method} path={path} operation={operation} />
          ))}
        </section>
      ))}
    </div>,
  );
}
