// Dialogs of /channel for tags: setting one tag on the selected channels, and editing every
// channel of a tag at once (blank fields stay unchanged, an empty new tag
// dissolves the tag, nothing changed is refused). The server applies the rules.
import { Modal } from "../../components/modal.tsx";
import { fragmentResponse } from "../../fragment.ts";
import type { PageContext } from "../../page-context.ts";
import { modelsOfTag } from "../../../services/channels/channel-queries.ts";
import { channelTableId } from "./channel-cells.tsx";

export function BatchTagDialog(props: { context: PageContext }) {
  const { t } = props.context;
  return (
    <Modal id="batch-tag-dialog" t={t} title={t("批量设置标签")}>
      <form class="flex flex-col gap-3" novalidate>
        <label class="form-control w-full">
          <span class="label-text mb-1 block text-sm" safe>
            {t("标签")}
          </span>
          <input name="tag" class="input input-bordered w-full" placeholder={t("请输入标签名称")} />
        </label>
        <button
          type="button"
          class="btn btn-primary"
          data-api-selected="POST /api/channel/batch/tag"
          data-selected={`#${channelTableId} input[data-row]:checked`}
          data-empty-message={t("请先选择要设置标签的渠道！")}
          data-success={`refresh:#${channelTableId}`}
          safe
        >
          {t("确定")}
        </button>
      </form>
    </Modal>
  );
}

export async function tagEditFragment(context: PageContext, tag: string): Promise<Response> {
  const { t } = context;
  const currentModels = await modelsOfTag(tag);
  return fragmentResponse(
    context,
    <Modal id="tag-edit-dialog" t={t} title={t("编辑标签：{{tag}}", { tag })} open>
      <form
        method="post"
        class="flex flex-col gap-3"
        data-api-form="PUT /api/channel/tag"
        data-success={`refresh:#${channelTableId}`}
        novalidate
      >
        <input type="hidden" name="tag" value={tag} />
        <p class="text-base-content/70 text-sm" safe>
          {t("留空的项目保持不变；清空新标签名称会解散该标签。")}
        </p>
        <label class="form-control w-full">
          <span class="label-text mb-1 block text-sm" safe>
            {t("新标签名称")}
          </span>
          <input name="new_tag" class="input input-bordered w-full" value={tag} />
        </label>
        <label class="form-control w-full">
          <span class="label-text mb-1 block text-sm" safe>
            {t("模型")}
          </span>
          <textarea
            name="models"
            class="textarea textarea-bordered w-full font-mono text-xs"
            rows="3"
            placeholder={currentModels || t("逗号分隔的模型名称")}
          />
        </label>
        <label class="form-control w-full">
          <span class="label-text mb-1 block text-sm" safe>
            {t("分组")}
          </span>
          <input name="groups" class="input input-bordered w-full" placeholder={t("逗号分隔的分组名称")} />
        </label>
        <label class="form-control w-full">
          <span class="label-text mb-1 block text-sm" safe>
            {t("模型重定向")}
          </span>
          <textarea
            name="model_mapping"
            class="textarea textarea-bordered w-full font-mono text-xs"
            rows="3"
            placeholder='{"gpt-3.5-turbo": "gpt-3.5-turbo-0125"}'
          />
        </label>
        <div class="grid grid-cols-2 gap-2">
          <label class="form-control w-full">
            <span class="label-text mb-1 block text-sm" safe>
              {t("优先级")}
            </span>
            <input name="priority" class="input input-bordered w-full" inputmode="numeric" />
          </label>
          <label class="form-control w-full">
            <span class="label-text mb-1 block text-sm" safe>
              {t("权重")}
            </span>
            <input name="weight" class="input input-bordered w-full" inputmode="numeric" />
          </label>
        </div>
        <button type="submit" class="btn btn-primary" safe>
          {t("提交")}
        </button>
      </form>
    </Modal>,
  );
}
