// The one page of a task kind's list (/midjourney for drawings, /task for music): a card
// with the filters and the table, a slot the detail dialog is loaded into, and a banner when the
// kind has one. The filters start on the lists' one default range (today, date-range-fields.tsx);
// admins see every user's tasks and filter by channel; users open only their own tasks' details.
// Each kind gives its columns and its detail dialog (drawing-page.tsx, music-page.tsx).
import { taskFilterFromQuery, upstreamIdField } from "../../../services/tasks/task-filters.ts";
import type { TaskFilter, TaskKind, TaskRowBase } from "../../../services/tasks/task-store.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import { usernamesByIds } from "../../../services/users/user-names.ts";
import { DataTable, type Column } from "../../components/data-table.tsx";
import { fragmentResponse, fragmentTarget, pagingOf } from "../../fragment.ts";
import type { SignedInPageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { queryWithDefaults, TaskFilters } from "./task-parts.tsx";

export type TaskPageSpec<Row extends TaskRowBase> = {
  kind: TaskKind;
  path: string;
  /** The table region's id, and the slot the detail dialog is loaded into. */
  tableId: string;
  detailSlot: string;
  /** Catalog keys of the page's title and of an empty table. */
  title: string;
  emptyText: string;
  tasks: {
    list(filter: TaskFilter, paging: { offset: number; limit: number }): Promise<{ items: Row[]; total: number }>;
    findById(id: number): Promise<Row | undefined>;
  };
  /** `names`: the listed users' names by id (admins see every user's tasks). */
  columns(
    context: SignedInPageContext,
    admin: boolean,
    detailButton: (row: Row, label: string) => JSX.Element,
    names: Map<number, string>,
  ): Column<Row>[];
  /** The detail dialog of a task the visitor may open. */
  detail(context: SignedInPageContext, row: Row): JSX.Element;
  banner?(context: SignedInPageContext): JSX.Element | string;
  /** Where the page's audio and video may load from (a song's clips). */
  mediaSources?: string[];
};

function DetailButton(props: { path: string; detailSlot: string; id: number; label: string }) {
  return (
    <button
      type="button"
      class="btn btn-ghost btn-xs"
      hx-get={`${props.path}?detail=${props.id}`}
      hx-target={`#${props.detailSlot}`}
      hx-swap="innerHTML"
      safe
    >
      {props.label}
    </button>
  );
}

async function TaskTable<Row extends TaskRowBase>(props: {
  spec: TaskPageSpec<Row>;
  context: SignedInPageContext;
  query: Record<string, string>;
}) {
  const { spec, context, query } = props;
  const admin = isAdmin(context.user.role);
  const paging = pagingOf(context);
  const filter = taskFilterFromQuery(spec.kind, query, { userId: context.user.id, admin });
  const { items, total } = await spec.tasks.list(filter, { offset: (paging.page - 1) * paging.pageSize, limit: paging.pageSize });
  const names = admin ? await usernamesByIds(items.map((row) => row.user_id)) : new Map<number, string>();
  const detailButton = (row: Row, label: string) => (
    <DetailButton path={spec.path} detailSlot={spec.detailSlot} id={row.id} label={label} />
  );
  return (
    <DataTable
      id={spec.tableId}
      t={context.t}
      url={context.url}
      columns={spec.columns(context, admin, detailButton, names)}
      rows={items}
      emptyText={context.t(spec.emptyText)}
      paging={{ ...paging, total }}
    />
  );
}

async function TaskDetail<Row extends TaskRowBase>(props: { spec: TaskPageSpec<Row>; context: SignedInPageContext; id: number }) {
  const { spec, context } = props;
  const row = await spec.tasks.findById(props.id);
  // Users open only their own tasks; anything else reads as missing.
  if (!row || (!isAdmin(context.user.role) && row.user_id !== context.user.id))
    return (
      <p class="text-error" safe>
        {context.t("任务不存在")}
      </p>
    );
  return spec.detail(context, row);
}

export function taskListPage<Row extends TaskRowBase>(spec: TaskPageSpec<Row>) {
  return async (context: SignedInPageContext): Promise<Response> => {
    const { t } = context;
    const query = queryWithDefaults(context);
    const target = fragmentTarget(context.request);
    if (target === spec.detailSlot)
      return fragmentResponse(context, await TaskDetail({ spec, context, id: Number(context.url.searchParams.get("detail")) }));
    if (target === spec.tableId) return fragmentResponse(context, await TaskTable({ spec, context, query }));
    // Rendered by our own components, which escape what they show.
    const safeTable = await TaskTable({ spec, context, query });
    const safeBanner = spec.banner?.(context) ?? "";
    return renderPage(
      context,
      { title: t(spec.title), htmx: true, ...(spec.mediaSources ? { mediaSources: spec.mediaSources } : {}) },
      <div class="flex flex-col gap-4">
        {safeBanner}
        <div class="card bg-base-100 shadow-sm">
          <div class="card-body gap-3 p-4">
            <h1 class="card-title" safe>
              {t(spec.title)}
            </h1>
            <TaskFilters context={context} path={spec.path} target={spec.tableId} idField={upstreamIdField[spec.kind]} query={query} />
            {safeTable}
          </div>
        </div>
        <div id={spec.detailSlot}></div>
      </div>,
    );
  };
}
