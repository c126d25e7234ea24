// The channel test dialog (issue 26, as new-api has it): every model of a channel in a list with
// a search, full names wrapped (and in the title), checkboxes to test one, several or all, and
// each model's result (time or the upstream's message) written into its row as it arrives. A
// multi-key channel may be tested with one of its keys. The runtime
// (console-runtime/channel-test-dialog.ts) runs the tests one after another through
// GET /api/channel/test/{id}?model=&key_index=.
import { Modal } from "../../components/modal.tsx";
import { fragmentResponse } from "../../fragment.ts";
import type { PageContext } from "../../page-context.ts";
import { findChannel } from "../../../services/channels/channel-queries.ts";
import { splitList } from "../../../services/channels/channel-input.ts";
import { channelKeysOf, isMultiKey, KeyStatus, keyStates, maskKey, parseChannelInfo } from "../../../services/channels/channel-keys.ts";
import { channelTableId } from "./channel-cells.tsx";

const testDialogId = "channel-test-dialog";

function KeyChoice(props: { context: PageContext; keys: { index: number; label: string; disabled: boolean }[] }) {
  const { t } = props.context;
  return (
    <label class="form-control w-full sm:w-56">
      <span class="label-text mb-1 block text-xs" safe>
        {t("测试使用的密钥")}
      </span>
      <select class="select select-bordered select-sm w-full" data-test-key>
        <option value="" safe>
          {t("第一个已启用的密钥")}
        </option>
        {props.keys.map((key) => (
          <option value={String(key.index)} safe>
            {key.disabled
              ? t("#{{number}} {{key}}（已禁用）", { number: key.index + 1, key: key.label })
              : `#${key.index + 1} ${key.label}`}
          </option>
        ))}
      </select>
    </label>
  );
}

export async function testDialogFragment(context: PageContext, channelId: number): Promise<Response> {
  const { t } = context;
  const row = await findChannel(channelId);
  const models = splitList(row.models);
  const info = parseChannelInfo(row.channel_info);
  const keys = isMultiKey(info)
    ? keyStates(info, channelKeysOf(row).length).map((state) => ({
        index: state.index,
        label: maskKey(channelKeysOf(row)[state.index] ?? ""),
        disabled: state.status !== KeyStatus.enabled,
      }))
    : [];
  return fragmentResponse(
    context,
    <Modal id={testDialogId} t={t} title={t("测试渠道 {{name}}", { name: row.name })} open wide>
      <div
        class="flex flex-col gap-3"
        data-channel-test={String(row.id)}
        data-refresh-table={`#${channelTableId}`}
        data-passed-text={t("{{seconds}} 秒")}
        data-running-text={t("测试中…")}
        data-progress-text={t("已测试 {{done}}/{{total}}，{{failed}} 个失败")}
        data-empty-message={t("请先选择要测试的模型")}
      >
        <div class="flex flex-wrap items-end gap-2">
          <label class="form-control w-full sm:w-56">
            <span class="label-text mb-1 block text-xs" safe>
              {t("搜索模型")}
            </span>
            <input type="search" class="input input-bordered input-sm w-full" data-test-search placeholder={t("模型名称的任意部分")} />
          </label>
          {keys.length ? <KeyChoice context={context} keys={keys} /> : ""}
        </div>
        <div class="flex flex-wrap items-center gap-2">
          <label class="label cursor-pointer gap-2 text-sm">
            <input type="checkbox" class="checkbox checkbox-sm" data-test-select-all aria-label={t("全选")} />
            <span safe>{t("全选（搜索结果）")}</span>
          </label>
          <button type="button" class="btn btn-primary btn-sm" data-test-selected safe>
            {t("测试所选")}
          </button>
          <button type="button" class="btn btn-sm" data-test-every safe>
            {t("测试全部 {{count}} 个模型", { count: models.length })}
          </button>
          <span class="text-sm" role="status" data-test-progress></span>
        </div>
        <ul class="divide-base-200 max-h-[60vh] divide-y overflow-y-auto" aria-label={t("模型")}>
          {models.map((model) => (
            <li class="flex items-start gap-2 py-1.5" data-test-model={model}>
              <input type="checkbox" class="checkbox checkbox-sm mt-0.5" data-test-pick aria-label={model} />
              <span class="min-w-0 flex-1 font-mono text-xs break-all" title={model} safe>
                {model}
              </span>
              <button type="button" class="btn btn-ghost btn-xs" data-test-one safe>
                {t("测试")}
              </button>
              <span class="w-40 shrink-0 text-right text-xs break-words" data-test-result></span>
            </li>
          ))}
        </ul>
      </div>
    </Modal>,
  );
}
